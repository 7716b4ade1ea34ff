#pragma once

#include <filesystem>
#include <optional>
#include <string>

#include "wdl/fit/count_grid.hpp"
#include "wdl/games/eval_parsing.hpp"
#include "wdl/games/game_reading.hpp"
#include "wdl/model/curve.hpp"
#include "wdl/util/enum_names.hpp"

// scaleWDL: did a patch change the eval scale? Each engine of a test fitted on its own moves of
// the same games and compared game by game (docs/comparison.md).
namespace wdl::commands {

// Which pairings are fitted together besides each on its own.
enum class Pooling { None, Pair, All };
inline constexpr std::array<util::EnumName<Pooling>, 3> kPoolingNames = {{
    {Pooling::None, "none"},
    {Pooling::Pair, "pair"},
    {Pooling::All, "all"},
}};

struct ScaleWdlOptions {
    games::GameSelection games;
    std::optional<std::string> match_engine;  // default: --matchRev
    std::optional<std::filesystem::path> fix_fen_source;
    games::EvalParsing eval_parsing = games::EvalParsing::Exact;
    int bin_width = 5;
    int groups = 64;  // game groups of the jackknife
    Pooling pool = Pooling::Pair;
    std::optional<int> normalize_to_pawn_value;
    std::optional<std::string> normalize_data;
    fit::GridFilter filter;
    int mom_target = 58;
    model::CurveForm a_form, b_form;
    double confidence = 0.95;
    bool asymmetry = true;
    int folds = 10;
    int concurrency = 1;
    std::optional<std::filesystem::path> json, png;
};

// Reads the games, fits and compares every pairing (and the pooled ones), prints the report,
// writes the JSON and the plot. Throws wdl::Error for bad options and when no game was usable.
void scale_wdl(const ScaleWdlOptions& options);

}  // namespace wdl::commands
