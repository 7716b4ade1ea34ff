#include "wdl/scan/scan_summary.hpp"

#include <cmath>
#include <set>

#include "wdl/fishtest/layout.hpp"
#include "wdl/games/reading_report.hpp"
#include "wdl/util/error.hpp"
#include "wdl/util/whole_file.hpp"

namespace wdl::scan {
namespace {

template <class T>
nlohmann::ordered_json or_null(const std::optional<T>& value) {
    return value ? nlohmann::ordered_json(*value) : nlohmann::ordered_json();
}

nlohmann::ordered_json test_json(const ScannedTest& test) {
    nlohmann::ordered_json json;
    json["id"] = test.id;
    json["startTime"] = or_null(test.start_time);
    json["book"] = or_null(test.book);
    json["timeControls"] = test.time_controls;
    json["threads"] = or_null(test.threads);
    json["sprt"] = test.sprt;
    json["nElo"] = or_null(test.normalized_elo);
    json["resolvedBase"] = or_null(test.resolved_base);
    json["resolvedNew"] = or_null(test.resolved_new);
    return json;
}

// Reading back: each field by name, its absence or type an error that names it.
class Reader {
  public:
    // `what` names the object in messages: "the scan summary", "the scan summary's games".
    Reader(const nlohmann::ordered_json& object, std::string what, bool nested = false)
        : object_(object), what_(std::move(what)), where_(what_ + (nested ? "." : "'s ")) {
        if (!object_.is_object()) throw Error(what_ + " is not a JSON object");
    }

    template <class T>
    T required(const char* name) const {
        auto value = optional<T>(name);
        if (!value) throw Error(where_ + "\"" + name + "\" is missing");
        return *value;
    }

    // Absent or null: nothing.
    template <class T>
    std::optional<T> optional(const char* name) const {
        auto at = object_.find(name);
        if (at == object_.end() || at->is_null()) return std::nullopt;
        try {
            return at->get<T>();
        } catch (const nlohmann::ordered_json::exception&) {
            throw Error(where_ + "\"" + name + "\" has the wrong type (" + at->type_name() + ")");
        }
    }

    Reader object(const char* name) const {
        auto at = object_.find(name);
        if (at == object_.end()) throw Error(where_ + "\"" + name + "\" is missing");
        return Reader(*at, where_ + name, true);
    }
    bool has(const char* name) const { return object_.contains(name); }
    const nlohmann::ordered_json& json() const { return object_; }
    const std::string& where() const { return where_; }

