#include "wdl/games/engine_filter.hpp"

#include <re2/re2.h>

#include "wdl/util/error.hpp"

namespace wdl::games {

std::string engine_filter_pattern(const std::optional<std::string>& match_engine,
                                  const std::string& match_rev) {
    return match_engine ? *match_engine : match_rev;
}

std::unique_ptr<re2::RE2> compile_engine_filter(const std::string& pattern) {
    if (pattern.empty()) return nullptr;
    auto filter = std::make_unique<re2::RE2>(pattern, RE2::Quiet);
    if (!filter->ok())
        throw Error("invalid regular expression for --matchEngine \"" + pattern +
                    "\": " + filter->error());
    return filter;
}

MatchedPlayers matched_players(const re2::RE2* filter, const std::string& white,
                               const std::string& black) {
    if (!filter) return {};
    if (white.empty() || black.empty()) return {false, false};
    return {RE2::FullMatch(white, *filter), RE2::FullMatch(black, *filter)};
}

}  // namespace wdl::games
