#include "wdl/annotate/annotator.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <optional>

#include "wdl/chess/board.hpp"
#include "wdl/pgn/reader.hpp"
#include "wdl/scan/eval_parsing.hpp"
#include "wdl/scan/game_rules.hpp"

namespace wdl::annotate {
namespace {

// A mainline move and what the evals around it say.
struct MoveRecord {
    std::size_t san_end = 0;                 // offset just past the move in the text
    std::optional<std::size_t> comment_end;  // offset after its brace comment's last word
    bool white_moved = true;
    PositionPlace before, after;
    std::optional<int> mover_eval;        // engine comment: the mover's eval, before the move
    std::optional<int> white_eval_after;  // lichess [%eval]: White's eval, after the move
};

// Text to add at an offset of the original.
struct Insertion {
    std::size_t offset;
    std::string text;
};

PositionPlace place_of(const chess::Board& board) {
    return {board.fullmove_number(), board.material(), board.side_to_move() == chess::Color::Black};
}

class GameAnnotator : public pgn::Visitor {
  public:
    GameAnnotator(std::string_view text, const ExpectedScore& expected,
                  const AnnotateSettings& settings, AnnotationSummary& summary)
        : text_(text), expected_(expected), settings_(settings), summary_(summary) {}

    void begin_game(std::size_t) override {
        ++summary_.games;
        tags_.clear();
        moves_.clear();
        broken_.clear();
    }
    void tag(std::string_view name, std::string_view value) override { tags_.read(name, value); }
    bool begin_movetext() override {
        if (!tags_.unsupported_variant.empty()) {
            broken_ = "unsupported variant \"" + tags_.unsupported_variant + "\"";
        } else if (!tags_.set_up(board_, nullptr)) {
            broken_ = "invalid FEN \"" + tags_.fen.substr(0, 200) + "\"";
        }
        return broken_.empty();
    }
    bool move(std::string_view san, std::string_view comment) override {
        MoveRecord record;
        record.san_end = std::size_t(san.data() - text_.data()) + san.size();
        if (comment.data() != nullptr) {
            std::size_t start = std::size_t(comment.data() - text_.data());
            std::size_t end = start + comment.size();
            if (end < text_.size() && text_[end] == '}') {
                // After the comment's last word, so that "{ [%eval 0.2] }" keeps its layout.
                while (end > start && (text_[end - 1] == ' ' || text_[end - 1] == '\n')) --end;
                record.comment_end = end;
            }
        }
        record.white_moved = board_.side_to_move() == chess::Color::White;
        record.before = place_of(board_);
        int eval = scan::comment_eval_value(comment, scan::EvalParsing::Exact);
        if (eval != scan::kNoEval) record.mover_eval = eval;
        auto move = board_.parse_san(san);
        if (!move) {
            broken_ = fmt::format("cannot play move \"{}\" at ply {}", san.substr(0, 40),
                                  moves_.size() + 1);
            return false;
        }
        board_.play(*move);
        record.after = place_of(board_);
        if (!comment.empty())
            record.white_eval_after = scan::lichess_eval(comment, scan::EvalParsing::Exact);
        moves_.push_back(record);
        return true;
    }
    void end_game(bool) override {
        if (!broken_.empty()) {
            ++summary_.games_copied;
            summary_.problems.push_back(fmt::format("game {}: {}", summary_.games, broken_));
            return;
        }
        annotate_moves();
    }

    std::vector<Insertion> insertions;

  private:
    // The mover's expected score before move k, and after it (its opponent's eval turned).
    std::optional<double> mover_score_before(std::size_t k) const {
        const MoveRecord& m = moves_[k];
        if (m.mover_eval) return expected_.score(*m.mover_eval, m.before);
        if (k > 0 && moves_[k - 1].white_eval_after) {
            double white = expected_.score(*moves_[k - 1].white_eval_after, m.before);
            return m.white_moved ? white : 1 - white;
        }
        return std::nullopt;
    }
    std::optional<double> mover_score_after(std::size_t k) const {
        const MoveRecord& m = moves_[k];
        if (k + 1 < moves_.size() && moves_[k + 1].mover_eval)
            return 1 - expected_.score(*moves_[k + 1].mover_eval, moves_[k + 1].before);
        if (m.white_eval_after) {
            double white = expected_.score(*m.white_eval_after, m.after);
            return m.white_moved ? white : 1 - white;
        }
        return std::nullopt;
    }
    // White's expected score of the position after move k and the eval it comes from: the
    // mover's own eval (an engine's score of the line its move starts), else lichess's.
    std::optional<std::pair<int, PositionPlace>> white_eval_after(std::size_t k) const {
        const MoveRecord& m = moves_[k];
        if (m.mover_eval)
            return std::pair{m.white_moved ? *m.mover_eval : -*m.mover_eval, m.before};
        if (m.white_eval_after) return std::pair{*m.white_eval_after, m.after};
        return std::nullopt;
    }

