#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "wdl/fishtest/run_metadata.hpp"
#include "wdl/games/chunked_reader.hpp"
#include "wdl/games/file_selection.hpp"
#include "wdl/games/reading_report.hpp"
#include "wdl/util/progress_line.hpp"

// The steps around a reading of game files that every program reading PGN takes the same way:
// which files, a progress line while they are read, and what could not be read.
namespace wdl::games {

// Which game files a program reads: where they are, which part of them, which tests.
struct GameSelection {
    GameFileSource source;
    std::optional<Shard> shard;  // only this part of the corpus
    FileFilters filters;
};

// The files of a selection: every file found, those the shard and the filters keep, and what
// the fishtest metadata beside them says.
struct SelectedFiles {
    std::vector<std::filesystem::path> found;
    std::vector<std::filesystem::path> selected;
    fishtest::MetadataByFile metadata;
};

// Finds, shards and filters the game files, printing the original's lines ("Found N ...", the
// filters) to `log` and the metadata's warnings to `warnings`. Throws wdl::Error when the
// folder holds no game file at all; a shard or filters that keep none are no error.
SelectedFiles select_game_files(const GameSelection& selection, const FileFilter& filter,
                                std::ostream& log, std::ostream& warnings);

// Prints a reading's warnings (unreadable and damaged files, broken games) to `warnings`;
// throws wdl::Error when none of the `file_count` files could be read.
void report_reading(const ReadSummary& files, std::size_t file_count, std::ostream& warnings);

// A reading's result and the seconds it took.
template <class Result>
struct TimedReading {
    Result result;
    double seconds = 0;
};

// Runs `read(progress)`, which reads `files` and returns a result with a `files` ReadSummary,
// under a progress line on stderr; then reports the reading as report_reading does.
template <class Read>
auto read_with_progress(const std::vector<std::filesystem::path>& files, Read read,
                        std::ostream& warnings) {
    using Result = decltype(read(std::declval<ReadProgress&>()));
    ReadProgress progress;
    std::uint64_t bytes = total_file_bytes(files);
    auto start = std::chrono::steady_clock::now();
    TimedReading<Result> reading;
    {
        util::ProgressTicker ticker([&](double seconds) {
            return describe_progress(progress, files.size(), bytes, seconds);
        });
        reading.result = read(progress);
    }
    reading.seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    report_reading(reading.result.files, files.size(), warnings);
    return reading;
}

}  // namespace wdl::games
