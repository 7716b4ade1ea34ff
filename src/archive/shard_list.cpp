#include "wdl/archive/shard_list.hpp"

#include <fmt/format.h>

#include <fstream>
#include <set>

#include "wdl/fishtest/layout.hpp"
#include "wdl/util/atomic_file.hpp"
#include "wdl/util/error.hpp"

namespace wdl::archive {
namespace {

namespace fs = std::filesystem;

// The first line's tag of a shard list: a file that lacks it is not one.
constexpr const char* kFormatKey = "wdlfitArchiveShards";
constexpr int kFormatVersion = 1;

bool is_game_file(const std::string& path) {
    return fishtest::is_game_file_name(fs::path(path).filename().string());
}

nlohmann::ordered_json shard_json(const Shard& shard) {
    nlohmann::ordered_json files = nlohmann::ordered_json::array();
    for (const auto& file : shard.files)
        files.push_back({{"path", file.path}, {"size", file.size}, {"sha256", file.sha256}});
    nlohmann::ordered_json json = {{"batch", shard.batch}};
    json["counts"] = shard.counts ? nlohmann::ordered_json(*shard.counts) : nullptr;
    json["files"] = std::move(files);
    json["skippedTests"] = shard.skipped_tests;
    return json;
}

Shard shard_of(const nlohmann::json& json) {
    Shard shard;
    shard.batch = json.at("batch").get<int>();
    if (!json.at("counts").is_null()) shard.counts = json.at("counts").get<std::string>();
    for (const auto& file : json.at("files")) {
        shard.files.push_back({file.at("path").get<std::string>(),
                               file.at("size").get<std::uint64_t>(),
                               file.at("sha256").get<std::string>()});
    }
    shard.skipped_tests = json.at("skippedTests").get<std::vector<std::string>>();
    return shard;
}

}  // namespace

fs::path shard_list_path(const fs::path& work) { return work / "shards.json"; }

std::optional<ShardList> read_shard_list(const fs::path& path) {
    std::error_code error;
    if (!fs::exists(path, error)) return std::nullopt;
    std::ifstream in(path);
    if (!in) throw Error(path.string() + ": cannot be read");
    try {
        auto json = nlohmann::json::parse(in);
        if (json.value(kFormatKey, 0) != kFormatVersion)
            throw Error(path.string() + ": not a shard list of archiveWDL");
        ShardList list;
        list.commit = json.at("commit").get<std::string>();
        list.selection = json.at("selection");
        for (const auto& shard : json.at("shards")) list.shards.push_back(shard_of(shard));
        return list;
    } catch (const nlohmann::json::exception& bad) {
        throw Error(path.string() + ": a damaged shard list (" + bad.what() + ")");
    }
}

void write_shard_list(const fs::path& path, const ShardList& list) {
    nlohmann::ordered_json json = {{kFormatKey, kFormatVersion}, {"commit", list.commit}};
    json["selection"] = list.selection;
    json["shards"] = nlohmann::ordered_json::array();
    for (const auto& shard : list.shards) json["shards"].push_back(shard_json(shard));
    util::write_file_atomically(path, json.dump(1) + "\n");
}

void check_same_refit(const ShardList& list, const std::string& commit,
                      const nlohmann::json& selection, const fs::path& path) {
    if (list.commit != commit) {
        throw Error(fmt::format(
            "{} counts files of the archive's commit {}, and this run's revision is commit {}: "
            "finish that refit with --revision {}, or give another --work folder",
            path.string(), list.commit, commit, list.commit));
    }
    if (list.selection != selection) {
        std::vector<std::string> differing;
        for (const auto& [key, value] : selection.items())
            if (!list.selection.contains(key) || list.selection.at(key) != value)
                differing.push_back(key);
        for (const auto& [key, value] : list.selection.items())
            if (!selection.contains(key)) differing.push_back(key);
        throw Error(fmt::format(
            "{} counts another selection (differing: {}): rerun with its options ({}), or give "
            "another --work folder",
            path.string(), fmt::join(differing, ", "), list.selection.dump()));
    }
}

std::vector<download::ArchiveTest> pending_tests(const std::vector<download::ArchiveTest>& tests,
                                                 const ShardList& list) {
    std::set<std::string> counted, skipped;
    for (const auto& shard : list.shards) {
        for (const auto& file : shard.files) counted.insert(file.path);
        skipped.insert(shard.skipped_tests.begin(), shard.skipped_tests.end());
    }
    std::vector<download::ArchiveTest> pending;
    for (const auto& test : tests) {
        if (skipped.count(test.id)) continue;
        download::ArchiveTest rest{test.date_folder, test.id, {}};
        bool has_games = false;
        for (const auto& file : test.files) {
            if (!is_game_file(file.path)) {
                rest.files.push_back(file);  // the metadata, which the filters read
            } else if (!counted.count(file.path)) {
                rest.files.push_back(file);
                has_games = true;
            }
        }
        if (has_games) pending.push_back(std::move(rest));
    }
    return pending;
}

std::uint64_t listed_bytes(const download::ArchiveTest& test) {
    std::uint64_t bytes = 0;
    for (const auto& file : test.files) bytes += file.size;
    return bytes;
}

std::vector<std::vector<download::ArchiveTest>> cut_into_batches(
    const std::vector<download::ArchiveTest>& tests, std::uint64_t batch_bytes) {
    std::vector<std::vector<download::ArchiveTest>> batches;
    std::uint64_t bytes_in_last = 0;
    for (const auto& test : tests) {
        std::uint64_t bytes = listed_bytes(test);
        if (batches.empty() || bytes_in_last + bytes > batch_bytes) {
            batches.emplace_back();
            bytes_in_last = 0;
        }
        batches.back().push_back(test);
        bytes_in_last += bytes;
    }
    return batches;
}

}  // namespace wdl::archive
