#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "wdl/model/wdl_model.hpp"

// The registry of the WDL models Stockfish has shipped, under the names users give them: the
// bundled one (data/models/stockfish_wdl_history.json) or a file that `compareWDL --history`
// wrote from a Stockfish clone (docs/comparison.md).
namespace wdl::model {

struct PublishedModel {
    std::string name;                       // "sf17.1", or "sf@2024-05-30" for an unreleased model
    std::vector<std::string> releases;      // "sf17", "sf17.1": every release that shipped it
    std::vector<std::string> release_tags;  // the same as the repository tags them: "sf_17.1"
    std::string commit, date, subject;      // the Stockfish commit that introduced it
    WdlModel model;
    // The NormalizeToPawnValue constant in the source, where there was one (2022-11 to 16.1).
    std::optional<int> stated_pawn_value;
    std::string mom_expression;  // the source line computing the polynomials' argument
    std::optional<std::string> eval_expression;  // the line computing the eval, until SF 16
    std::string eval_units;                      // what eval the model takes
    // PawnValueEg as the model's last commit had it, for models taking 100 * v / PawnValueEg.
    std::optional<int> pawn_value_eg;
};

// Whose history a registry was read from: the newest commit the walk saw.
struct RegistryOrigin {
    std::string commit, date;
};

struct Registry {
    std::vector<PublishedModel> models;    // oldest first
    std::optional<RegistryOrigin> walked;  // unknown for a file of the plain list form
    std::string source;                    // "the bundled registry" or "registry FILE"
};

// The registry file format: {"walked": {"commit", "date"}, "models": [...]}, or the plain list
// of models of Stockfish's facts. `source` names the text in errors. Throws wdl::Error.
Registry parse_registry(std::string_view text, const std::string& source);
std::string registry_text(const Registry& registry);

// "sf17.1" for the newest release that shipped a model, else "sf@DATE".
std::string published_name(const std::vector<std::string>& releases, const std::string& date);
// The registry's evalUnits of a model: "internal", or centipawns of PawnValueEg.
std::string_view pawn_value_eg_units(bool takes_pawn_value_eg);
// "sf_17.1" -> "sf17.1".
std::string release_name(std::string_view tag);

// From now on the registry is this file's (--registry, WDLFIT_REGISTRY) instead of the bundled
// one. Call it before any lookup, from one thread. Throws wdl::Error naming an unreadable file.
void use_registry_file(const std::filesystem::path& file);
const Registry& active_registry();

// The active registry's models, oldest first.
const std::vector<PublishedModel>& published_models();

// A model by name: a release ("sf18", "sf17.1", "sf12"), "sf" for the newest model,
// "sf@YYYY-MM-DD" for the model of a commit date, or "sf@<commit prefix>" (4 or more hex digits).
const PublishedModel* find_published_model(std::string_view name);

// The names find_published_model accepts, for messages and --help: "sf12, sf13, ..., sf".
std::string published_model_names();

}  // namespace wdl::model
