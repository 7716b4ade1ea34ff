#include "wdl/annotate/annotator.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <iterator>
#include <optional>

#include "wdl/annotate/lichess_accuracy.hpp"
#include "wdl/chess/board.hpp"
#include "wdl/games/eval_parsing.hpp"
#include "wdl/games/game_replay.hpp"
#include "wdl/pgn/reader.hpp"

namespace wdl::annotate {
namespace {

// A mainline move and what the evals around it say.
struct MoveRecord {
    std::size_t san_end = 0;                 // offset just past the move in the text
    std::optional<std::size_t> comment_end;  // offset after its brace comment's last word
    bool white_moved = true;
    PositionPlace before;
    // An engine comment's outlook for the mover before the move, or a lichess [%eval]'s for
    // White after it.
    std::optional<Outlook> mover_before, white_after;
    // White's centipawns after the move, from either eval: what lichess's measures read.
    std::optional<int> white_cp_after;
};

PositionPlace place_of(const chess::Board& board) {
    return {board.fullmove_number(), board.material(), board.side_to_move() == chess::Color::Black};
}

// Annotates the games of a text, replayed by games::GameReplay, copying the text between the
// additions; a game that cannot be replayed is copied unchanged.
class GameAnnotator {
  public:
    GameAnnotator(std::string_view text, const ExpectedScore& expected,
                  const AnnotateSettings& settings, std::string& out, AnnotationSummary& summary)
        : text_(text),
          expected_(expected),
          settings_(settings),
          out_(out),
          summary_(summary),
          replay_(kRules, *this) {}
    GameAnnotator(const GameAnnotator&) = delete;
    GameAnnotator& operator=(const GameAnnotator&) = delete;

    // Annotates the whole text; its broken games join the summary's problems.
    void annotate() {
        std::uint64_t games_before = summary_.games;
        pgn::read_games(text_, replay_);
        out_.append(text_.substr(copied_));
        summary_.problems.add_all(replay_.problems(), games_before);
    }

  private:
    friend class games::GameReplay<GameAnnotator>;
    // An unterminated game (a file cut short) is annotated as far as it goes.
    static constexpr games::ReplayRules kRules{games::EvalParsing::Exact, nullptr, true};

    void begin_game(std::size_t) {
        ++summary_.games;
        moves_.clear();
        mover_eval_.reset();
    }
    // Only a variant we do not play stops the annotation: a game without a result has moves.
    games::TagVerdict accept(const games::GameTags& tags) {
        if (!tags.unsupported_variant.empty()) {
            ++summary_.games_copied;
            return {false, games::unsupported_variant_warning(tags.unsupported_variant)};
        }
        white_ = tags.white;
        black_ = tags.black;
        return {};
    }
    void skip_game(games::GameSkipReason) { ++summary_.games_copied; }

    void see_position(const chess::Board& board, int eval, int, games::EvalComment comment) {
        if (comment == games::EvalComment::OfMoveFrom) {
            mover_eval_ = eval;  // the move comes next
            return;
        }
        MoveRecord& record = moves_.back();
        int white_eval = board.side_to_move() == chess::Color::White ? eval : -eval;
        record.white_after = expected_.outlook(white_eval, place_of(board));
        record.white_cp_after = white_eval;
    }

    void see_move(const chess::Board& board, const games::ReplayedMove& move) {
        MoveRecord record;
        record.san_end = std::size_t(move.san.data() - text_.data()) + move.san.size();
        if (move.comment.data() != nullptr) {
            std::size_t start = std::size_t(move.comment.data() - text_.data());
            std::size_t end = start + move.comment.size();
            if (end < text_.size() && text_[end] == '}') {
                // After the comment's last word, so that "{ [%eval 0.2] }" keeps its layout.
                while (end > start && (text_[end - 1] == ' ' || text_[end - 1] == '\n')) --end;
                record.comment_end = end;
            }
        }
        record.white_moved = board.side_to_move() == chess::Color::White;
        record.before = place_of(board);
        if (mover_eval_) {
            record.mover_before = expected_.outlook(*mover_eval_, record.before);
            record.white_cp_after = record.white_moved ? *mover_eval_ : -*mover_eval_;
            mover_eval_.reset();
        }
        moves_.push_back(record);
    }

    void finish_game(const chess::Board&) { annotate_moves(); }

