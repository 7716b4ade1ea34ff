#pragma once

#include <string>
#include <vector>

#include "wdl/fit/count_grid.hpp"
#include "wdl/fit/wdl_data.hpp"
#include "wdl/model/normalization.hpp"
#include "wdl/model/wdl_math.hpp"

// The fitter's reference cases (tests/data/reference/fit/): inputs and what scoreWDL printed.
namespace wdl::testing {

// The retained data of a reference input ("dev_counts.json", "synth_1M.json").
std::vector<fit::MomData> load_reference_moms(const std::string& input,
                                              const fit::GridFilter& filter,
                                              const model::Normalization& normalization);

// The original's printed output of a reference case ("dev_fitDensity", ...).
std::string reference_fit_output(const std::string& name);

// The 4 numbers of "    constexpr double as[] = {c3, c2, c1, c0};" (name "as" or "bs").
model::Coefficients printed_coefficients(const std::string& text, const std::string& name);

// The number after the line's prefix; throws if no line starts with it.
double number_after(const std::string& text, const std::string& prefix);

}  // namespace wdl::testing
