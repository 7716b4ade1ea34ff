#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "wdl/commands/score_wdl.hpp"
#include "wdl/fit/count_grid.hpp"
#include "wdl/fit/cross_validation.hpp"
#include "wdl/fit/fitter.hpp"
#include "wdl/fit/resampling.hpp"
#include "wdl/fit/wdl_data.hpp"
#include "wdl/model/model_lookup.hpp"
#include "wdl/model/normalization.hpp"

// scoreWDL --report: the report of a fit against the model it would replace (docs/report.md),
// composed from the library's numbers and written by report::write_report.
namespace wdl::commands {

// The model a fit is compared with: --oldModel, else the --NormalizeData model when it has bs.
std::optional<model::NamedModel> old_model_of(const ScoreWdlOptions& options,
                                              const model::Normalization& normalization);

struct FitReportInputs {
    const ScoreWdlOptions& options;
    const fit::CountGrid& grid;
    const std::vector<fit::MomData>& moms;
    const fit::FitResult& fit;
    const model::Normalization& normalization;
    const std::optional<model::NamedModel>& old_model;
    const std::optional<fit::Resampling>& resampling;
    const std::optional<fit::CrossValidation>& validation;
    std::string validation_problem;   // why there is no resampling or cross-validation
    std::string printed;              // scoreWDL's lines of this run so far
    nlohmann::ordered_json fit_json;  // the --json document of the fit
};

// Writes the report, its plots (fit.png, old_vs_new.png, calibration.png) and the fit's JSON
// (fit.json) into the folder, creating it. Throws wdl::Error for unreadable --updateLog or
// --scanSummary files and failed plots.
void write_fit_report(const FitReportInputs& inputs, const std::filesystem::path& folder);

}  // namespace wdl::commands
