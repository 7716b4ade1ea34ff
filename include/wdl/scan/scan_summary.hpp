#pragma once

#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "wdl/fishtest/run_metadata.hpp"
#include "wdl/games/chunked_reader.hpp"
#include "wdl/games/file_selection.hpp"
#include "wdl/scan/scanner.hpp"

// What a scan read and kept, as scoreWDLstat --json writes it and the fit's report reads it
// back (docs/formats.md, "The scan summary"): one type, its JSON both ways.
namespace wdl::scan {

// A fishtest test whose game files the scan read, from its metadata; empty where it lacks a field.
struct ScannedTest {
    std::string id;
    std::optional<std::string> start_time, book;
    std::vector<std::string> time_controls;  // both engines' (two for time odds)
    std::optional<int> threads;
    bool sprt = false;
    std::optional<double> normalized_elo;  // of the pentanomial counts
    std::optional<std::string> resolved_base, resolved_new;
};

struct ScannedGames {
    std::uint64_t read = 0, accepted = 0;
    // Games skipped, by reason (games::describe), in the order written.
    std::vector<std::pair<std::string, std::uint64_t>> skipped;
    // Accepted games adjudicated, and skipped games lost on time (absent from old summaries).
    std::optional<std::uint64_t> adjudicated, time_forfeits;
};

// How the counts were kept apart (--groups, --perTest).
struct ScanGrouping {
    std::string group_by;
    int groups = 0;
    std::optional<std::uint64_t> tests;  // --perTest: the tests labelled
};

struct ScanSummary {
    games::ReadSummary files;  // its warnings are the lines printed on stderr
    ScannedGames games;
    std::uint64_t positions = 0, scoreless_comments = 0, distinct_keys = 0;
    double seconds = 0;
    std::string output;  // the count file written
    std::vector<ScannedTest> tests;
    std::optional<games::FileFilters> filters;  // the metadata filters given
    std::optional<ScanGrouping> grouping;
    // --human: the runs of cells written to disk when memory's budget was reached (0: none).
    std::optional<std::uint64_t> spilled_runs;
};

// The summary of a scan's result (files, games, positions), the rest left to the caller.
ScanSummary summarize_scan(const ScanResult& result, double seconds);
// The same of any scan of games: its tally, files and the distinct keys of its counts.
ScanSummary summarize_scan(const GameTally& tally, const games::ReadSummary& files,
                           std::size_t distinct_keys, double seconds);

// The fishtest tests of the game files read, one each in order of their metadata files.
std::vector<ScannedTest> scanned_tests(const std::vector<std::filesystem::path>& game_files,
                                       const fishtest::MetadataByFile& metadata);

nlohmann::ordered_json scan_summary_json(const ScanSummary& summary);

// The metadata filters as the summary spells them (also what archiveWDL records of a scan).
nlohmann::ordered_json filters_json(const games::FileFilters& filters);

// Reads a summary back; fields that older summaries lack are left empty. Throws wdl::Error
// naming the field that is missing or of the wrong type.
ScanSummary scan_summary_from_json(const nlohmann::ordered_json& json);

// Reads the file written by scoreWDLstat --json; throws wdl::Error naming the file.
ScanSummary read_scan_summary(const std::filesystem::path& path);

}  // namespace wdl::scan
