#include "wdl/competence/analysis.hpp"

#include <algorithm>
#include <memory>
#include <nlohmann/json.hpp>

#include "wdl/games/chunked_reader.hpp"
#include "wdl/games/game_replay.hpp"
#include "wdl/games/game_rules.hpp"
#include "wdl/pgn/reader.hpp"
#include "wdl/tablebase/material.hpp"

namespace wdl::competence {
namespace {

using tablebase::MoveValue;
using tablebase::Outcome;
using tablebase::Value;

// A rule-50 claim is possible once the clock reaches this many plies.
constexpr int kFiftyMovePlies = 100;
// Positions with more material than two queens cannot be of 4 men or fewer: no FEN needed.
constexpr int kMaxSmallMaterial = 18;

constexpr std::array<util::EnumName<Outcome>, 3> kOutcomeNames = {{
    {Outcome::Win, "win"},
    {Outcome::Draw, "draw"},
    {Outcome::Loss, "loss"},
}};

std::string_view outcome_name(Outcome outcome) { return util::name_of(kOutcomeNames, outcome); }

// Higher is better for the mover.
int rank_of(Value value) {
    if (value.outcome == Outcome::Win) return 1000 - value.plies;
    if (value.outcome == Outcome::Loss) return -1000 + value.plies;
    return 0;
}

const char* white_result(Outcome white) {
    return white == Outcome::Win ? "1-0" : white == Outcome::Loss ? "0-1" : "1/2-1/2";
}

Outcome table_outcome(counts::Outcome outcome) {
    return outcome == counts::Outcome::Win    ? Outcome::Win
           : outcome == counts::Outcome::Loss ? Outcome::Loss
                                              : Outcome::Draw;
}

Outcome flip(Outcome outcome) {
    return outcome == Outcome::Win    ? Outcome::Loss
           : outcome == Outcome::Loss ? Outcome::Win
                                      : Outcome::Draw;
}

// Analyses the games of one chunk, replayed by games::GameReplay.
class GameAnalyser {
  public:
    GameAnalyser(const std::string& file, tablebase::TableSource& source,
                 const AnalysisSettings& settings, AnalysisResult& out)
        : file_(file), source_(source), settings_(settings), out_(out), replay_(rules_, *this) {}
    GameAnalyser(const GameAnalyser&) = delete;
    GameAnalyser& operator=(const GameAnalyser&) = delete;

    void read(std::string_view text) { pgn::read_games(text, replay_); }
    const games::ProblemList& problems() const { return replay_.problems(); }

  private:
    friend class games::GameReplay<GameAnalyser>;

    void begin_game(std::size_t) {
        ++game_;
        ++out_.games_read;
        pending_.clear();
        pending_decisions_.clear();
        first_.reset();
        counters_ = {};
    }

    // A game its tags reject (the scanner's rules: result, termination, variant) is not read
    // move by move: a game lost on time from a table win says nothing of the technique.
    games::TagVerdict accept(const games::GameTags& tags) {
        if (auto reason = tags.rejection()) {
            ++out_.games_skipped;
            return {false, games::rejection_warning(tags, *reason)};
        }
        white_ = tags.white;
        black_ = tags.black;
        white_outcome_ = *tags.white_outcome;
        return {};
    }

    void skip_game(games::GameSkipReason) { ++out_.games_skipped; }

    void see_move(const chess::Board& board, const games::ReplayedMove& move) {
        if (board.material() <= kMaxSmallMaterial)
            examine(board, move.move, move.san, move.comment == "book");
    }

    void finish_game(const chess::Board& board) {
        for (auto& [groups, totals] : pending_)
            for (const auto& group : groups) out_.groups[group].add(totals);
        for (auto& decision : pending_decisions_)
            out_.decisions_kept.push_back(std::move(decision));
        out_.small_positions += counters_.small;
        out_.table_positions += counters_.table;
        out_.book_positions += counters_.book;
        out_.fifty_move_affected += counters_.affected;
        out_.fifty_move_skipped += counters_.fifty_skipped;
        out_.decisions += counters_.decisions;
        out_.indifferent += counters_.indifferent;
        for (const auto& [why, count] : counters_.uncovered) out_.uncovered[why] += count;
        if (first_) record_conversion(board);
    }

