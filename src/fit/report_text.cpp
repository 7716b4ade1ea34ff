#include "wdl/fit/report_text.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace wdl::fit {

std::string numpy_int_array(const std::vector<int>& values) {
    // numpy's layout: lines are built behind a one-space hanging indent (later replaced by
    // '[' on the first line) and wrap before exceeding 75 columns minus room for the ']'.
    constexpr std::size_t kLineWidth = 75 - 1;
    const std::string indent = " ";
    std::size_t width = 0;
    for (int value : values) width = std::max(width, fmt::format("{}", value).size());
    std::string text, line = indent;
    for (std::size_t i = 0; i < values.size(); ++i) {
        std::string word = fmt::format("{:>{}}", values[i], width);
        if (line.size() + word.size() > kLineWidth) {
            line.erase(line.find_last_not_of(' ') + 1);
            text.append(line).append("\n");
            line = indent;
        }
        line += word;
        if (i + 1 < values.size()) line += " ";
    }
    text.append(line);
    std::string array = "[";
    array.append(text, indent.size()).append("]");
    return array;
}

std::string skipped_moms_warning(std::string_view mom_name, const std::vector<int>& moms) {
    return fmt::format("Warning: Too little data, so skipping {} values {}", mom_name,
                       numpy_int_array(moms));
}

long python_round_up_half(double value) { return long(value + 0.5); }

namespace {

std::string poly3_text(const model::Poly3& c, int mom_target) {
    return fmt::format("(({:5.3f} * x / {} + {:5.3f}) * x / {} + {:5.3f}) * x / {} + {:5.3f}", c[0],
                       mom_target, c[1], mom_target, c[2], mom_target, c[3]);
}

}  // namespace

std::string model_summary(const model::Poly3& as, const model::Poly3& bs, std::string_view mom_name,
                          int mom_target) {
    double sum_a = model::coefficient_sum(as), sum_b = model::coefficient_sum(bs);
    std::string text;
    text += fmt::format("const int NormalizeToPawnValue = {};\n", python_round_up_half(sum_a));
    text += fmt::format("Corresponding spread = {};\n", python_round_up_half(sum_b));
    text += fmt::format("Corresponding normalized spread = {};\n",
                        model::python_float_repr(sum_b / sum_a));
    text += fmt::format("Draw rate at 0.0 eval at {} {} = {};\n", mom_name, mom_target,
                        model::python_float_repr(1 - 2 / (1 + std::exp(sum_a / sum_b))));
    text += "Parameters in internal value units: \n";
    text += fmt::format("p_a = {}\n", poly3_text(as, mom_target));
    text += fmt::format("p_b = {}\n", poly3_text(bs, mom_target));
    text += fmt::format("    constexpr double as[] = {{{:.8f}, {:.8f}, {:.8f}, {:.8f}}};\n", as[0],
                        as[1], as[2], as[3]);
    text += fmt::format("    constexpr double bs[] = {{{:.8f}, {:.8f}, {:.8f}, {:.8f}}};\n", bs[0],
                        bs[1], bs[2], bs[3]);
    return text;
}

}  // namespace wdl::fit
