#include <re2/re2.h>

#include <catch2/catch.hpp>
#include <fstream>
#include <map>
#include <set>
#include <tuple>

#include "test_data.hpp"
#include "wdl/games/file_selection.hpp"
#include "wdl/scale/paired_counter.hpp"
#include "wdl/scan/scanner.hpp"

using namespace wdl;

namespace {

constexpr int kGroups = 16;

std::vector<games::PairedGameFile> corpus_files() {
    std::vector<games::PairedGameFile> files;
    for (const auto& path : games::list_game_files(testing::corpus_path(), true))
        files.push_back({path, path.parent_path().filename().string(), {}, {}});
    return files;
}

std::vector<std::filesystem::path> paths_of(const std::vector<games::PairedGameFile>& files) {
    std::vector<std::filesystem::path> paths;
    for (const auto& file : files) paths.push_back(file.path);
    return paths;
}

using GroupedKeys = std::map<std::pair<std::uint64_t, int>, std::uint64_t>;

// The scanner's counts of the moves of the engines the pattern names, by key and game group.
GroupedKeys scanned(const std::vector<std::filesystem::path>& paths,
                    const scan::GameGrouping& grouping, const std::string& pattern) {
    RE2 engine(pattern);
    scan::ScanSettings settings;
    settings.rules.engine_filter = &engine;
    settings.rules.grouping = &grouping;
    auto result = scan::scan_files(paths, settings);
    GroupedKeys keys;
    result.counts.grouped->for_each([&](std::uint64_t key, int group, std::uint64_t count) {
        keys[{key, group}] += count;
    });
    return keys;
}

// One role's counts of all pairings, by key and game group.
GroupedKeys role_counts(const scale::PairedCollection& collection, games::Role role) {
    GroupedKeys keys;
    for (const auto& [name, pairing] : collection.pairings) {
        const int game_groups = pairing.game_groups;  // clang 14 cannot capture a binding
        pairing.counts.for_each([&](std::uint64_t key, int group, std::uint64_t count) {
            if (group / game_groups == int(role)) keys[{key, group % game_groups}] += count;
        });
    }
    return keys;
}

}  // namespace

TEST_CASE("each engine's counts are the scanner's counts of its moves, in the same game groups",
          "[scale][counter]") {
    auto files = corpus_files();
    auto paths = paths_of(files);
    scan::GameGrouping grouping({counts::GroupBy::Game, kGroups}, paths, testing::corpus_path(),
                                paths);
    auto new_moves = scanned(paths, grouping, "New-.*");
    auto base_moves = scanned(paths, grouping, "Base-.*");
    REQUIRE(new_moves.size() > 1000);
    scale::PairedCountingRules rules;
    rules.grouping = &grouping;
    for (int threads : {1, 2}) {
        CAPTURE(threads);
        auto collection = scale::count_pairings(files, rules, threads);
        CHECK(collection.pairings.size() == 6);  // the corpus' six tests
        CHECK(collection.tally.games_read == 800);
        CHECK(collection.tally.games_accepted == 798);  // as the original scanner's
        CHECK(role_counts(collection, games::kNew) == new_moves);
        CHECK(role_counts(collection, games::kBase) == base_moves);
        for (const auto& [name, pairing] : collection.pairings) {
            CHECK(pairing.names[games::kNew].starts_with("New-"));
            CHECK(pairing.names[games::kBase].starts_with("Base-"));
        }
    }
}

TEST_CASE("games of engines without fishtest names take the roles of their names' order",
          "[scale][counter]") {
    auto folder = std::filesystem::temp_directory_path() / "wdl_test_scale_names";
    std::filesystem::create_directories(folder);
    auto file = folder / "games.pgn";
    {
        std::ofstream out(file);
        for (int game = 0; game < 2; ++game) {
            bool alpha_white = game == 0;
            out << "[White \"" << (alpha_white ? "Alpha" : "Beta") << "\"]\n"
                << "[Black \"" << (alpha_white ? "Beta" : "Alpha") << "\"]\n"
                << "[Result \"1/2-1/2\"]\n\n"
                << "1. e4 {+0.30/10} e5 {-0.20/10} 2. Nf3 {+0.25/10} Nc6 {-0.15/10} 1/2-1/2\n\n";
        }
        out << "[White \"Alpha\"]\n[Black \"Alpha\"]\n[Result \"1-0\"]\n\n1. e4 {+0.30/10} 1-0\n\n";
    }
    std::vector<games::PairedGameFile> files{{file, {}, {}, {}}};
    scan::GameGrouping grouping({counts::GroupBy::Game, 4}, {file}, folder, {file});
    scale::PairedCountingRules rules;
    rules.grouping = &grouping;
    auto collection = scale::count_pairings(files, rules, 1);
    REQUIRE(collection.pairings.size() == 1);
    const auto& pairing = collection.pairings.begin()->second;
    CHECK(pairing.names[games::kNew] == "Alpha");
    CHECK(pairing.names[games::kBase] == "Beta");
    CHECK(pairing.games == 2);
    // Alpha's evals: +0.30 and +0.25 as White, -0.20 and -0.15 as Black.
    CHECK(pairing.positions[games::kNew] == 4);
    CHECK(pairing.positions[games::kBase] == 4);
    std::multiset<int> alpha_evals;
    pairing.counts.for_each([&](std::uint64_t key, int group, std::uint64_t count) {
        if (group / pairing.game_groups == games::kNew)
            for (std::uint64_t i = 0; i < count; ++i)
                alpha_evals.insert(counts::unpack_key(key).eval);
    });
    CHECK(alpha_evals == std::multiset<int>{-20, -15, 25, 30});
    CHECK(collection.tally.skipped.at("players not two different engines") == 1);
    std::filesystem::remove_all(folder);
}
