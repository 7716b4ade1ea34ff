#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "wdl/fit/fitter.hpp"

// The fitter's printed lines, verbatim as the original prints them.
namespace wdl::fit {

// str() of a 1-D numpy integer array: "[ 70  71 ...]", elements right-aligned to the widest,
// wrapped at 75 columns with a one-space hanging indent.
std::string numpy_int_array(const std::vector<int>& values);

// "Warning: Too little data, so skipping <momType> values [...]"
std::string skipped_moms_warning(std::string_view mom_name, const std::vector<int>& moms);

// The lines from "const int NormalizeToPawnValue" to "constexpr double bs[]", newline-terminated.
std::string model_summary(const model::Poly3& as, const model::Poly3& bs, std::string_view mom_name,
                          int mom_target);

// int(x + 0.5) as the original rounds sums of coefficients.
long python_round_up_half(double value);

}  // namespace wdl::fit
