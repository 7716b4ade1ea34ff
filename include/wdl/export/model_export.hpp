#pragma once

#include <array>
#include <string>
#include <vector>

#include "wdl/model/wdl_model.hpp"
#include "wdl/util/enum_names.hpp"

// A model as a small, self-contained source file for another engine's code (docs/export.md):
// W/D/L of an internal eval at a mom, per mille as Stockfish prints it, and the displayed eval
// and back, in C++, C, Rust, Python, JavaScript, or as JSON described by a JSON Schema.
// (The namespace is not `export`, which is a C++ keyword.)
namespace wdl::exporting {

enum class Language { Cpp, C, Rust, Python, JavaScript, Json };
inline constexpr std::array<util::EnumName<Language>, 6> kLanguageNames = {{
    {Language::Cpp, "cpp"},
    {Language::C, "c"},
    {Language::Rust, "rust"},
    {Language::Python, "python"},
    {Language::JavaScript, "javascript"},
    {Language::Json, "json"},
}};

// The source text of `model` in `language`. Its header comment (the JSON's "provenance" and
// "conventions") states the provenance, one line per entry, and what the functions take and
// return. Every form of the curves, every mom type and clamp, and any eval_scale are supported.
std::string export_model(const model::WdlModel& model, const std::vector<std::string>& provenance,
                         Language language);

}  // namespace wdl::exporting
