#include "wdl/fit/tracking.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <numeric>

#include "wdl/counts/count_file.hpp"
#include "wdl/fit/fit_verdict.hpp"
#include "wdl/fit/grouped_data.hpp"
#include "wdl/fit/wdl_data.hpp"
#include "wdl/util/error.hpp"

namespace wdl::fit {
namespace {

using std::chrono::sys_days;

sys_days day_of(const std::string& date) {
    return sys_days(std::chrono::year(std::stoi(date.substr(0, 4))) /
                    std::chrono::month(unsigned(std::stoi(date.substr(5, 2)))) /
                    std::chrono::day(unsigned(std::stoi(date.substr(8, 2)))));
}

std::string date_of(sys_days day) {
    std::chrono::year_month_day date(day);
    return fmt::format("{:04}-{:02}-{:02}", int(date.year()), unsigned(date.month()),
                       unsigned(date.day()));
}

// The window of a unit by date: its day, its week's Monday or its month; empty when undated.
std::string date_window(const std::string& date, WindowBy by) {
    if (date.empty()) return {};
    if (by == WindowBy::Month) return date.substr(0, 7);
    if (by == WindowBy::Day) return date;
    sys_days day = day_of(date);
    std::chrono::weekday weekday(day);
    return date_of(day - std::chrono::days(weekday.iso_encoding() - 1));
}

// The units' order: by date (undated last), then id.
std::vector<std::size_t> date_order(const std::vector<TrackedUnit>& units) {
    std::vector<std::size_t> order(units.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) {
        const auto& a = units[x].label;
        const auto& b = units[y].label;
        if (a.date.empty() != b.date.empty()) return b.date.empty();
        if (a.date != b.date) return a.date < b.date;
        return a.id < b.id;
    });
    return order;
}

std::int64_t retained_positions(const std::vector<KeyCount>& group) {
    std::int64_t positions = 0;
    for (const auto& count : group) positions += count.count;
    return positions;
}

}  // namespace

std::string Window::middle_date() const {
    if (first_date.empty()) return {};
    sys_days first = day_of(first_date), last = day_of(last_date);
    return date_of(first + (last - first) / 2);
}

std::vector<TrackedUnit> read_units(const std::vector<std::filesystem::path>& files,
                                    const GridFilter& filter,
                                    const model::Normalization& normalization) {
    std::vector<TrackedUnit> units;
    for (const auto& file : files) {
        CountGrid grid(filter, normalization, true);
        auto report = counts::read_grouped_count_file(
            file, [&grid](int group, const counts::PositionKey& key, std::int64_t count) {
                grid.add_to_group(group, key, count);
            });
        const auto& kept = grid.group_counts();
        auto group_of = [&kept](int group) {
            return std::size_t(group) < kept.size() ? kept[std::size_t(group)]
                                                    : std::vector<KeyCount>();
        };
        auto add_unit = [&](counts::GroupLabel label, int first_group, int groups) {
            TrackedUnit unit;
            unit.label = std::move(label);
            for (int group = first_group; group < first_group + groups; ++group) {
                unit.groups.push_back(group_of(group));
                unit.positions += retained_positions(unit.groups.back());
            }
            units.push_back(std::move(unit));
        };
        if (report.labels) {
            const int per_label = report.labels->groups_per_label;
            for (std::size_t i = 0; i < report.labels->units.size(); ++i)
                add_unit(report.labels->units[i], int(i) * per_label, per_label);
        } else {
            counts::GroupLabel label;
            label.id = file.filename().string();
            label.date = counts::file_change_date(file);
            label.file = file.string();
            add_unit(std::move(label), 0, report.grouping ? report.grouping->groups : 1);
        }
    }
    return units;
}