  private:
    struct FirstTablePosition {
        std::string endgame;
        std::string fen;
        Outcome white;
    };
    struct Counters {
        std::uint64_t small = 0, table = 0, book = 0, affected = 0, fifty_skipped = 0,
                      indifferent = 0, decisions = 0;
        std::map<std::string, std::uint64_t> uncovered;
    };

    void examine(const chess::Board& board, const chess::Move& played, std::string_view san,
                 bool book) {
        auto position = tablebase::position_from_board(board);
        // Two bare kings: no move can change the draw, and no table holds them.
        if (!position || position->count <= 2 || position->count > source_.max_men()) return;
        ++counters_.small;
        auto values = source_.move_values(board);
        if (!values.moves) {
            ++counters_.uncovered[values.uncovered];
            return;
        }
        const auto& moves = *values.moves;
        ++counters_.table;
        auto material = tablebase::Material::of(*position);
        std::string endgame = material.canonical().name();
        Value best = tablebase::best_value(moves);
        chess::Color mover = board.side_to_move();
        if (!first_) {
            first_ = FirstTablePosition{
                endgame, board.fen(),
                mover == chess::Color::White ? best.outcome : flip(best.outcome)};
        }
        if (book) {
            ++counters_.book;
            return;
        }
        auto played_at = std::find_if(moves.begin(), moves.end(),
                                      [&](const MoveValue& m) { return m.move == played; });
        if (played_at == moves.end()) return;

        // Values under the 50-move rule.
        std::vector<Value> values_for_mover;
        bool affected = false;
        for (const MoveValue& move : moves) {
            Value after = move.after;
            int clock = move.zeroing ? 0 : board.halfmove_clock() + 1;
            bool unreachable =
                after.outcome != Outcome::Draw && clock + after.plies > kFiftyMovePlies;
            affected |= unreachable;
            if (unreachable && settings_.fifty_move_rule == FiftyMoveRule::Draw) after = Value{};
            values_for_mover.push_back(after.before_move());
        }
        counters_.affected += affected;
        if (affected && settings_.fifty_move_rule == FiftyMoveRule::Skip) {
            ++counters_.fifty_skipped;
            return;
        }
        int depth = source_.max_depth(material);
        if (depth < 0) return;
        PreferenceFunction preference(settings_.kappa, depth + 1, depth + 1);
        std::vector<double> exponents;
        Value best_now = values_for_mover[0];
        for (std::size_t i = 0; i < moves.size(); ++i) {
            Value v = values_for_mover[i];
            if (rank_of(v) > rank_of(best_now)) best_now = v;
            int after_depth = moves[i].after.winner_moves();
            if (v.outcome == Outcome::Draw) after_depth = 0;
            exponents.push_back(preference.exponent(v.outcome, after_depth));
        }
        // Where every move has the same value the choice says nothing about c.
        if (std::all_of(exponents.begin(), exponents.end(),
                        [&](double e) { return e == exponents[0]; })) {
            ++counters_.indifferent;
            return;
        }
        std::size_t played_index = std::size_t(played_at - moves.begin());
        Value chosen = values_for_mover[played_index];
        GroupTotals totals;
        totals.decisions = 1;
        totals.best_moves = rank_of(chosen) == rank_of(best_now);
        totals.value_losses = int(chosen.outcome) < int(best_now.outcome);
        add_decision(exponents, played_index, settings_.grid, totals.log_likelihood);
        Role role = best_now.outcome == Outcome::Win    ? Role::Attacker
                    : best_now.outcome == Outcome::Loss ? Role::Defender
                                                        : Role::Drawn;
        const std::string& engine = mover == chess::Color::White ? white_ : black_;
        pending_.emplace_back(
            std::vector<std::string>{"all", "engine=" + engine,
                                     "engine=" + engine + " role=" + role_name(role),
                                     "engine=" + engine + " endgame=" + endgame},
            std::move(totals));
        ++counters_.decisions;
        if (settings_.keep_decisions)
            pending_decisions_.push_back(decision(board, engine, san, played, moves,
                                                  values_for_mover, endgame, role, affected));
    }

