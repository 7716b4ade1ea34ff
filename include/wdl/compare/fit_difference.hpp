#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "wdl/counts/grouping.hpp"
#include "wdl/fit/count_grid.hpp"
#include "wdl/fit/fitter.hpp"
#include "wdl/model/normalization.hpp"

// Two engine versions' games fitted alike, and how their models differ beyond noise
// (compareWDL --fit OLD NEW, docs/programs.md).
namespace wdl::compare {

struct FitDifferenceOptions {
    fit::GridFilter filter;
    fit::FitOptions fit;
    std::vector<double> moms;  // where a(mom) and b(mom) are compared; empty: a default set
    int threads = 1;
};

// One count file's fit and how its errors were found.
struct FittedCounts {
    std::filesystem::path file;
    double positions = 0;  // retained
    fit::FitResult fit;
    // "jackknife over 64 game groups", "Fisher information (positions taken as independent)"
    // or "none".
    std::string errors;
    bool errors_understated = false;  // Fisher errors of positions of games
};

// A quantity of both fits: each with its standard error, and their difference NEW - OLD with
// the error of the difference of independent estimates, sqrt(se_old^2 + se_new^2).
struct QuantityDifference {
    std::string name;  // "NormalizeToPawnValue", "spread", "drawRateAtZero", "a(58)", "b(58)"
    double old_value = 0, new_value = 0;
    std::optional<double> old_error, new_error;
    double difference = 0;
    std::optional<double> error;  // both errors known
    std::optional<double> z;      // difference / error
};

struct FitDifference {
    FittedCounts old_fit, new_fit;
    std::vector<QuantityDifference> quantities;
};

// Reads each count file (plain, or grouped: then the errors are the jackknife's over its
// groups; plain: the Fisher information's, which take positions as independent and are too
// small for games), fits it and compares. Throws wdl::Error for unreadable files and for data
// that cannot be fitted.
FitDifference fit_difference(const std::filesystem::path& old_counts,
                             const std::filesystem::path& new_counts,
                             const model::Normalization& normalization,
                             const FitDifferenceOptions& options);

// The printed table and a verdict on NormalizeToPawnValue.
std::string fit_difference_text(const FitDifference& difference);
// The same for --json, with both fitted models.
nlohmann::ordered_json fit_difference_json(const FitDifference& difference);

}  // namespace wdl::compare
