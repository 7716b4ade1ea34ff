#pragma once

#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "wdl/download/hub_archive.hpp"

// The state of a refit from the archive in batches (WORK/shards.json, docs/archive.md): which
// archive commit and selection it counts, and per completed batch the game files its count
// file holds. A file in a recorded shard is never counted again; a file in none is still to do.
namespace wdl::archive {

struct ShardFile {
    std::string path;  // in the archive: "YY-MM-DD/<id>/<id>.pgn.gz"
    std::uint64_t size = 0;
    std::string sha256;
};

struct Shard {
    int batch = 0;
    // The count file, relative to the work folder; none when the batch kept no game file.
    std::optional<std::string> counts;
    std::vector<ShardFile> files;            // the game files scanned into it
    std::vector<std::string> skipped_tests;  // tests the download's filters left out
};

struct ShardList {
    std::string commit;        // the archive's commit the files come from
    nlohmann::json selection;  // everything that decides the counts (dates, filters, scan)
    std::vector<Shard> shards;
};

// WORK/shards.json
std::filesystem::path shard_list_path(const std::filesystem::path& work);

// The list in `path`, or none when there is no such file. Throws wdl::Error naming the file
// when it cannot be read or is not a shard list.
std::optional<ShardList> read_shard_list(const std::filesystem::path& path);

// Writes the list atomically: a kill leaves the old list or the new one, never a part.
void write_shard_list(const std::filesystem::path& path, const ShardList& list);

// Throws wdl::Error when a rerun's commit or selection differs from those the list counts:
// counts of different files or filters must not be added up.
void check_same_refit(const ShardList& list, const std::string& commit,
                      const nlohmann::json& selection, const std::filesystem::path& path);

// The tests with game files that no shard holds, each with its metadata files and those game
// files only; tests a shard records as skipped are left out.
std::vector<download::ArchiveTest> pending_tests(const std::vector<download::ArchiveTest>& tests,
                                                 const ShardList& list);

// The bytes the listing gives for a test's files.
std::uint64_t listed_bytes(const download::ArchiveTest& test);

// The tests, in order, cut into batches of at most `batch_bytes` listed bytes; a test larger
// than that is a batch of its own.
std::vector<std::vector<download::ArchiveTest>> cut_into_batches(
    const std::vector<download::ArchiveTest>& tests, std::uint64_t batch_bytes);

}  // namespace wdl::archive
