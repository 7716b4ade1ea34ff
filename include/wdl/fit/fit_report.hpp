#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "wdl/fit/fitter.hpp"
#include "wdl/model/wdl_model.hpp"

// What scoreWDL prints about a fit, verbatim as the original scoreWDL.py prints it where the
// original has the line, and its JSON twin (docs/programs.md, docs/formats.md).
namespace wdl::fit {

// "Warning: Too little data, so skipping <momType> values [...]"
std::string skipped_moms_warning(std::string_view mom_name, const std::vector<int>& moms);

// The lines from "const int NormalizeToPawnValue" to "constexpr double bs[]", newline-terminated.
std::string model_summary(const model::WdlModel& model);

// Every line printed after "Fit WDL model based on ...": skipped and failed local fits, the
// objectives, the model summary and the standard errors; newline-terminated.
std::string fit_report(const FitResult& fit);

// The "model" object of scoreWDL --json: model::model_json and the fit's diagnostics
// (objectives, convergence, uncertainty, skipped and failed moms, local fits).
nlohmann::ordered_json fit_json(const FitResult& fit);

}  // namespace wdl::fit
