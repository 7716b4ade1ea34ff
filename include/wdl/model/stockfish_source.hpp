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

// The source text of a Stockfish tree (DIR: DIR/src/uci.cpp and DIR/src/uci.h) or of a revision
// of a git checkout (DIR@REV, read with git show). Throws wdl::Error naming what is missing.
std::string read_stockfish_source(const std::filesystem::path& tree,
                                  const std::optional<std::string>& revision);

}  // namespace wdl::model
