#pragma once

#include <array>
#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "wdl/counts/group_labels.hpp"
#include "wdl/fit/count_grid.hpp"
#include "wdl/fit/fitter.hpp"
#include "wdl/fit/resampling.hpp"
#include "wdl/model/normalization.hpp"
#include "wdl/util/enum_names.hpp"

// The eval scale over time (trackWDL, docs/tracking.md): the units of labelled count files (one
// per test) gathered into windows, each window fitted on its own with its resampled interval.
namespace wdl::fit {

// A unit of the series: its label and the retained counts of each of its groups.
struct TrackedUnit {
    counts::GroupLabel label;
    std::vector<std::vector<KeyCount>> groups;
    std::int64_t positions = 0;  // retained
};

// The units of count files: every unit of a labelled file, and every other file as one unit
// (id: its name, date: its last change; its groups, or one group for a plain file). Only the
// counts the grid's filter retains, converted by the normalization, are kept.
std::vector<TrackedUnit> read_units(const std::vector<std::filesystem::path>& files,
                                    const GridFilter& filter,
                                    const model::Normalization& normalization);

enum class WindowBy { Test, Revision, Day, Week, Month, Tests };
inline constexpr std::array<util::EnumName<WindowBy>, 6> kWindowByNames = {{
    {WindowBy::Test, "test"},
    {WindowBy::Revision, "revision"},
    {WindowBy::Day, "day"},
    {WindowBy::Week, "week"},
    {WindowBy::Month, "month"},
    {WindowBy::Tests, "tests"},
}};

struct Window {
    std::string name;                // the test id, revision, day, week's Monday, month, or "1-10"
    std::vector<std::size_t> units;  // into the units, in order of date
    std::string first_date, last_date;  // of its units with a date; empty if none has one
    // Where the window is drawn: the middle of its dates.
    std::string middle_date() const;
};

// The units in windows: each test, each revision of the engine under test (a label's new
// revision), each day, week (Monday to Sunday, named by its Monday) or month of the units'
// dates, or runs of `every` units (by Tests). Windows and their units are in order of date
// (then name); units without a date go last by test and revision, and into no window by date
// (counted in `undated`).
std::vector<Window> make_windows(const std::vector<TrackedUnit>& units, WindowBy by, int every,
                                 std::size_t& undated);

// A window's fit with its resampled interval.
struct WindowFit {
    std::size_t groups = 0;  // groups with retained positions: the resampled units
    std::int64_t positions = 0;
    std::optional<FitResult> fit;          // none when the window could not be fitted
    std::string no_fit;                    // why not
    std::optional<Resampling> resampling;  // none when there is no interval
    std::string no_interval;               // why not (a window of fewer than 2 groups)
    // NormalizeToPawnValue, spread, drawRateAtZero, then the extra quantities: resampled
    // estimates, or the fit's values alone (standard error 0, low = high = estimate) when
    // there is no interval.
    std::vector<ResampledEstimate> estimates;
};

// Fits the counts of the units (all their groups) as one count file of them alone would be
// fitted, and resamples its groups (resample.extra_quantities after the model's constants).
WindowFit fit_window(const std::vector<TrackedUnit>& units, const std::vector<std::size_t>& chosen,
                     const GridFilter& filter, const model::Normalization& normalization,
                     const FitOptions& options, const ResampleOptions& resample);

// Whether a window's interval of its first estimate (NormalizeToPawnValue) lies wholly above
// (+1) or below (-1) the reference, or 0.
int departure(const WindowFit& window, double reference);

// The first window of the run of windows that depart to the same side, unbroken by a window
// with an interval that does not, which reaches the last window with an interval; none when
// that window does not depart.
std::optional<std::size_t> drift_start(const std::vector<WindowFit>& windows, double reference);

}  // namespace wdl::fit
