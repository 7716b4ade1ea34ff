#include "wdl/scan/scan_report.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <set>

#include "wdl/fishtest/layout.hpp"
#include "wdl/games/reading_report.hpp"

namespace wdl::scan {

std::string format_scan_summary(const ScanResult& result, double seconds) {
    const auto& tally = result.tally;
    const auto& files = result.files;
    std::uint64_t skipped = tally.games_read - tally.games_accepted;
    std::string reasons;
    for (std::size_t i = 0; i < games::kSkipReasonCount; ++i) {
        if (tally.skipped[i] == 0) continue;
        reasons += fmt::format("{}{}: {}", reasons.empty() ? " (" : ", ",
                               games::describe(games::GameSkipReason(i)), tally.skipped[i]);
    }
    if (!reasons.empty()) reasons += ")";
    double megabytes = double(files.text_bytes) / 1e6;
    double safe_seconds = std::max(seconds, 1e-9);
    std::string summary;
    summary += games::format_files_line(files);
    summary += fmt::format("Games: {} read, {} accepted, {} skipped{}.\n", tally.games_read,
                           tally.games_accepted, skipped, reasons);
    summary += fmt::format("Positions: {} counted in {} distinct keys.\n", tally.positions,
                           result.counts.distinct_keys());
    if (tally.scoreless_comments > 0) {
        summary += fmt::format(
            "Comments without a score: {} (a number without a decimal point, as OpenBench's "
            "\"12/17 41 40000\": no eval).\n",
            tally.scoreless_comments);
    }
    summary += fmt::format("Speed: {:.2f} s, {:.1f} MB/s of PGN text, {:.0f} games/s.\n", seconds,
                           megabytes / safe_seconds, double(tally.games_read) / safe_seconds);
    return summary;
}

nlohmann::ordered_json scan_summary_json(const ScanResult& result, double seconds) {
    const auto& tally = result.tally;
    const auto& files = result.files;
    nlohmann::ordered_json skipped = nlohmann::ordered_json::object();
    for (std::size_t i = 0; i < games::kSkipReasonCount; ++i)
        if (tally.skipped[i] > 0)
            skipped[games::describe(games::GameSkipReason(i))] = tally.skipped[i];
    nlohmann::ordered_json json;
    json["files"] = games::files_json(files);
    json["games"] = {{"read", tally.games_read},
                     {"accepted", tally.games_accepted},
                     {"skipped", std::move(skipped)},
                     {"adjudicated", tally.adjudicated},
                     {"timeForfeits", tally.time_forfeits}};
    json["positions"] = tally.positions;
    json["scorelessComments"] = tally.scoreless_comments;
    json["distinctKeys"] = result.counts.distinct_keys();
    json["seconds"] = seconds;
    json["warnings"] = files.warnings;
    return json;
}

nlohmann::ordered_json tests_json(const std::vector<std::filesystem::path>& game_files,
                                  const fishtest::MetadataByFile& metadata) {
    auto or_null = [](const auto& value) {
        return value ? nlohmann::ordered_json(*value) : nlohmann::ordered_json();
    };
    std::set<std::filesystem::path> read;
    for (const auto& file : game_files) read.insert(fishtest::metadata_file_of(file));
    nlohmann::ordered_json tests = nlohmann::ordered_json::array();
    for (const auto& [file, run] : metadata) {
        if (!read.contains(file)) continue;
        nlohmann::ordered_json test;
        test["id"] = file.stem().string();
        test["startTime"] = or_null(run.start_time);
        test["book"] = or_null(run.book);
        test["timeControls"] = fishtest::time_controls(run);
        test["threads"] = or_null(run.threads);
        test["sprt"] = run.sprt;
        std::optional<double> elo;
        if (run.pentanomial) elo = fishtest::normalized_elo(*run.pentanomial);
        // NaN (no game pairs) has no JSON form.
        test["nElo"] =
            elo && std::isfinite(*elo) ? nlohmann::ordered_json(*elo) : nlohmann::ordered_json();
        test["resolvedBase"] = or_null(run.resolved_base);
        test["resolvedNew"] = or_null(run.resolved_new);
        tests.push_back(std::move(test));
    }
    return tests;
}

}  // namespace wdl::scan