    void annotate_moves() {
        bool any_eval = false;
        for (std::size_t k = 0; k < moves_.size(); ++k) {
            const MoveRecord& m = moves_[k];
            std::string nags;
            auto before = mover_score_before(k), after = mover_score_after(k);
            if (before && after) {
                double drop = *before - *after;
                int nag = move_nag(drop, settings_.thresholds);
                record_move(m.white_moved ? tags_.white : tags_.black, drop, nag);
                if (nag) nags += fmt::format(" ${}", nag);
            }
            auto white = white_eval_after(k);
            if (white) {
                any_eval = true;
                int nag =
                    position_nag(expected_.score(white->first, white->second), settings_.scheme);
                nags += fmt::format(" ${}", nag);
                ++summary_.position_symbols;
            }
            if (!nags.empty()) insertions.push_back({m.san_end, std::move(nags)});
            if (white && settings_.wdl_comments) add_wdl_comment(m, white->first, white->second);
        }
        summary_.games_with_evals += any_eval;
    }

    void record_move(const std::string& player, double drop, int nag) {
        PlayerSummary& summary = summary_.players[player.empty() ? "?" : player];
        ++summary.moves;
        summary.loss += std::max(drop, 0.0);
        if (nag == 6) ++summary.nags[0];
        if (nag == 2) ++summary.nags[1];
        if (nag == 4) ++summary.nags[2];
        if (nag) ++summary_.move_symbols;
    }

    void add_wdl_comment(const MoveRecord& m, int white_eval, const PositionPlace& place) {
        auto wdl = expected_.wdl_per_mille(white_eval, place);
        std::string annotation = fmt::format("[%wdl {},{},{}]", wdl[0], wdl[1], wdl[2]);
        if (m.comment_end)
            insertions.push_back({*m.comment_end, " " + annotation});
        else
            insertions.push_back({m.san_end, " {" + annotation + "}"});
    }

    std::string_view text_;
    const ExpectedScore& expected_;
    const AnnotateSettings& settings_;
    AnnotationSummary& summary_;
    scan::GameTags tags_;
    chess::Board board_;
    std::vector<MoveRecord> moves_;
    std::string broken_;
};

}  // namespace

double PlayerSummary::accuracy() const { return std::max(0.0, 100 * (1 - 2 * mean_loss())); }

void AnnotationSummary::add(const AnnotationSummary& other) {
    games += other.games;
    games_with_evals += other.games_with_evals;
    games_copied += other.games_copied;
    position_symbols += other.position_symbols;
    move_symbols += other.move_symbols;
    for (const auto& [name, player] : other.players) {
        PlayerSummary& mine = players[name];
        mine.moves += player.moves;
        mine.loss += player.loss;
        for (std::size_t i = 0; i < 3; ++i) mine.nags[i] += player.nags[i];
    }
    problems.insert(problems.end(), other.problems.begin(), other.problems.end());
}

void annotate_games(std::string_view text, const ExpectedScore& expected,
                    const AnnotateSettings& settings, std::string& out,
                    AnnotationSummary& summary) {
    GameAnnotator annotator(text, expected, settings, summary);
    pgn::read_games(text, annotator);
    // Insertions at one offset keep their order: the move's NAGs before a new comment.
    std::stable_sort(annotator.insertions.begin(), annotator.insertions.end(),
                     [](const Insertion& a, const Insertion& b) { return a.offset < b.offset; });
    std::size_t copied = 0;
    for (const auto& insertion : annotator.insertions) {
        out.append(text.substr(copied, insertion.offset - copied));
        out += insertion.text;
        copied = insertion.offset;
    }
    out.append(text.substr(copied));
}

std::string summary_text(const AnnotationSummary& summary) {
    std::string text = fmt::format(
        "Annotated {} games ({} with evals; {} copied unchanged): {} position symbols, {} move "
        "symbols.\n",
        summary.games, summary.games_with_evals, summary.games_copied, summary.position_symbols,
        summary.move_symbols);
    if (summary.players.empty()) return text;
    text += fmt::format("{:<48}{:>8}{:>11}{:>6}{:>6}{:>6}{:>10}\n", "player", "moves", "mean loss",
                        "?!", "?", "??", "accuracy");
    for (const auto& [name, player] : summary.players) {
        text += fmt::format("{:<48}{:>8}{:>11.4f}{:>6}{:>6}{:>6}{:>10.1f}\n", name.substr(0, 47),
                            player.moves, player.mean_loss(), player.nags[0], player.nags[1],
                            player.nags[2], player.accuracy());
    }
    return text;
}

nlohmann::ordered_json summary_json(const AnnotationSummary& summary) {
    nlohmann::ordered_json players = nlohmann::ordered_json::array();
    for (const auto& [name, player] : summary.players) {
        players.push_back({{"name", name},
                           {"moves", player.moves},
                           {"meanLoss", player.mean_loss()},
                           {"dubious", player.nags[0]},
                           {"mistakes", player.nags[1]},
                           {"blunders", player.nags[2]},
                           {"accuracy", player.accuracy()}});
    }
    return {{"games", summary.games},
            {"gamesWithEvals", summary.games_with_evals},
            {"gamesCopiedUnchanged", summary.games_copied},
            {"positionSymbols", summary.position_symbols},
            {"moveSymbols", summary.move_symbols},
            {"players", players},
            {"problems", summary.problems}};
}

}  // namespace wdl::annotate
