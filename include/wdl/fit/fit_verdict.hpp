#pragma once

#include <optional>
#include <span>
#include <string>

#include "wdl/counts/grouping.hpp"
#include "wdl/fit/fitter.hpp"
#include "wdl/fit/grouped_data.hpp"
#include "wdl/fit/model_selection.hpp"

// Whether a fit's constants can be used, and what to do when they cannot: a fit the
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
    // Positions Stockfish's cubic would need for a standard error of kPlannedPawnValueError in
    // NormalizeToPawnValue, if the games were like these and the simpler fit were the truth
    // (cubic_positions_needed); none when it cannot be computed.
    std::optional<double> cubic_positions;
};

// The standard error of NormalizeToPawnValue the planning of SimplerFit::cubic_positions aims
// at: about 1.5 % of a pawn value of 330, a 95 % interval of +- 10.
inline constexpr double kPlannedPawnValueError = 5;

// Positions the cubic needs for standard error `target` of its NormalizeToPawnValue: the
// simpler model, a polynomial pair of degree 3 or less, written as a cubic (its higher
// coefficients 0), gives the cubic's expected Fisher information on these positions (their
// outcomes as the simpler model expects them); the error shrinks
// as 1 / sqrt(N). Positions are taken as independent, so it is a lower bound: a game's
// positions share its result. None for other forms or when the information is not positive
// definite.
std::optional<double> cubic_positions_needed(std::span<const MomData> moms,
                                             const model::WdlModel& simpler, double target);

// On grouped counts, the form select_model chooses among default_selection_forms (when it
// could score one); on plain counts the simplest of them whose fit is determined. None when no
// form is determined.
std::optional<SimplerFit> simpler_fit(std::span<const MomData> moms, const GroupedData* grouped,
                                      const FitOptions& options, const counts::Grouping* grouping,
                                      const CrossValidationOptions& validation);

}  // namespace wdl::fit
