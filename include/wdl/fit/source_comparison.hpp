#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "wdl/counts/grouping.hpp"
#include "wdl/fit/cross_validation.hpp"
#include "wdl/fit/fitter.hpp"
#include "wdl/fit/grouped_data.hpp"

// Whether sources such as time controls need models of their own (scoreWDL --compareFiles,
// docs/model.md): cross-validated on game groups.
namespace wdl::fit {

// "Does the time control matter?": the games of several sources (a count file per time control,
// scanned with the same --groups) held out over the same folds (by the groups' numbers in the
// files) and predicted by one model for all ("pooled"), by one a(m) for all with a b(m) per
// source ("b per source"), and by a model per source ("model per source").
struct SourceModels {
    std::string name;
    std::vector<model::WdlModel> models;  // one per source (the pooled model repeated)
    double log_loss = 0, log_loss_error = 0;
    double minus_pooled = 0, minus_pooled_error = 0;  // paired over the same positions
};
struct SourceComparison {
    std::vector<std::string> sources;
    std::vector<double> source_positions;  // held out, per source
    int folds = 0, groups = 0;
    counts::Grouping grouping;
    double positions = 0;
    std::vector<SourceModels> kinds;  // pooled, b per source, model per source
};
// Throws wdl::Error for fewer than 2 sources or groups, a method without an objective, or a fit
// that fails.
SourceComparison compare_sources(const std::vector<const GroupedData*>& sources,
                                 const std::vector<std::string>& names, const FitOptions& options,
                                 const counts::Grouping& grouping,
                                 const CrossValidationOptions& validation);
std::string source_comparison_report(const SourceComparison& comparison);
nlohmann::ordered_json source_comparison_json(const SourceComparison& comparison);

}  // namespace wdl::fit
