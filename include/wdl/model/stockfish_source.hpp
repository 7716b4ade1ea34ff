#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "wdl/model/wdl_model.hpp"

// Stockfish's WDL model as its source code states it (src/uci.cpp and src/uci.h), read the way
// updateWDL.sh reads a revision's normalization.
namespace wdl::model {

// The model of the source text: as[] and bs[], the polynomials' argument (std::clamp(material,
// A, B) / C, std::clamp(ply / 2 + 1, A, B) / C or std::min(240, ply) / 64.0) and whether evals
// are in PawnValueEg units. Lines starting with // are ignored. Nothing if as[] or bs[] is
// missing; throws wdl::Error for an argument it does not recognise.
std::optional<WdlModel> parse_stockfish_model(std::string_view source);

// What a model registry records of the source besides the model: the lines computing the
// polynomials' argument and the eval the model takes, and the NormalizeToPawnValue constant.
struct StockfishModelSource {
    WdlModel model;
    std::string mom_expression;                  // "std::clamp(material, 17, 78) / 58.0"
    std::optional<std::string> eval_expression;  // "std::clamp(double(v), -4000.0, 4000.0)"
    std::optional<int> stated_pawn_value;        // NormalizeToPawnValue, 2022-11 to SF 16.1
    bool takes_pawn_value_eg_units = false;      // x = 100 * v / PawnValueEg (until 2022-08)
};

// The expressions as the source writes them, blanks collapsed to one space. Nothing if as[] or
// bs[] is missing; throws wdl::Error as parse_stockfish_model.
std::optional<StockfishModelSource> parse_stockfish_model_source(std::string_view source);

// The PawnValueEg constant of src/types.h's text, if it has one.
std::optional<int> parse_pawn_value_eg(std::string_view types_header);

// The source text of a Stockfish tree (DIR: DIR/src/uci.cpp and DIR/src/uci.h) or of a revision
// of a git checkout (DIR@REV, read with git show). Throws wdl::Error naming what is missing.
std::string read_stockfish_source(const std::filesystem::path& tree,
                                  const std::optional<std::string>& revision);

// One file of a revision of a git checkout (git show REV:PATH); nothing if the revision has no
// such file. Throws wdl::Error if git is not on PATH.
std::optional<std::string> read_revision_file(const std::filesystem::path& tree,
                                              const std::string& revision, const std::string& path);

}  // namespace wdl::model
