#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "wdl/annotate/expected_score.hpp"
#include "wdl/annotate/symbols.hpp"
#include "wdl/games/chunked_reader.hpp"

// Annotating PGN games with position and move symbols from their engine evals (annotateWDL):
// the text is copied byte for byte, with NAGs (and optionally [%wdl] comments) added after the
// moves; a game that cannot be replayed is copied unchanged.
namespace wdl::annotate {

struct AnnotateSettings {
    PositionScheme scheme = PositionScheme::Konrod9;
    MoveThresholds thresholds;
    bool wdl_comments = false;  // add [%wdl w,d,l]: White's W/D/L per mille after the move
    bool lichess = false;       // also lichess's accuracies (lichess_accuracy.hpp) per player
};

// A player's lichess accuracies over the games: each game's from its first run of evaluated
// plies (lichess needs an eval after every ply; book moves have none), after lichess's initial
// eval.
struct LichessTotals {
    std::uint64_t games = 0, moves = 0;
    double game_accuracy_sum = 0, move_accuracy_sum = 0;
    double game_accuracy() const { return games ? game_accuracy_sum / double(games) : 0; }
    double move_accuracy() const { return moves ? move_accuracy_sum / double(moves) : 0; }
};

// One player's moves whose expected-score drop is known.
struct PlayerSummary {
    std::uint64_t moves = 0;
    double loss = 0;                      // sum of the drops (gains count 0)
    std::array<std::uint64_t, 3> nags{};  // ?!, ?, ??
    LichessTotals lichess;
    double mean_loss() const { return moves ? loss / double(moves) : 0; }
    // 100 (1 - 2 mean loss), at least 0: 100 never gives anything away, 0 gives away half a
    // point a move.
    double accuracy() const;
};

struct AnnotationSummary {
    bool lichess = false;  // the players' lichess totals are filled
    std::uint64_t games = 0;
    std::uint64_t games_with_evals = 0;
    std::uint64_t games_copied = 0;  // could not be replayed: copied unchanged
    std::uint64_t position_symbols = 0;
    std::uint64_t move_symbols = 0;
    std::map<std::string, PlayerSummary> players;
    // The games copied unchanged, bounded as every reader of games bounds them; game_index
    // counts the games of the text read into this summary from 0.
    games::ProblemList problems;

    // Adds the other's counts (not its problems, which belong to its text).
    void add(const AnnotationSummary& other);
};

// Annotates the games of `text` (whole games, as read_games reads them), appending the
// result to `out`; the summary's counts go on from what it holds (game numbers too).
void annotate_games(std::string_view text, const ExpectedScore& expected,
                    const AnnotateSettings& settings, std::string& out, AnnotationSummary& summary);

// The printed summary: games, symbols, and a line per player (moves judged, mean loss, ?!, ?,
// ?? and accuracy, and lichess's mean game accuracy when it was computed), players by name.
std::string summary_text(const AnnotationSummary& summary);
nlohmann::ordered_json summary_json(const AnnotationSummary& summary);

}  // namespace wdl::annotate
