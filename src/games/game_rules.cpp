#include "wdl/games/game_rules.hpp"

#include <charconv>

#include "wdl/counts/human_counts.hpp"
#include "wdl/util/error.hpp"

namespace wdl::games {
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

bool starts_ignoring_case(std::string_view text, std::string_view prefix) {
    return equals_ignoring_case(text.substr(0, prefix.size()), prefix);
}

constexpr std::string_view kExcludedTerminations[] = {
    "time forfeit", "abandoned", "stalled connection", "illegal move", "unterminated"};

// lichess writes "Time forfeit" and "Abandoned", other tools "Time Forfeit" and "Illegal Move
// (c7c5)": matched without case and by prefix, or exactly as the original does.
bool is_excluded_termination(std::string_view termination, bool exact_letter) {
    for (std::string_view excluded : kExcludedTerminations) {
        if (exact_letter ? termination == excluded : starts_ignoring_case(termination, excluded))
            return true;
    }
    return false;
}

// Variants played with the rules of chess: standard (also as lichess's "From Position") and
// Chess960; every other Variant value names a game we cannot replay.
bool is_chess_variant(std::string_view variant) {
    for (std::string_view chess : {"standard", "chess", "normal", "from position", "fischerandom",
                                   "chess960", "chess 960", "fischer random"})
        if (equals_ignoring_case(variant, chess)) return true;
    return variant.empty();
}

// A rating tag's value: digits only ("?" and "" are none), within the ratings counts keep.
std::optional<int> rating_of(std::string_view value) {
    int rating = 0;
    auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), rating);
    if (value.empty() || error != std::errc() || end != value.data() + value.size() || rating < 0 ||
        rating >= counts::kRatingLimit)
        return std::nullopt;
    return rating;
}

}  // namespace

const char* describe(HumanSkipReason reason) {
    switch (reason) {
        case HumanSkipReason::NoEval:
            return "no eval";
        case HumanSkipReason::Variant:
            return "variant";
        case HumanSkipReason::SetUpPosition:
            return "set-up position";
        case HumanSkipReason::Bot:
            return "BOT player";
        case HumanSkipReason::Unrated:
            return "unrated";
        case HumanSkipReason::UnknownTimeControl:
            return "unknown time control";
    }
    return "unknown";
}

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
        case GameSkipReason::UnsupportedVariant:
            return "unsupported variant";
    }
    return "unknown";
}

UnterminatedGame unterminated_game(int plies) {
    if (plies == 0) return {GameSkipReason::NoMoves, "game has tags but no moves"};
    return {GameSkipReason::Incomplete, "game ends without a result (truncated?)"};
}

void GameTags::clear() {
    white.clear();
    black.clear();
    fen.clear();
    chess960 = false;
    white_outcome.reset();
    excluded_termination = false;
    adjudicated = false;
    time_forfeit = false;
    unsupported_variant.clear();
    rated = set_up_tag = bot = nonstandard_variant = false;
    white_elo.reset();
    black_elo.reset();
    time_control.clear();
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
        excluded_termination = is_excluded_termination(value, exact_termination_letter);
        adjudicated = starts_ignoring_case(value, "adjudication");
        time_forfeit = starts_ignoring_case(value, "time forfeit");
    } else if (name == "FEN") {
        fen.assign(value);
    } else if (name == "Variant") {
        chess960 = equals_ignoring_case(value, "fischerandom") ||
                   equals_ignoring_case(value, "chess960") ||
                   equals_ignoring_case(value, "chess 960") ||
                   equals_ignoring_case(value, "fischer random");
        if (is_chess_variant(value))
            unsupported_variant.clear();
        else
            unsupported_variant.assign(value);
        nonstandard_variant = !equals_ignoring_case(value, "standard") &&
                              !equals_ignoring_case(value, "from position");
    } else if (name == "White") {
        white.assign(value);
    } else if (name == "Black") {
        black.assign(value);
    } else if (name == "Event") {
        // lichess: "Rated Rapid game", "Casual Blitz game", "Rated Blitz tournament https://...".
        rated = value.find("Rated") != std::string_view::npos;
    } else if (name == "WhiteElo") {
        white_elo = rating_of(value);
    } else if (name == "BlackElo") {
        black_elo = rating_of(value);
    } else if (name == "TimeControl") {
        time_control.assign(value);
    } else if (name == "SetUp") {
        set_up_tag = value == "1";
    } else if (name == "WhiteTitle" || name == "BlackTitle") {
        bot = bot || value == "BOT";
    }
}

std::optional<HumanSkipReason> GameTags::human_rejection() const {
    if (nonstandard_variant) return HumanSkipReason::Variant;
    if (set_up_tag || !fen.empty()) return HumanSkipReason::SetUpPosition;
    if (bot) return HumanSkipReason::Bot;
    if (!rated || !white_elo || !black_elo) return HumanSkipReason::Unrated;
    if (!counts::speed_class_of_time_control(time_control))
        return HumanSkipReason::UnknownTimeControl;
    return std::nullopt;
}

std::optional<GameSkipReason> GameTags::rejection() const {
    if (!unsupported_variant.empty()) return GameSkipReason::UnsupportedVariant;
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

CountedKeyRules::CountedKeyRules(int max_counted_move, int bin_width)
    : max_counted_move_(max_counted_move), bin_width_(bin_width) {
    for (int eval = -counts::kMaxEval; eval <= counts::kMaxEval; ++eval)
        binned_scores_.push_back(counts::bin_eval(eval, bin_width));
}

}  // namespace wdl::games
