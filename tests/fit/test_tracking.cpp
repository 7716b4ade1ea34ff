#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

#include "program_runner.hpp"
#include "sampled_data.hpp"
#include "wdl/counts/count_merge.hpp"
#include "wdl/fit/tracking.hpp"
#include "wdl/fit/wdl_data.hpp"
#include "wdl/util/atomic_file.hpp"

using namespace wdl;
namespace fs = std::filesystem;

namespace {

// A labelled count file of one synthetic test.
fs::path write_test(const fs::path& dir, const std::string& id, const std::string& date,
                    std::uint64_t seed) {
    auto sampled = synth::sample_counts(fit::test::sampler(100000, true, 4, seed),
                                        synth::SyntheticPositions(5));
    counts::GroupLabels labels;
    labels.groups_per_label = 4;
    counts::GroupLabel label;
    label.id = id;
    label.date = date;
    label.new_revision = "rev" + id;
    labels.units.push_back(label);
    fs::path file = dir / (id + ".json");
    util::AtomicFile output(file);
    counts::write_counts(sampled.counts, output, &labels);
    return file;
}

fit::TrackedUnit unit_dated(const std::string& id, const std::string& date,
                            const std::string& revision = "") {
    fit::TrackedUnit unit;
    unit.label.id = id;
    unit.label.date = date;
    unit.label.new_revision = revision;
    return unit;
}

}  // namespace

TEST_CASE("a window's fit is the fit of its tests' files alone", "[fit][track]") {
    auto dir = testing::fresh_directory("track_window_fit");
    auto a = write_test(dir, "aa", "2025-01-10", 3);
    auto b = write_test(dir, "bb", "2025-02-20", 4);
    auto merged = counts::merge_count_files({b, a});
    REQUIRE(merged.labels);
    REQUIRE(merged.labels->units.size() == 2);
    CHECK(merged.labels->units[0].id == "aa");
    {
        util::AtomicFile output(dir / "merged.json");
        counts::write_counts(merged.counts, output, &*merged.labels);
    }
    fit::GridFilter filter;
    auto normalization = model::Normalization::from_json(model::kDefaultNormalizeData);
    auto units = fit::read_units({dir / "merged.json"}, filter, normalization);
    REQUIRE(units.size() == 2);
    fit::FitOptions options;
    options.pawn_value = normalization.pawn_value();
    auto window = fit::fit_window(units, {1}, filter, normalization, options, {});
    REQUIRE(window.fit);
    REQUIRE(window.resampling);
    CHECK(window.groups == 4);

    fit::CountGrid grid(filter, normalization);
    counts::read_count_file(b, grid);
    auto alone = fit::fit_model(fit::collect_mom_data(grid), options);
    REQUIRE(alone.final_objective);
    CHECK(std::abs(*window.fit->final_objective - *alone.final_objective) <= 1e-6);
    CHECK(window.estimates[0].estimate == Approx(alone.model.a_at_target()).epsilon(1e-9));
    CHECK(window.estimates[0].low < window.estimates[0].estimate);
    CHECK(window.estimates[0].high > window.estimates[0].estimate);
    fs::remove_all(dir);
}

TEST_CASE("windows by date, revision and count", "[fit][track]") {
    std::vector<fit::TrackedUnit> units{
        unit_dated("c", "2025-03-02", "r2"), unit_dated("a", "2025-02-24", "r1"),
        unit_dated("b", "2025-03-03", "r2"), unit_dated("d", "", "r3")};
    std::size_t undated = 0;
    auto weeks = fit::make_windows(units, fit::WindowBy::Week, 1, undated);
    CHECK(undated == 1);
    REQUIRE(weeks.size() == 2);
    CHECK(weeks[0].name == "2025-02-24");  // a Monday: a and c (Sunday) share its week
    CHECK(weeks[0].units == std::vector<std::size_t>{1, 0});
    CHECK(weeks[1].name == "2025-03-03");
    CHECK(weeks[0].middle_date() == "2025-02-27");
    auto months = fit::make_windows(units, fit::WindowBy::Month, 1, undated);
    REQUIRE(months.size() == 2);
    CHECK(months[1].name == "2025-03");
    CHECK(months[1].units.size() == 2);
    auto revisions = fit::make_windows(units, fit::WindowBy::Revision, 1, undated);
    REQUIRE(revisions.size() == 3);
    CHECK(revisions[1].name == "r2");
    CHECK(revisions[2].first_date.empty());
    auto runs = fit::make_windows(units, fit::WindowBy::Tests, 3, undated);
    REQUIRE(runs.size() == 2);
    CHECK(runs[0].name == "1-3");
    CHECK(runs[1].name == "4-4");
}

TEST_CASE("a drift starts where the windows begin to depart to one side", "[fit][track]") {
    auto window = [](double low, double high) {
        fit::WindowFit fit;
        fit.resampling.emplace();
        fit::ResampledEstimate estimate;
        estimate.low = low;
        estimate.high = high;
        estimate.estimate = (low + high) / 2;
        fit.estimates.push_back(estimate);
        return fit;
    };
    std::vector<fit::WindowFit> windows{window(95, 105),  window(106, 110), window(98, 103),
                                        window(104, 108), fit::WindowFit(), window(103, 109)};
    CHECK(fit::drift_start(windows, 100) == std::size_t(3));
    windows.push_back(window(96, 101));
    CHECK(!fit::drift_start(windows, 100));
}
