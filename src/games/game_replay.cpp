#include "wdl/games/game_replay.hpp"

namespace wdl::games {

std::string unsupported_variant_warning(std::string_view variant) {
    return "unsupported variant \"" + std::string(variant) + "\"";
}

std::string invalid_fen_warning(std::string_view fen) {
    return "invalid FEN \"" + std::string(fen) + "\"";
}

std::string illegal_move_warning(std::string_view san, int ply) {
    return "cannot play move \"" + std::string(san) + "\" at ply " + std::to_string(ply);
}

std::string rejection_warning(const GameTags& tags, GameSkipReason reason) {
    if (reason != GameSkipReason::UnsupportedVariant) return {};
    return unsupported_variant_warning(tags.unsupported_variant);
}

}  // namespace wdl::games