  private:
    // The mover's expected score before move k, and after it (its opponent's eval turned).
    std::optional<double> mover_score_before(std::size_t k) const {
        const MoveRecord& m = moves_[k];
        if (m.mover_before) return m.mover_before->score;
        if (k > 0 && moves_[k - 1].white_after) {
            double white = moves_[k - 1].white_after->score;
            return m.white_moved ? white : 1 - white;
        }
        return std::nullopt;
    }
    std::optional<double> mover_score_after(std::size_t k) const {
        const MoveRecord& m = moves_[k];
        if (k + 1 < moves_.size() && moves_[k + 1].mover_before)
            return 1 - moves_[k + 1].mover_before->score;
        if (m.white_after) return m.white_moved ? m.white_after->score : 1 - m.white_after->score;
        return std::nullopt;
    }
    // White's outlook after move k: the mover's own eval (an engine's score of the line its
    // move starts) turned to White, else lichess's.
    std::optional<Outlook> white_outlook_after(std::size_t k) const {
        const MoveRecord& m = moves_[k];
        if (m.mover_before) {
            if (m.white_moved) return m.mover_before;
            return Outlook{1 - m.mover_before->score, m.mover_before->loss, m.mover_before->win};
        }
        return m.white_after;
    }

    // Copies the text up to `offset`, then adds `addition`. Offsets only grow: a game's moves,
    // and the games, come in the order of the text.
    void insert(std::size_t offset, std::string_view addition) {
        out_.append(text_.substr(copied_, offset - copied_));
        out_.append(addition);
        copied_ = offset;
    }

    void annotate_moves() {
        bool any_eval = false;
        std::string nags;
        // Looked up once a game: the map is keyed by name.
        PlayerSummary* white_player = &player(white_);
        PlayerSummary* black_player = &player(black_);
        for (std::size_t k = 0; k < moves_.size(); ++k) {
            const MoveRecord& m = moves_[k];
            nags.clear();
            auto before = mover_score_before(k), after = mover_score_after(k);
            if (before && after) {
                double drop = *before - *after;
                int nag = move_nag(drop, settings_.thresholds);
                record_move(m.white_moved ? *white_player : *black_player, drop, nag);
                if (nag) append_nag(nags, nag);
            }
            auto white = white_outlook_after(k);
            if (white) {
                any_eval = true;
                append_nag(nags, position_nag(white->score, settings_.scheme));
                ++summary_.position_symbols;
            }
            if (!nags.empty()) insert(m.san_end, nags);
            if (white && settings_.wdl_comments) add_wdl_comment(m, *white);
        }
        summary_.games_with_evals += any_eval;
        if (settings_.lichess) add_lichess(*white_player, *black_player);
    }

    // lichess's accuracies of the game's first run of evaluated plies: from the first ply with
    // an eval (book moves have none) to the next ply without one.
    void add_lichess(PlayerSummary& white, PlayerSummary& black) const {
        std::size_t first = 0;
        while (first < moves_.size() && !moves_[first].white_cp_after) ++first;
        std::vector<int> white_cps;
        for (std::size_t k = first; k < moves_.size() && moves_[k].white_cp_after; ++k)
            white_cps.push_back(*moves_[k].white_cp_after);
        if (white_cps.empty()) return;
        auto game = lichess_game_accuracy(white_cps, moves_[first].white_moved);
        for (auto [player, side] :
             {std::pair{&white, &game.white}, std::pair{&black, &game.black}}) {
            if (!side->game_accuracy) continue;
            ++player->lichess.games;
            player->lichess.game_accuracy_sum += *side->game_accuracy;
            player->lichess.moves += side->moves;
            player->lichess.move_accuracy_sum += side->move_accuracy_sum;
        }
    }

    PlayerSummary& player(const std::string& name) {
        return summary_.players[name.empty() ? "?" : name];
    }

    static void append_nag(std::string& out, int nag) {
        out += " $";
        out += std::to_string(nag);
    }

    void record_move(PlayerSummary& summary, double drop, int nag) {
        ++summary.moves;
        summary.loss += std::max(drop, 0.0);
        if (nag == 6) ++summary.nags[0];
        if (nag == 2) ++summary.nags[1];
        if (nag == 4) ++summary.nags[2];
        if (nag) ++summary_.move_symbols;
    }