std::vector<Window> make_windows(const std::vector<TrackedUnit>& units, WindowBy by, int every,
                                 std::size_t& undated) {
    if (every < 1) throw Error("a window needs at least 1 test.");
    undated = 0;
    std::vector<Window> windows;
    std::map<std::string, std::size_t> window_named;
    auto add_to = [&](const std::string& name, std::size_t unit) {
        auto [place, added] = window_named.try_emplace(name, windows.size());
        if (added) windows.push_back({name, {}, {}, {}});
        windows[place->second].units.push_back(unit);
    };
    auto order = date_order(units);
    for (std::size_t rank = 0; rank < order.size(); ++rank) {
        std::size_t unit = order[rank];
        const counts::GroupLabel& label = units[unit].label;
        switch (by) {
            case WindowBy::Test:
                windows.push_back({label.id, {unit}, {}, {}});
                break;
            case WindowBy::Revision:
                add_to(label.new_revision.empty() ? "(unknown)" : label.new_revision, unit);
                break;
            case WindowBy::Tests: {
                std::size_t first = rank - rank % std::size_t(every);
                add_to(fmt::format("{}-{}", first + 1,
                                   std::min(first + std::size_t(every), order.size())),
                       unit);
                break;
            }
            default: {
                std::string name = date_window(label.date, by);
                if (name.empty()) {
                    ++undated;
                } else {
                    add_to(name, unit);
                }
            }
        }
    }
    for (auto& window : windows) {
        for (std::size_t unit : window.units) {
            const std::string& date = units[unit].label.date;
            if (date.empty()) continue;
            if (window.first_date.empty() || date < window.first_date) window.first_date = date;
            if (window.last_date.empty() || date > window.last_date) window.last_date = date;
        }
    }
    return windows;
}

WindowFit fit_window(const std::vector<TrackedUnit>& units, const std::vector<std::size_t>& chosen,
                     const GridFilter& filter, const model::Normalization& normalization,
                     const FitOptions& options, const ResampleOptions& resample) {
    WindowFit window;
    CountGrid grid(filter, normalization, true);
    int group = 0;
    for (std::size_t unit : chosen) {
        for (const auto& counts : units[unit].groups) {
            for (const auto& count : counts)
                grid.add_to_group(group, counts::unpack_key(count.key), count.count);
            ++group;
        }
    }
    window.positions = grid.totals().total();
    GroupedData data(grid);
    window.groups = data.group_count();
    if (window.positions == 0) {
        window.no_fit = "no retained positions";
        return window;
    }
    try {
        window.fit = fit_model(data.total(), options);
    } catch (const Error& error) {
        window.no_fit = error.what();
        return window;
    }
    // A fit the window's data do not determine is no estimate of its scale, with or without
    // an interval: the window has no fit, and says why (scoreWDL's verdict, fit_verdict).
    if (auto verdict = fit_verdict(*window.fit); !verdict.determined) {
        window.no_fit = "the fit is not determined: " + verdict.reason;
        window.fit.reset();
        return window;
    }
    if (window.groups < 2) {
        window.no_interval = fmt::format(
            "{} group with retained positions: an interval needs "
            "2 or more",
            window.groups);
    } else {
        try {
            window.resampling =
                resample_fit(data, *window.fit, options, {counts::GroupBy::Game, group}, resample);
            if (!window.resampling->no_interval.empty()) {
                window.no_interval = window.resampling->no_interval;
                window.resampling.reset();
            }
        } catch (const Error& error) {
            window.no_interval = error.what();
        }
    }
    std::vector<ModelQuantity> quantities = headline_quantities();
    quantities.insert(quantities.end(), resample.extra_quantities.begin(),
                      resample.extra_quantities.end());
    for (const auto& quantity : quantities) {
        ResampledEstimate estimate;
        if (window.resampling) {
            auto found = std::find_if(window.resampling->estimates.begin(),
                                      window.resampling->estimates.end(),
                                      [&](const ResampledEstimate& candidate) {
                                          return candidate.name == quantity.name;
                                      });
            if (found != window.resampling->estimates.end()) estimate = *found;
        }
        if (estimate.name.empty()) {
            estimate.name = quantity.name;
            estimate.estimate = quantity.value(window.fit->model);
            estimate.low = estimate.high = estimate.estimate;
        }
        window.estimates.push_back(std::move(estimate));
    }
    return window;
}

int departure(const WindowFit& window, double reference) {
    if (!window.resampling || window.estimates.empty()) return 0;
    const ResampledEstimate& value = window.estimates.front();
    if (value.low > reference) return 1;
    if (value.high < reference) return -1;
    return 0;
}

std::optional<std::size_t> drift_start(const std::vector<WindowFit>& windows, double reference) {
    std::optional<std::size_t> last;
    for (std::size_t i = 0; i < windows.size(); ++i)
        if (windows[i].resampling) last = i;
    if (!last) return std::nullopt;
    int side = departure(windows[*last], reference);
    if (side == 0) return std::nullopt;
    std::size_t start = *last;
    for (std::size_t i = *last; i-- > 0;) {
        if (!windows[i].resampling) continue;
        if (departure(windows[i], reference) != side) break;
        start = i;
    }
    return start;
}

}  // namespace wdl::fit