    Decision decision(const chess::Board& board, const std::string& engine, std::string_view san,
                      const chess::Move& played, const std::vector<MoveValue>& moves,
                      const std::vector<Value>& values, const std::string& endgame, Role role,
                      bool affected) const {
        Decision decision{file_,
                          game_,
                          board.fen(),
                          engine,
                          board.side_to_move() == chess::Color::White,
                          std::string(san),
                          board.to_uci(played),
                          endgame,
                          role,
                          affected,
                          {}};
        for (std::size_t i = 0; i < moves.size(); ++i) {
            decision.moves.push_back(
                {board.to_uci(moves[i].move), values[i].outcome,
                 values[i].outcome == Outcome::Draw ? 0 : moves[i].after.winner_moves()});
        }
        return decision;
    }

    void record_conversion(const chess::Board& board) {
        ++out_.games_with_table_positions;
        Outcome game_white = table_outcome(white_outcome_);
        const FirstTablePosition& first = *first_;
        auto failure = [&](const std::string& engine, const std::string& how) {
            out_.failures.push_back({file_, game_, white_, black_, first.endgame, first.fen, engine,
                                     white_result(first.white), white_result(game_white), how});
        };
        if (first.white == Outcome::Draw) {
            for (auto [color, engine] :
                 {std::pair{Outcome::Win, &black_}, {Outcome::Loss, &white_}}) {
                auto& counts = out_.conversions[{first.endgame, *engine}];
                ++counts.draws;
                if (game_white == color) {
                    ++counts.draws_not_held;
                    failure(*engine, "lost");
                }
            }
            return;
        }
        const std::string& winner = first.white == Outcome::Win ? white_ : black_;
        auto& counts = out_.conversions[{first.endgame, winner}];
        ++counts.wins;
        if (game_white == first.white) return;
        ++counts.wins_not_converted;
        bool fifty = game_white == Outcome::Draw && board.halfmove_clock() >= kFiftyMovePlies;
        counts.lost_to_fifty_moves += fifty;
        failure(winner,
                game_white == Outcome::Draw ? (fifty ? "drawn (50-move rule)" : "drawn") : "lost");
    }

    const std::string& file_;
    tablebase::TableSource& source_;
    const AnalysisSettings& settings_;
    AnalysisResult& out_;
    games::ReplayRules rules_;
    games::GameReplay<GameAnalyser> replay_;
    std::uint64_t game_ = 0;
    std::string white_, black_;
    counts::Outcome white_outcome_ = counts::Outcome::Draw;
    std::vector<std::pair<std::vector<std::string>, GroupTotals>> pending_;
    std::vector<Decision> pending_decisions_;
    std::optional<FirstTablePosition> first_;
    Counters counters_;
};

// What one chunk of games contributed; game numbers in it count from the chunk's start.
struct ChunkResult {
    AnalysisResult part;
    std::uint64_t games = 0;
};

// Analyses the chunks one thread reads, each into a result of its own, so that they can be
// merged in file order whatever thread read what.
class AnalysisConsumer : public games::ChunkConsumer {
  public:
    AnalysisConsumer(const std::vector<std::filesystem::path>& files,
                     tablebase::TableSource& source, const AnalysisSettings& settings)
        : files_(files), source_(source), settings_(settings) {}

    games::ChunkReport consume(const games::TextChunk& chunk) override {
        ChunkResult& result = results_[{chunk.file_index, chunk.offset}];
        std::string name = files_[chunk.file_index].string();
        games::ChunkReport report;
        GameAnalyser analyser(name, source_, settings_, result.part);
        analyser.read(chunk.text);
        report.problems = analyser.problems();
        report.games = result.games = result.part.games_read;
        return report;
    }

    std::map<std::pair<std::size_t, std::uint64_t>, ChunkResult>& results() { return results_; }

