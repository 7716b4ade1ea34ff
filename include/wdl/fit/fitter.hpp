#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "wdl/fit/objective.hpp"
#include "wdl/fit/wdl_data.hpp"
#include "wdl/model/wdl_model.hpp"
#include "wdl/util/enum_names.hpp"

// The three fitting stages of scoreWDL (docs/model.md), on Ceres Solver.
namespace wdl::fit {

enum class Method { FitDensity, OptimizeProbability, OptimizeScore, None };
inline constexpr std::array<util::EnumName<Method>, 4> kMethodNames = {{
    {Method::FitDensity, "fitDensity"},
    {Method::OptimizeProbability, "optimizeProbability"},
    {Method::OptimizeScore, "optimizeScore"},
    {Method::None, "None"},
}};

std::string_view method_name(Method method);
std::optional<Method> method_from_name(std::string_view name);
// The objective an optimize method minimizes; none for FitDensity and None.
std::optional<Objective> method_objective(Method method);

struct LocalFit {
    int mom = 0;
    double a = 0, b = 0;
};

// Outcome of a numerical minimization.
struct Minimization {
    bool converged = false;
    std::string message;  // why not, when not converged
};

// A local fit and whether its solver converged.
struct LocalResult {
    LocalFit fit;
    Minimization minimization;
};

// Stage 1: least-squares fit of win_rate(x; a, b) to the win densities of one mom (each eval
// with data weighted equally), Levenberg-Marquardt from (a, b) = start.
LocalResult fit_density(const MomData& mom, LocalFit start);

// Stage 1 refinement: minimizes the objective over the data of one mom only (as stage 3).
LocalResult refine_locally(Objective objective, const MomData& mom, LocalFit start);

// Stage 2: least-squares polynomial of `degree` through the points (ts[i], ys[i]), solved
// exactly; none when the points do not determine one (fewer than degree + 1 distinct ts) or
// are not finite. Highest power first.
std::optional<model::Coefficients> fit_polynomial(std::span<const double> ts,
                                                  std::span<const double> ys, int degree);

// Stage 3: minimizes the objective over all coefficients of the model's two curves on all
// moms; the model holds the forms and the start and receives the optimum. BFGS, then Newton's
// method on the exact Hessian; converged means a Newton step promises less than 1e-14 of the
// objective.
Minimization optimize_globally(Objective objective, std::span<const MomData> moms,
                               model::WdlModel& model);

// A fit of several sources' data (e.g. the games of several time controls) with one a(m) for
// all and a b(m) for each, from `start` (one model per source, all with the same a and forms;
// e.g. the pooled fit for each): BFGS then Newton, or Newton alone when `refit` (the start is
// already a nearby optimum). Returns a model per source.
struct SharedFit {
    std::vector<model::WdlModel> models;
    Minimization minimization;
};
SharedFit fit_shared_a(Objective objective, std::span<const std::vector<MomData>> sources,
                       const std::vector<model::WdlModel>& start, bool refit);

// The data of several sources added cell by cell (one mom's cells by eval).
std::vector<MomData> pooled_mom_data(std::span<const std::vector<MomData>> sources);

struct FitOptions {
    Method method = Method::OptimizeProbability;
    model::MomType mom_type = model::MomType::Material;
    int mom_target = 58;
    std::int64_t win_min = 10;
    int pawn_value = 328;             // start of the local fits: a = pawn value, b = pawn value / 6
    model::CurveForm a_form, b_form;  // Stockfish's cubics unless another form is asked for
};

// A mom whose local fit did not converge: it is left out of the polynomial fits.
struct FailedLocalFit {
    int mom = 0;
    std::string reason;
};

// How certain an optimizeProbability fit is. The covariance of the coefficients is the
// inverse of the Fisher information: N times the Hessian of the mean negative log-likelihood
// at the optimum. It takes the positions as independent draws; the positions of one game are
// not, so its errors are lower bounds of the true ones.
struct FitUncertainty {
    model::Covariance covariance;  // of p_a's coefficients, then p_b's
    double pawn_value_error = 0;   // standard error of p_a(1) (for the cubic, sum(as))
    double spread_error = 0;       // standard error of p_b(1)
};

// The uncertainty of the maximum-likelihood model; none if the information matrix is not
// positive definite there (the data do not determine every coefficient).
std::optional<FitUncertainty> probability_fit_uncertainty(std::span<const MomData> moms,
                                                          const model::WdlModel& model);

struct FitResult {
    std::vector<int> skipped_moms;  // too few wins for a local fit
    std::vector<FailedLocalFit> failed_local_fits;
    std::vector<LocalFit> local_fits;
    model::WdlModel model;  // the fitted coefficients and the mom they depend on
    // Optimize methods only.
    std::optional<double> initial_objective, final_objective;
    std::optional<Minimization> minimization;
    std::optional<FitUncertainty> uncertainty;  // converged optimizeProbability fits only
};

// Runs stages 1-3 for an optimize or fitDensity method. Throws wdl::Error when fewer moms
// have a local fit than the curves have coefficients, or a polynomial fit fails.
FitResult fit_model(std::span<const MomData> moms, const FitOptions& options);

// A fit of data that differ little from data already fitted (a resampled replicate, the
// training folds of a cross-validation), starting from that fit: an optimize method minimizes
// its objective by Newton's method alone from the fitted coefficients (the optimum is the
// same as from any start, and a few steps reach it); fitDensity repeats stages 1 and 2.
struct Refit {
    model::WdlModel model;
    Minimization minimization;
};
Refit refit_model(std::span<const MomData> moms, const FitOptions& options,
                  const model::WdlModel& fitted);

}  // namespace wdl::fit
