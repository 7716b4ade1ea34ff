#pragma once

#include <array>
#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "wdl/competence/model.hpp"
#include "wdl/games/chunked_reader.hpp"
#include "wdl/tablebase/move_values.hpp"
#include "wdl/util/enum_names.hpp"

namespace wdl::competence {

// Tables ignore the 50-move rule, games do not. A decision is affected when, with the
// halfmove clock after some move, that move's table result cannot be reached within the rule
// (clock + plies to the table's goal > 100; exact for DTC without pawns, an upper
// bound otherwise, so some decisions are counted as affected that are not).
enum class FiftyMoveRule {
    Skip,    // affected decisions are not used (default)
    Draw,    // a result that cannot be reached counts as a draw
    Ignore,  // the table values are used as they are
};
inline constexpr std::array<util::EnumName<FiftyMoveRule>, 3> kFiftyMoveRuleNames = {{
    {FiftyMoveRule::Skip, "skip"},
    {FiftyMoveRule::Draw, "draw"},
    {FiftyMoveRule::Ignore, "ignore"},
}};

// The mover's standing in a decision's position, by the tables.
enum class Role { Attacker, Defender, Drawn };
inline constexpr std::array<util::EnumName<Role>, 3> kRoleNames = {{
    {Role::Attacker, "attacker"},
    {Role::Defender, "defender"},
    {Role::Drawn, "drawn"},
}};
const char* role_name(Role role);

struct AnalysisSettings {
    CompetenceGrid grid{0, 50, 0.1};
    double kappa = 1.0;
    FiftyMoveRule fifty_move_rule = FiftyMoveRule::Skip;
    int threads = 1;
    bool keep_decisions = false;  // collect one JSON line per decision (--decisions)
};

// The log-likelihood on the grid and counts of one group of decisions.
struct GroupTotals {
    std::uint64_t decisions = 0;
    std::uint64_t best_moves = 0;    // the played move was one of the metric-optimal moves
    std::uint64_t value_losses = 0;  // the played move lost value (win to draw/loss, draw to loss)
    std::vector<double> log_likelihood;

    void add(const GroupTotals& other);
};

// A game whose first table position was not played out to the table's result.
struct ConversionFailure {
    std::string file;
    std::uint64_t game = 0;  // 1-based within its file
    std::string white, black;
    std::string endgame;
    std::string fen;
    std::string engine;  // the side that had the table win, or that lost a table draw
    std::string table;   // the table's result for White: "1-0", "1/2-1/2", "0-1"
    std::string result;  // the game's
    std::string how;     // "drawn (50-move rule)", "drawn", "lost"
};

// Games whose first table position was a win (or a draw) for an engine in an endgame.
struct ConversionCounts {
    std::uint64_t wins = 0;
    std::uint64_t wins_not_converted = 0;
    std::uint64_t lost_to_fifty_moves = 0;
    std::uint64_t draws = 0;
    std::uint64_t draws_not_held = 0;

    void add(const ConversionCounts& other);
};

// One decision as --decisions writes it (a JSON line, decision_line()).
struct Decision {
    struct Choice {
        std::string uci;
        tablebase::Outcome value = tablebase::Outcome::Draw;  // for the mover
        int depth = 0;                                        // winner's moves; 0 for a draw

        bool operator==(const Choice&) const = default;
    };
    std::string file;
    std::uint64_t game = 0;  // 1-based, in its file
    std::string fen, mover;
    bool white_to_move = true;
    std::string played, played_uci, endgame;
    Role role = Role::Drawn;
    bool fifty_move_affected = false;
    std::vector<Choice> moves;

    bool operator==(const Decision&) const = default;
};

// The JSON line of a decision (no newline).
std::string decision_line(const Decision& decision);

struct AnalysisResult {
    // Keys: "all", "engine=E", "engine=E role=R", "engine=E endgame=KQKR".
    std::map<std::string, GroupTotals> groups;
    // Keyed by (endgame, engine).
    std::map<std::pair<std::string, std::string>, ConversionCounts> conversions;
    std::vector<ConversionFailure> failures;
    std::vector<Decision> decisions_kept;  // when asked for
    games::ReadSummary files;              // with the warnings of unreadable files and broken games
    std::uint64_t games_read = 0, games_skipped = 0;
    std::uint64_t games_with_table_positions = 0;
    std::uint64_t small_positions = 0;  // mainline positions of 3 or 4 men (a move was played)
    std::uint64_t table_positions = 0;  // ... whose every move the tables cover
    std::uint64_t book_positions = 0;   // table positions of book moves
    std::uint64_t fifty_move_affected = 0;
    std::uint64_t fifty_move_skipped = 0;
    std::uint64_t indifferent = 0;  // every move of the same value: no information, not used
    std::uint64_t decisions = 0;
    std::map<std::string, std::uint64_t> uncovered;  // positions of <= max men not covered, by why
};

// Reads the games of the files (in path order, whatever order they are given in) through the
// scanner's chunked reader with settings.threads threads, and collects the decisions and
// conversions that the source's tables cover. The result does not depend on the number of threads
// or the order of the files.
AnalysisResult analyse_files(std::vector<std::filesystem::path> files,
                             tablebase::TableSource& source, const AnalysisSettings& settings,
                             games::ReadProgress* progress = nullptr);

}  // namespace wdl::competence
