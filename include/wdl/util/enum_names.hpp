#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <optional>
#include <string_view>

// One table of names per enum, declared next to the enum (`kMetricNames` next to
// `enum class Metric`), from which the library prints and parses its values and the programs
// build their options (apps/choice_option.hpp), so that a name is spelled once.
namespace wdl::util {

// A value and its name. Names are string literals, so name.data() is NUL-terminated (for the
// functions that return a const char*).
template <class Enum>
struct EnumName {
    Enum value;
    std::string_view name;
};

// The name of `value`, or "" for a value the table does not name.
template <class Enum, std::size_t N>
constexpr std::string_view name_of(const std::array<EnumName<Enum>, N>& table, Enum value) {
    for (const auto& entry : table)
        if (entry.value == value) return entry.name;
    return {};
}

// The value named `text` exactly (case matters), or none.
template <class Enum, std::size_t N>
constexpr std::optional<Enum> value_named(const std::array<EnumName<Enum>, N>& table,
                                          std::string_view text) {
    for (const auto& entry : table)
        if (entry.name == text) return entry.value;
    return std::nullopt;
}

// The value named `text` with ASCII letters of either case ("dtc" for "DTC": table file names
// are lowercase, their headers are not), or none.
template <class Enum, std::size_t N>
constexpr std::optional<Enum> value_named_ignoring_case(const std::array<EnumName<Enum>, N>& table,
                                                        std::string_view text) {
    constexpr auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? char(c - 'A' + 'a') : c; };
    for (const auto& entry : table) {
        if (std::equal(entry.name.begin(), entry.name.end(), text.begin(), text.end(),
                       [&](char a, char b) { return lower(a) == lower(b); }))
            return entry.value;
    }
    return std::nullopt;
}

}  // namespace wdl::util
