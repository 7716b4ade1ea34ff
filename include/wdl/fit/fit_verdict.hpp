#pragma once

#include <optional>
#include <span>
#include <string>

#include "wdl/counts/grouping.hpp"
#include "wdl/fit/fitter.hpp"
#include "wdl/fit/grouped_data.hpp"
#include "wdl/fit/model_selection.hpp"

// Whether a fit's constants can be used, and what to do when they cannot (issue 39): a fit the
// data cannot carry (too few games for eight coefficients) ends where the search stopped, at
// constants such as NormalizeToPawnValue = -693017170064 that read like any other. The verdict
// is decided here once; scoreWDL prints and exits by it.
namespace wdl::fit {

struct FitVerdict {
    bool determined = true;
    std::string reason;  // why not, when not determined
};

// Not determined: the global minimization did not converge (no strict minimum: the data do
// not fix every coefficient), or the pawn value it ends at is no scale (not positive and
// finite). A fitDensity fit has no minimization: only its pawn value is judged.
FitVerdict fit_verdict(const FitResult& fit);

// A simpler form's fit that the same data do determine, to use instead.
struct SimplerFit {
    FormPair forms;
    model::WdlModel model;
    std::optional<FitUncertainty> uncertainty;  // Fisher, positions as independent
    // True: the form --selectModel chooses by its held-out rule (grouped counts). False: plain
    // counts have no groups to hold out, so it is the form of fewest coefficients whose fit
    // converges on all the data.
    bool held_out = false;
};

// On grouped counts, the form select_model chooses among default_selection_forms (when it
// could score one); on plain counts the simplest of them whose fit is determined. None when no
// form is determined.
std::optional<SimplerFit> simpler_fit(std::span<const MomData> moms, const GroupedData* grouped,
                                      const FitOptions& options, const counts::Grouping* grouping,
                                      const CrossValidationOptions& validation);

}  // namespace wdl::fit