  private:
    const nlohmann::ordered_json& object_;
    std::string what_, where_;
};

ScannedTest test_from(const Reader& test) {
    ScannedTest out;
    out.id = test.required<std::string>("id");
    out.start_time = test.optional<std::string>("startTime");
    out.book = test.optional<std::string>("book");
    out.time_controls = test.optional<std::vector<std::string>>("timeControls")
                            .value_or(std::vector<std::string>{});
    out.threads = test.optional<int>("threads");
    out.sprt = test.optional<bool>("sprt").value_or(false);
    out.normalized_elo = test.optional<double>("nElo");
    out.resolved_base = test.optional<std::string>("resolvedBase");
    out.resolved_new = test.optional<std::string>("resolvedNew");
    return out;
}

games::FileFilters filters_from(const Reader& filters) {
    games::FileFilters out;
    out.sprt_only = filters.optional<bool>("SPRTonly").value_or(false);
    out.match_book = filters.optional<std::string>("matchBook").value_or("");
    out.match_book_invert = filters.optional<bool>("matchBookInvert").value_or(false);
    out.match_rev = filters.optional<std::string>("matchRev").value_or("");
    out.match_tc = filters.optional<std::string>("matchTC").value_or("");
    out.match_threads = filters.optional<int>("matchThreads");
    out.elo_diff_min = filters.optional<double>("EloDiffMin");
    out.elo_diff_max = filters.optional<double>("EloDiffMax");
    return out;
}

ScannedGames games_from(const Reader& games) {
    ScannedGames out;
    out.read = games.required<std::uint64_t>("read");
    out.accepted = games.required<std::uint64_t>("accepted");
    if (games.has("skipped")) {
        Reader skipped = games.object("skipped");
        for (const auto& [reason, count] : skipped.json().items()) {
            if (!count.is_number_unsigned())
                throw Error(skipped.where() + "\"" + reason + "\" is not a count of games");
            out.skipped.emplace_back(reason, count.get<std::uint64_t>());
        }
    }
    out.adjudicated = games.optional<std::uint64_t>("adjudicated");
    out.time_forfeits = games.optional<std::uint64_t>("timeForfeits");
    return out;
}

games::ReadSummary files_from(const Reader& summary) {
    games::ReadSummary out;
    if (summary.has("files")) {
        Reader files = summary.object("files");
        out.files_read = files.optional<std::uint64_t>("read").value_or(0);
        out.files_damaged = files.optional<std::uint64_t>("damaged").value_or(0);
        out.files_unreadable = files.optional<std::uint64_t>("unreadable").value_or(0);
        out.text_bytes = files.optional<std::uint64_t>("textBytes").value_or(0);
    }
    out.warnings =
        summary.optional<std::vector<std::string>>("warnings").value_or(std::vector<std::string>{});
    return out;
}

}  // namespace

nlohmann::ordered_json filters_json(const games::FileFilters& filters) {
    nlohmann::ordered_json json;
    json["SPRTonly"] = filters.sprt_only;
    json["matchBook"] = filters.match_book;
    json["matchBookInvert"] = filters.match_book_invert;
    json["matchRev"] = filters.match_rev;
    json["matchTC"] = filters.match_tc;
    json["matchThreads"] = or_null(filters.match_threads);
    json["EloDiffMin"] = or_null(filters.elo_diff_min);
    json["EloDiffMax"] = or_null(filters.elo_diff_max);
    return json;
}

ScanSummary summarize_scan(const ScanResult& result, double seconds) {
    return summarize_scan(result.tally, result.files, result.counts.distinct_keys(), seconds);
}

ScanSummary summarize_scan(const GameTally& tally, const games::ReadSummary& files,
                           std::size_t distinct_keys, double seconds) {
    ScanSummary summary;
    summary.files = files;
    summary.games.read = tally.games_read;
    summary.games.accepted = tally.games_accepted;
    summary.games.skipped = skip_reasons(tally);
    summary.games.adjudicated = tally.adjudicated;
    summary.games.time_forfeits = tally.time_forfeits;
    summary.positions = tally.positions;
    summary.scoreless_comments = tally.scoreless_comments;
    summary.distinct_keys = distinct_keys;
    summary.seconds = seconds;
    return summary;
}

std::vector<ScannedTest> scanned_tests(const std::vector<std::filesystem::path>& game_files,
                                       const fishtest::MetadataByFile& metadata) {
    std::set<std::filesystem::path> read;
    for (const auto& file : game_files) read.insert(fishtest::metadata_file_of(file));
    std::vector<ScannedTest> tests;
    for (const auto& [file, run] : metadata) {
        if (!read.contains(file)) continue;
        ScannedTest test;
        test.id = file.stem().string();
        test.start_time = run.start_time;
        test.book = run.book;
        test.time_controls = fishtest::time_controls(run);
        test.threads = run.threads;
        test.sprt = run.sprt;
        // NaN (no game pairs) has no JSON form.
        if (run.pentanomial) {
            double elo = fishtest::normalized_elo(*run.pentanomial);
            if (std::isfinite(elo)) test.normalized_elo = elo;
        }
        test.resolved_base = run.resolved_base;
        test.resolved_new = run.resolved_new;
        tests.push_back(std::move(test));
    }
    return tests;
}

nlohmann::ordered_json scan_summary_json(const ScanSummary& summary) {
    const auto& games = summary.games;
    nlohmann::ordered_json skipped = nlohmann::ordered_json::object();
    for (const auto& [reason, count] : games.skipped) skipped[reason] = count;
    nlohmann::ordered_json json;
    json["files"] = games::files_json(summary.files);
    json["games"] = {{"read", games.read}, {"accepted", games.accepted}, {"skipped", skipped}};
    if (games.adjudicated) json["games"]["adjudicated"] = *games.adjudicated;
    if (games.time_forfeits) json["games"]["timeForfeits"] = *games.time_forfeits;
    json["positions"] = summary.positions;
    json["scorelessComments"] = summary.scoreless_comments;
    json["distinctKeys"] = summary.distinct_keys;
    json["seconds"] = summary.seconds;
    json["warnings"] = summary.files.warnings;
    json["output"] = summary.output;
    json["tests"] = nlohmann::ordered_json::array();
    for (const auto& test : summary.tests) json["tests"].push_back(test_json(test));
    if (summary.filters) json["filters"] = filters_json(*summary.filters);
    if (summary.grouping) {
        json["grouping"] = {{"groupBy", summary.grouping->group_by},
                            {"groups", summary.grouping->groups}};
        if (summary.grouping->tests) {
            json["grouping"]["perTest"] = true;
            json["grouping"]["tests"] = *summary.grouping->tests;
        }
    }
    if (summary.spilled_runs) json["spilledRuns"] = *summary.spilled_runs;
    return json;
}

ScanSummary scan_summary_from_json(const nlohmann::ordered_json& json) {
    Reader reader(json, "the scan summary");
    ScanSummary summary;
    summary.files = files_from(reader);
    summary.games = games_from(reader.object("games"));
    summary.positions = reader.optional<std::uint64_t>("positions").value_or(0);
    summary.scoreless_comments = reader.optional<std::uint64_t>("scorelessComments").value_or(0);
    summary.distinct_keys = reader.optional<std::uint64_t>("distinctKeys").value_or(0);
    summary.seconds = reader.optional<double>("seconds").value_or(0);
    summary.output = reader.optional<std::string>("output").value_or("");
    if (reader.has("tests")) {
        const auto& tests = reader.json()["tests"];
        if (!tests.is_array()) throw Error(reader.where() + "\"tests\" is not a list");
        for (std::size_t i = 0; i < tests.size(); ++i)
            summary.tests.push_back(test_from(
                Reader(tests[i], reader.where() + "tests[" + std::to_string(i) + "]", true)));
    }
    if (reader.has("filters")) summary.filters = filters_from(reader.object("filters"));
    if (reader.has("grouping")) {
        Reader grouping = reader.object("grouping");
        summary.grouping = ScanGrouping{grouping.required<std::string>("groupBy"),
                                        grouping.required<int>("groups"),
                                        grouping.optional<std::uint64_t>("tests")};
    }
    summary.spilled_runs = reader.optional<std::uint64_t>("spilledRuns");
    return summary;
}

ScanSummary read_scan_summary(const std::filesystem::path& path) {
    auto text = util::read_whole_file(path);
    if (!text) throw Error("cannot read the scan summary " + path.string());
    auto json = nlohmann::ordered_json::parse(*text, nullptr, false);
    if (json.is_discarded())
        throw Error(path.string() + " is not JSON (a scoreWDLstat --json summary is expected)");
    try {
        return scan_summary_from_json(json);
    } catch (const Error& error) {
        throw Error(path.string() + ": " + error.what());
    }
}

}  // namespace wdl::scan
