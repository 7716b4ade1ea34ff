#pragma once
// Options that take one of a few names (--metric DTC, --momType move, ...), shown in --help as
// `--metric DTC|DTM (default: DTC)`: the names come from the one table the option accepts, so
// the help cannot drift from what is accepted. That table is the enum's name table
// (wdl/util/enum_names.hpp, e.g. tablebase::kMetricNames), so the programs accept the names
// the library prints and parses. (CLI11's CheckedTransformer would print its map,
// `ENUM:value in {DTC->0,DTM->1} OR {0,1}`, and accept the numbers too.)

#include <CLI/CLI.hpp>
#include <algorithm>
#include <array>
#include <cstddef>
#include <initializer_list>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "wdl/util/enum_names.hpp"

// The accepted names and their values, in the order --help lists them.
template <typename T>
using ChoiceTable = std::vector<std::pair<std::string, T>>;

// The choices of an enum's name table, in its order; only those of `only` if given (--momType
// takes material and move, not ply).
template <typename T, std::size_t N>
ChoiceTable<T> choices(const std::array<wdl::util::EnumName<T>, N>& names,
                       std::initializer_list<T> only = {}) {
    ChoiceTable<T> table;
    for (const auto& [value, name] : names) {
        if (only.size() == 0 || std::find(only.begin(), only.end(), value) != only.end())
            table.emplace_back(std::string(name), value);
    }
    return table;
}

// Makes `option` accept exactly the names of `table`; `default_text` (if any) is shown as the
// default. For options bound to a variable, add_choice_option below finds the default itself.
template <typename T>
CLI::Option* accept_choices(CLI::Option* option, const ChoiceTable<T>& table,
                            const std::string& default_text = {}) {
    static_assert(std::is_enum_v<T>, "a choice stands for a value of an enum");
    std::string names;
    for (const auto& [name, value] : table) names += (names.empty() ? "" : "|") + name;
    // The transform turns a name into the enum's number, which CLI11 then converts into T.
    option->transform(CLI::Validator(
        [table, names](std::string& input) -> std::string {
            for (const auto& [name, value] : table) {
                if (input == name) {
                    input = std::to_string(static_cast<std::underlying_type_t<T>>(value));
                    return {};
                }
            }
            return "'" + input + "' is not one of " + names;
        },
        "", "choices"));
    option->type_name(default_text.empty() ? names : names + " (default: " + default_text + ")");
    return option;
}

// An option that stores the value of the name given into `value`; the name of value's initial
// value is shown as the default, or `default_text` if given (a default that is no name of the
// table, such as "jackknife for grouped input, else none").
template <typename T>
CLI::Option* add_choice_option(CLI::App& app, const std::string& option_name, T& value,
                               const ChoiceTable<T>& table, const std::string& description,
                               std::string default_text = {}) {
    if (default_text.empty()) {
        for (const auto& [name, choice] : table)
            if (choice == value) default_text = name;
    }
    return accept_choices(app.add_option(option_name, value, description), table, default_text);
}

// add_choice_option with every name of an enum's name table.
template <typename T, std::size_t N>
CLI::Option* add_choice_option(CLI::App& app, const std::string& option_name, T& value,
                               const std::array<wdl::util::EnumName<T>, N>& names,
                               const std::string& description, std::string default_text = {}) {
    return add_choice_option(app, option_name, value, choices(names), description,
                             std::move(default_text));
}
