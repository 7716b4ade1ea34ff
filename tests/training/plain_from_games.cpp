// Writes the positions of PGN games as Stockfish's .plain training data, for the fixtures of
// tests/data/training (their README gives the commands): every position of each game the
// scanner accepts, its move, its eval as the score (mover's view; a mate as +-31990; no eval
// as VALUE_NONE, 32002), its ply and the game's result for the mover. Not a test itself.
#include <iostream>
#include <string>
#include <vector>

#include "test_data.hpp"
#include "wdl/games/game_replay.hpp"

namespace {

using namespace wdl;

class PlainWriter {
  public:
    explicit PlainWriter(std::ostream& out) : out_(out), replay_(rules_, *this) {}
    void read(std::string_view text) { pgn::read_games(text, replay_); }

  private:
    friend class games::GameReplay<PlainWriter>;

    void begin_game(std::size_t) {
        records_.clear();
        eval_ = std::nullopt;
    }
    games::TagVerdict accept(const games::GameTags& tags) {
        if (tags.rejection() || tags.chess960) return {false, {}};
        white_result_ = *tags.white_outcome == counts::Outcome::Win    ? 1
                        : *tags.white_outcome == counts::Outcome::Loss ? -1
                                                                       : 0;
        return {};
    }
    void see_position(const chess::Board&, int eval, int, games::EvalComment) { eval_ = eval; }
    void see_move(const chess::Board& board, const games::ReplayedMove& move) {
        int score = 32002;
        if (eval_) {
            bool mate = *eval_ == games::kMateScore || *eval_ == -games::kMateScore;
            score = mate ? (*eval_ > 0 ? 31990 : -31990) : *eval_;
        }
        eval_ = std::nullopt;
        bool white = board.side_to_move() == chess::Color::White;
        int ply = 2 * (board.fullmove_number() - 1) + (white ? 0 : 1);
        records_ += "fen " + board.fen() + "\nmove " + board.to_uci(move.move) + "\nscore " +
                    std::to_string(score) + "\nply " + std::to_string(ply) + "\nresult " +
                    std::to_string(white ? white_result_ : -white_result_) + "\ne\n";
    }
    void skip_game(games::GameSkipReason) { records_.clear(); }
    void finish_game(const chess::Board&) { out_ << records_; }

    std::ostream& out_;
    games::ReplayRules rules_;
    games::GameReplay<PlainWriter> replay_;
    std::string records_;
    std::optional<int> eval_;
    int white_result_ = 0;
};

}  // namespace

int main(int argc, char** argv) {
    PlainWriter writer(std::cout);
    for (int i = 1; i < argc; ++i) writer.read(testing::read_decompressed(argv[i]));
}