  private:
    const std::vector<std::filesystem::path>& files_;
    tablebase::TableSource& source_;
    const AnalysisSettings& settings_;
    std::map<std::pair<std::size_t, std::uint64_t>, ChunkResult> results_;
};

// Adds a chunk's part; its games are numbered after the `games_before` of its file.
void merge(AnalysisResult& into, AnalysisResult& from, std::uint64_t games_before) {
    for (auto& [group, totals] : from.groups) into.groups[group].add(totals);
    for (auto& [key, counts] : from.conversions) into.conversions[key].add(counts);
    for (auto& failure : from.failures) {
        failure.game += games_before;
        into.failures.push_back(std::move(failure));
    }
    for (auto& decision : from.decisions_kept) {
        decision.game += games_before;
        into.decisions_kept.push_back(std::move(decision));
    }
    for (auto& [why, count] : from.uncovered) into.uncovered[why] += count;
    into.games_read += from.games_read;
    into.games_skipped += from.games_skipped;
    into.games_with_table_positions += from.games_with_table_positions;
    into.small_positions += from.small_positions;
    into.table_positions += from.table_positions;
    into.book_positions += from.book_positions;
    into.fifty_move_affected += from.fifty_move_affected;
    into.fifty_move_skipped += from.fifty_move_skipped;
    into.indifferent += from.indifferent;
    into.decisions += from.decisions;
}

}  // namespace

std::string decision_line(const Decision& decision) {
    nlohmann::json line;
    line["file"] = decision.file;
    line["game"] = decision.game;
    line["fen"] = decision.fen;
    line["mover"] = decision.mover;
    line["color"] = decision.white_to_move ? "white" : "black";
    line["played"] = decision.played;
    line["played_uci"] = decision.played_uci;
    line["endgame"] = decision.endgame;
    line["role"] = role_name(decision.role);
    line["fifty_move_affected"] = decision.fifty_move_affected;
    nlohmann::json list = nlohmann::json::array();
    for (const auto& choice : decision.moves)
        list.push_back(
            {{"move", choice.uci}, {"value", outcome_name(choice.value)}, {"depth", choice.depth}});
    line["moves"] = std::move(list);
    // Player names come from the games' tags, which need not be UTF-8: replaced, not thrown.
    return line.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

const char* role_name(Role role) { return util::name_of(kRoleNames, role).data(); }

void GroupTotals::add(const GroupTotals& other) {
    decisions += other.decisions;
    best_moves += other.best_moves;
    value_losses += other.value_losses;
    if (log_likelihood.empty()) log_likelihood.assign(other.log_likelihood.size(), 0.0);
    for (std::size_t i = 0; i < other.log_likelihood.size(); ++i)
        log_likelihood[i] += other.log_likelihood[i];
}

void ConversionCounts::add(const ConversionCounts& other) {
    wins += other.wins;
    wins_not_converted += other.wins_not_converted;
    lost_to_fifty_moves += other.lost_to_fifty_moves;
    draws += other.draws;
    draws_not_held += other.draws_not_held;
}

AnalysisResult analyse_files(std::vector<std::filesystem::path> files,
                             tablebase::TableSource& source, const AnalysisSettings& settings,
                             games::ReadProgress* progress) {
    std::sort(files.begin(), files.end());
    std::vector<std::unique_ptr<AnalysisConsumer>> workers;
    std::vector<games::ChunkConsumer*> consumers;
    for (int i = 0; i < std::max(1, settings.threads); ++i) {
        workers.push_back(std::make_unique<AnalysisConsumer>(files, source, settings));
        consumers.push_back(workers.back().get());
    }
    games::ReadSummary summary = games::read_in_chunks(files, consumers, {}, progress);
    // In file and chunk order, so that sums and lists do not depend on the threads.
    std::map<std::pair<std::size_t, std::uint64_t>, ChunkResult*> chunks;
    for (auto& worker : workers)
        for (auto& [key, chunk] : worker->results()) chunks[key] = &chunk;
    AnalysisResult result;
    std::size_t file = files.size();
    std::uint64_t games_before = 0;
    for (auto& [key, chunk] : chunks) {
        if (key.first != file) file = key.first, games_before = 0;
        merge(result, chunk->part, games_before);
        games_before += chunk->games;
    }
    result.files = std::move(summary);
    return result;
}

}  // namespace wdl::competence
