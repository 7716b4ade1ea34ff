#include "wdl/scan/game_rules.hpp"

#include "wdl/util/error.hpp"

namespace wdl::scan {
namespace {

bool equals_ignoring_case(std::string_view a, std::string_view b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i) {
        if (std::tolower(static_cast<unsigned char>(a[i])) !=
            std::tolower(static_cast<unsigned char>(b[i])))
            return false;
    }
    return true;
}

bool is_excluded_termination(std::string_view termination) {
    return termination == "time forfeit" || termination == "abandoned" ||
           termination == "stalled connection" || termination == "illegal move" ||
           termination == "unterminated";
}

}  // namespace

const char* describe(GameSkipReason reason) {
    switch (reason) {
        case GameSkipReason::NoResult:
            return "no decisive or drawn result";
        case GameSkipReason::BadTermination:
            return "excluded termination";
        case GameSkipReason::InvalidFen:
            return "invalid FEN";
        case GameSkipReason::IllegalMove:
            return "illegal or unreadable move";
        case GameSkipReason::Incomplete:
            return "incomplete game";
        case GameSkipReason::NoMoves:
            return "no moves";
    }
    return "unknown";
}

void GameTags::clear() {
    white.clear();
    black.clear();
    fen.clear();
    chess960 = false;
    white_outcome.reset();
    excluded_termination = false;
}

void GameTags::read(std::string_view name, std::string_view value) {
    if (name == "Result") {
        if (value == "1-0") {
            white_outcome = counts::Outcome::Win;
        } else if (value == "0-1") {
            white_outcome = counts::Outcome::Loss;
        } else if (value == "1/2-1/2") {
            white_outcome = counts::Outcome::Draw;
        } else {
            white_outcome.reset();
        }
    } else if (name == "Termination") {
        excluded_termination = is_excluded_termination(value);
    } else if (name == "FEN") {
        fen.assign(value);
    } else if (name == "Variant") {
        chess960 =
            equals_ignoring_case(value, "fischerandom") || equals_ignoring_case(value, "chess960");
    } else if (name == "White") {
        white.assign(value);
    } else if (name == "Black") {
        black.assign(value);
    }
}

std::optional<GameSkipReason> GameTags::rejection() const {
    if (!white_outcome) return GameSkipReason::NoResult;
    if (excluded_termination) return GameSkipReason::BadTermination;
    return std::nullopt;
}

bool GameTags::set_up(chess::Board& board, const FixFenTable* fix_fen) const {
    if (fen.empty()) {
        board.set_start_position();
        return true;
    }
    if (!fix_fen) return board.set_fen(fen, chess960);
    auto fixed = fix_fen->fix(fen);
    if (!fixed)
        throw Error("Could not find FEN \"" + fen.substr(0, fen.size() - 4) +
                    "\" in fixFENsource.");
    return board.set_fen(*fixed, chess960);
}

}  // namespace wdl::scan
