#pragma once
// Validators of the programs' numeric options. CLI11's own let NaN through (every comparison with
// it is false) and print their bounds as std::to_string does (PositiveNumber's as 309 digits), so
// these say in a few words what is wrong; CLI11 puts the option's name before it
// ("--concurrency: 0 is not positive").

#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <cmath>
#include <functional>
#include <limits>
#include <string>

namespace number_checks {

// A number whose value `accept` takes, else the error "<input> is <what>"; `shown` is the help's
// note after the type (INT:POSITIVE).
inline CLI::Validator number_check(std::function<bool(double)> accept, const std::string& what,
                                   const std::string& shown) {
    return CLI::Validator(
        [accept = std::move(accept), what](std::string& input) -> std::string {
            double value = 0;
            if (!CLI::detail::lexical_cast(input, value)) return input + " is not a number";
            if (std::isnan(value)) return input + " is not a number";
            return accept(value) ? std::string() : input + " is " + what;
        },
        shown);
}

// Bounds of a closed range, shown as C++ prints them ("1", "0.5", "65536").
inline std::string bound_text(double bound) { return fmt::format("{}", bound); }

inline CLI::Validator positive() {
    return number_check([](double v) { return v > 0 && std::isfinite(v); }, "not positive",
                        "POSITIVE");
}

inline CLI::Validator non_negative() {
    return number_check([](double v) { return v >= 0 && std::isfinite(v); }, "negative",
                        "NONNEGATIVE");
}

// Any finite number: inf and nan mean nothing as a seed of a bound or an eval.
inline CLI::Validator finite() {
    return number_check([](double v) { return std::isfinite(v); }, "not a finite number", "FINITE");
}

// min <= value <= max.
inline CLI::Validator in_range(double min, double max) {
    std::string range = "[" + bound_text(min) + ", " + bound_text(max) + "]";
    return number_check([min, max](double v) { return v >= min && v <= max; }, "not in " + range,
                        "in " + range);
}

// min <= value.
inline CLI::Validator at_least(double min) {
    return number_check([min](double v) { return v >= min && std::isfinite(v); },
                        "below " + bound_text(min), ">= " + bound_text(min));
}

// A probability: 0 <= p <= 1.
inline CLI::Validator probability() { return in_range(0, 1); }

// Strictly between 0 and 1 (a win rate whose eval exists, a confidence that is not certain).
inline CLI::Validator open_unit_interval() {
    return number_check([](double v) { return v > 0 && v < 1; }, "not strictly between 0 and 1",
                        "in (0, 1)");
}

}  // namespace number_checks