    void add_wdl_comment(const MoveRecord& m, const Outlook& white) {
        auto wdl = white.wdl_per_mille();
        char text[48];
        char* end = text;
        auto append = [&](std::string_view part) {
            end = std::copy(part.begin(), part.end(), end);
        };
        append(m.comment_end ? " [%wdl " : " {[%wdl ");
        for (std::size_t i = 0; i < 3; ++i) {
            end = std::to_chars(end, text + sizeof text, wdl[i]).ptr;
            append(i < 2 ? "," : "]");
        }
        if (!m.comment_end) append("}");
        insert(m.comment_end ? *m.comment_end : m.san_end, std::string_view(text, end));
    }

    std::string_view text_;
    const ExpectedScore& expected_;
    const AnnotateSettings& settings_;
    std::string& out_;
    std::size_t copied_ = 0;  // the text before this offset is in out_
    AnnotationSummary& summary_;
    games::GameReplay<GameAnnotator> replay_;
    // Per game.
    std::string white_, black_;
    std::vector<MoveRecord> moves_;
    std::optional<int> mover_eval_;  // of the position before the move about to be seen
};

}  // namespace

double PlayerSummary::accuracy() const { return std::max(0.0, 100 * (1 - 2 * mean_loss())); }

void AnnotationSummary::add(const AnnotationSummary& other) {
    games += other.games;
    games_with_evals += other.games_with_evals;
    games_copied += other.games_copied;
    lichess = lichess || other.lichess;
    position_symbols += other.position_symbols;
    move_symbols += other.move_symbols;
    for (const auto& [name, player] : other.players) {
        PlayerSummary& mine = players[name];
        mine.moves += player.moves;
        mine.loss += player.loss;
        for (std::size_t i = 0; i < 3; ++i) mine.nags[i] += player.nags[i];
        mine.lichess.games += player.lichess.games;
        mine.lichess.moves += player.lichess.moves;
        mine.lichess.game_accuracy_sum += player.lichess.game_accuracy_sum;
        mine.lichess.move_accuracy_sum += player.lichess.move_accuracy_sum;
    }
}

void annotate_games(std::string_view text, const ExpectedScore& expected,
                    const AnnotateSettings& settings, std::string& out,
                    AnnotationSummary& summary) {
    summary.lichess = settings.lichess;
    GameAnnotator annotator(text, expected, settings, out, summary);
    annotator.annotate();
}

std::string summary_text(const AnnotationSummary& summary) {
    std::string text = fmt::format(
        "Annotated {} games ({} with evals; {} copied unchanged): {} position symbols, {} move "
        "symbols.\n",
        summary.games, summary.games_with_evals, summary.games_copied, summary.position_symbols,
        summary.move_symbols);
    if (summary.players.empty()) return text;
    text +=
        fmt::format("{:<48}{:>8}{:>11}{:>6}{:>6}{:>6}{:>10}{}\n", "player", "moves", "mean loss",
                    "?!", "?", "??", "accuracy", summary.lichess ? "   lichess" : "");
    for (const auto& [name, player] : summary.players) {
        std::string lichess =
            summary.lichess ? fmt::format("{:>10.1f}", player.lichess.game_accuracy()) : "";
        text += fmt::format("{:<48}{:>8}{:>11.4f}{:>6}{:>6}{:>6}{:>10.1f}{}\n", name.substr(0, 47),
                            player.moves, player.mean_loss(), player.nags[0], player.nags[1],
                            player.nags[2], player.accuracy(), lichess);
    }
    if (summary.lichess) {
        text +=
            "lichess: its game accuracy (the mean of a volatility-weighted and the harmonic mean "
            "of its move accuracies), averaged over the player's games.\n";
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
        if (summary.lichess) {
            players.back()["lichess"] = {{"games", player.lichess.games},
                                         {"gameAccuracy", player.lichess.game_accuracy()},
                                         {"moves", player.lichess.moves},
                                         {"moveAccuracy", player.lichess.move_accuracy()}};
        }
    }
    return {{"games", summary.games},
            {"gamesWithEvals", summary.games_with_evals},
            {"gamesCopiedUnchanged", summary.games_copied},
            {"positionSymbols", summary.position_symbols},
            {"moveSymbols", summary.move_symbols},
            {"players", players}};
}

}  // namespace wdl::annotate
