#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "wdl/counts/grouping.hpp"
#include "wdl/fit/cross_validation.hpp"
#include "wdl/fit/fitter.hpp"
#include "wdl/fit/grouped_data.hpp"

// Where a fit should stop (scoreWDL --momCut, docs/model.md): cross-validated on game groups.
namespace wdl::fit {

// "Where should the fit stop?" (Stockfish cut at material 10, then 17): the model fitted on the
// moms from `cut` on and clamped below it, as Stockfish evaluates it, against the same form
// fitted on every mom of the data, both cross-validated on the same folds and scored on the
// held-out positions below the cut and from it on.
struct CutRegion {
    double positions = 0;
    double clamped_log_loss = 0, extended_log_loss = 0;
    // extended minus clamped, paired (negative: fitting down to the lower moms predicts better).
    double difference = 0, difference_error = 0;
};
struct MomCutComparison {
    int cut = 17, lowest_mom = 0;
    int folds = 0, groups = 0;
    counts::Grouping grouping;
    CutRegion below, above;
};
// Throws wdl::Error when the data hold no mom below the cut, fewer than 2 groups, or a fit fails.
MomCutComparison compare_mom_cut(const GroupedData& data, const FitOptions& options, int cut,
                                 const counts::Grouping& grouping,
                                 const CrossValidationOptions& validation);
std::string mom_cut_report(const MomCutComparison& comparison, std::string_view mom_name);
nlohmann::ordered_json mom_cut_json(const MomCutComparison& comparison);

}  // namespace wdl::fit
