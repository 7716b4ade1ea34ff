#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "wdl/fit/cross_validation.hpp"
#include "wdl/fit/fit_verdict.hpp"
#include "wdl/fit/fitter.hpp"
#include "wdl/fit/resampling.hpp"
#include "wdl/model/wdl_model.hpp"

// What scoreWDL prints about a fit, verbatim as the original scoreWDL.py prints it where the
// original has the line, and its JSON twin (docs/programs.md, docs/formats.md).
namespace wdl::fit {

// "Warning: Too little data, so skipping <momType> values [...]"
std::string skipped_moms_warning(std::string_view mom_name, const std::vector<int>& moms);

// Appended to every line of a model summary whose fit is not determined (fit_verdict).
inline constexpr std::string_view kNotDeterminedMarker = " // not determined";

// The lines from "const int NormalizeToPawnValue" to "constexpr double bs[]", newline-terminated;
// when not `determined`, each ends in kNotDeterminedMarker.
std::string model_summary(const model::WdlModel& model, bool determined = true);

// Every line printed after "Fit WDL model based on ...": skipped and failed local fits, the
// objectives, the verdict when the fit is not determined, the model summary (marked then) and
// the standard errors; newline-terminated.
std::string fit_report(const FitResult& fit);

// After a fit that is not determined: what to do next, computed on the data: the positions
// (and games, when known), the simpler form's fit that they do determine (or that none is) and
// the positions (games) Stockfish's cubic would need.
std::string simpler_fit_report(const std::optional<SimplerFit>& simpler, const FitResult& fit,
                               std::int64_t positions, std::optional<std::int64_t> games);

// The "simplerFit" object of scoreWDL --json: the simpler form's model, its name, whether the
// held-out rule chose it and its NormalizeToPawnValue with the error; null when there is none.
nlohmann::ordered_json simpler_fit_json(const std::optional<SimplerFit>& simpler);

// The "model" object of scoreWDL --json: model::model_json and the fit's diagnostics
// (objectives, convergence, "determined" and why not, uncertainty, skipped and failed moms,
// local fits).
nlohmann::ordered_json fit_json(const FitResult& fit);

// The lines of a resampling, printed after the fit's: one line saying what the error bars
// assume, warnings for refits that did not converge, then for each constant e.g.
// "NormalizeToPawnValue = 358 +- 2.1 (95 % interval 354 .. 362; jackknife over 64 game groups;
// design effect 3.4)", with the pawn value and spread rounded as the model's lines round them.
std::string resampling_report(const Resampling& resampling, const model::WdlModel& model);

// The "resampling" object of scoreWDL --json.
nlohmann::ordered_json resampling_json(const Resampling& resampling);

// The table of a cross-validation (log-loss, Brier score, expected-score RMSE of each model,
// with standard errors) and the calibration of the fitted model.
std::string cross_validation_report(const CrossValidation& validation);

// The "crossValidation" object of scoreWDL --json, with every model's calibration tables.
nlohmann::ordered_json cross_validation_json(const CrossValidation& validation);

}  // namespace wdl::fit
