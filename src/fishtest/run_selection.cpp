#include "wdl/fishtest/run_selection.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <stdexcept>

namespace wdl::fishtest {
namespace {

const nlohmann::json& member_or_null(const nlohmann::json& object, const char* key) {
    static const nlohmann::json null;
    if (!object.is_object()) return null;
    auto found = object.find(key);
    return found == object.end() ? null : *found;
}

std::string string_member(const nlohmann::json& object, const char* key) {
    const auto& value = member_or_null(object, key);
    return value.is_string() ? value.get<std::string>() : std::string();
}

long long count_member(const nlohmann::json& object, const char* key) {
    const auto& value = member_or_null(object, key);
    return value.is_number() ? value.get<long long>() : 0;
}

std::string lower_case(std::string text) {
    std::transform(text.begin(), text.end(), text.begin(),
                   [](unsigned char c) { return char(std::tolower(c)); });
    return text;
}

bool outside_limits(const std::vector<std::string>& controls, const SelectionRules& rules) {
    if (controls.empty()) return true;
    return std::any_of(controls.begin(), controls.end(), [&](const std::string& control) {
        auto base = base_time(control);
        return !base || (rules.tc_lower_limit && *base < *rules.tc_lower_limit) ||
               (rules.tc_upper_limit && *base > *rules.tc_upper_limit);
    });
}

}  // namespace

std::string_view describe(SkipReason reason) {
    switch (reason) {
        case SkipReason::spsa:
            return "SPSA test";
        case SkipReason::no_games:
            return "no games";
        case SkipReason::frc_book:
            return "FRC book";
        case SkipReason::time_control:
            return "time control outside the limits";
    }
    return "unknown";
}

std::optional<SkipReason> reason_to_skip(const nlohmann::json& run, const SelectionRules& rules) {
    const auto& args = member_or_null(run, "args");
    if (args.is_object() && args.contains("spsa")) return SkipReason::spsa;
    if (auto games = game_count(run); games && *games <= 0) return SkipReason::no_games;
    if (rules.standard_chess_only &&
        lower_case(string_member(args, "book")).find("frc") != std::string::npos)
        return SkipReason::frc_book;
    if ((rules.tc_lower_limit || rules.tc_upper_limit) && outside_limits(time_controls(run), rules))
        return SkipReason::time_control;
    return std::nullopt;
}

std::optional<long long> game_count(const nlohmann::json& run) {
    const auto& results = member_or_null(run, "results");
    if (!results.is_object()) return std::nullopt;
    return count_member(results, "wins") + count_member(results, "draws") +
           count_member(results, "losses");
}

std::vector<std::string> time_controls(const nlohmann::json& run) {
    const auto& args = member_or_null(run, "args");
    auto tc = string_member(args, "tc");
    auto new_tc = string_member(args, "new_tc");
    if (tc.empty() || new_tc.empty()) return {};
    if (tc == new_tc) return {tc};
    return {tc, new_tc};
}

std::optional<double> base_time(std::string_view time_control) {
    std::size_t digits = 0;
    while (digits < time_control.size() && std::isdigit((unsigned char)time_control[digits]))
        ++digits;
    if (digits == 0) return std::nullopt;
    // A fractional part counts only if digits follow the point ("2.5+0.1", not "2.+0.1").
    if (digits + 1 < time_control.size() && time_control[digits] == '.' &&
        std::isdigit((unsigned char)time_control[digits + 1])) {
        ++digits;
        while (digits < time_control.size() && std::isdigit((unsigned char)time_control[digits]))
            ++digits;
    }
    double value = 0;
    auto [end, error] = std::from_chars(time_control.data(), time_control.data() + digits, value);
    if (error != std::errc()) return std::nullopt;
    return value;
}

std::string date_folder(const nlohmann::json& run) {
    auto start_time = string_member(run, "start_time");
    // "2024-07-21T11:26:57.000+00:00" -> "24-07-21"
    bool well_formed = start_time.size() >= 10 && start_time[4] == '-' && start_time[7] == '-';
    for (std::size_t i : {0, 1, 2, 3, 5, 6, 8, 9})
        well_formed = well_formed && std::isdigit((unsigned char)start_time[i]);
    if (!well_formed)
        throw std::runtime_error("missing or malformed start_time \"" + start_time + "\"");
    return start_time.substr(2, 8);
}

}  // namespace wdl::fishtest
