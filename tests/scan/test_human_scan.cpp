#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "program_runner.hpp"
#include "test_data.hpp"
#include "wdl/counts/human_counts.hpp"
#include "wdl/scan/human_scan.hpp"

namespace fs = std::filesystem;
using namespace wdl::scan;
using namespace wdl::counts;
using wdl::games::GameSkipReason;
using wdl::games::HumanSkipReason;

namespace {

HumanScanResult scan_file(const fs::path& file, int threads, std::size_t chunk_bytes = 4 << 20,
                          const GameGrouping* grouping = nullptr,
                          const HumanScanMemory& memory = {}) {
    ScanSettings settings;
    settings.threads = threads;
    settings.reading.chunk_bytes = chunk_bytes;
    settings.rules.grouping = grouping;
    return scan_human_files({file}, settings, memory);
}

fs::path lichess_file(const std::string& name) {
    return wdl::testing::test_data_path("lichess/" + name);
}

std::vector<HumanCell> cells_of(const CountMap& counts) {
    std::vector<HumanCell> cells;
    counts.for_each([&](std::uint64_t packed, std::uint64_t count) {
        cells.push_back(unpack_human_cell(packed, count));
    });
    return cells;
}

// The cells in the writer's order, for comparing two scans.
std::vector<std::tuple<std::uint64_t, std::uint64_t>> sorted_cells(const CountMap& counts) {
    std::vector<std::tuple<std::uint64_t, std::uint64_t>> cells;
    counts.for_each(
        [&](std::uint64_t key, std::uint64_t count) { cells.emplace_back(key, count); });
    std::sort(cells.begin(), cells.end());
    return cells;
}

std::uint64_t human_skipped(const GameTally& tally, HumanSkipReason reason) {
    return tally.human_skipped[std::size_t(reason)];
}
std::uint64_t skipped(const GameTally& tally, GameSkipReason reason) {
    return tally.skipped[std::size_t(reason)];
}

// A key without its material: what can be reckoned from the text alone, without a board.
using TextKey = std::tuple<char, int, int, int, int, SpeedClass>;

std::string tag_of(const std::string& game, const std::string& name) {
    std::string start = "[" + name + " \"";
    std::size_t at = game.find(start);
    if (at == std::string::npos) return "";
    at += start.size();
    return game.substr(at, game.find('"', at) - at);
}

// The keys of the sample's games reckoned from their text in the lichess database's regular
// layout ("12. Nf3 { [%eval 0.3] } 12... Nc6 { [%eval #-3] }"): a game whose Termination is
// "Normal" counts each eval, in the position after its move, for the side then to move.
std::map<TextKey, std::uint64_t> keys_from_text(const std::string& text) {
    std::map<TextKey, std::uint64_t> keys;
    std::size_t start = 0;
    while (start < text.size()) {
        std::size_t end = text.find("\n\n[Event ", start);
        end = end == std::string::npos ? text.size() : end + 2;
        const std::string game = text.substr(start, end - start);
        start = end;
        if (tag_of(game, "Termination") != "Normal") continue;
        const std::string result = tag_of(game, "Result");
        const int white_rating = bin_rating(std::stoi(tag_of(game, "WhiteElo")));
        const int black_rating = bin_rating(std::stoi(tag_of(game, "BlackElo")));
        const SpeedClass speed = *speed_class_of_time_control(tag_of(game, "TimeControl"));
        std::size_t at = game.find("\n\n") + 2;
        int move_number = 0;
        bool white_moved = false;
        while (true) {
            std::size_t number_end = game.find_first_of(". ", at);
            if (number_end == std::string::npos || game[number_end] != '.') break;
            move_number = std::stoi(game.substr(at, number_end - at));
            white_moved = game.compare(number_end, 4, "... ") != 0;
            at = game.find(' ', number_end) + 1;  // the move
            at = game.find(' ', at) + 1;          // its comment, or the next number
            if (game.compare(at, 9, "{ [%eval ") != 0) continue;
            std::size_t value = at + 9;
            std::string token = game.substr(value, game.find(']', value) - value);
            at = game.find("} ", value) + 2;
            // Evals beyond 10 pawns count as 10, as every scan clamps them.
            int white_eval = token[0] == '#' ? (token[1] == '-' ? -kMateEval : kMateEval)
                                             : std::clamp(int(std::lround(std::stod(token) * 100)),
                                                          -kMaxEval, kMaxEval);
            // The side to move after the move, and its view of eval and result.
            const bool white_to_move = !white_moved;
            const int eval = bin_eval(white_to_move ? white_eval : -white_eval, 5);
            char letter = result == "1/2-1/2"                  ? 'D'
                          : (result == "1-0") == white_to_move ? 'W'
                                                               : 'L';
            const int fullmove = white_to_move ? move_number + 1 : move_number;
            const int rating = white_to_move ? white_rating : black_rating;
            const int opponent = white_to_move ? black_rating : white_rating;
            ++keys[TextKey{letter, fullmove, eval, rating, opponent, speed}];
        }
    }
    return keys;
}

std::map<TextKey, std::uint64_t> keys_without_material(const CountMap& counts) {
    std::map<TextKey, std::uint64_t> keys;
    counts.for_each([&](std::uint64_t packed, std::uint64_t count) {
        const HumanCell cell = unpack_human_cell(packed, count);
        const HumanKey& key = cell.key;
        keys[TextKey{outcome_letter(key.position.result), key.position.move, key.position.eval,
                     key.rating, key.opponent_rating, key.speed}] += count;
    });
    return keys;
}

}  // namespace

TEST_CASE("a human game's keys are those of a count by hand", "[scan][human]") {
    // The first game of the edge cases (180+2, with [%clk] beside every [%eval], one before
    // it): 0-1, White 1500 and Black 1711, 8 plies of evals 0.0, 0.12, 0.19, 0.32, 0.17,
    // 0.75, -1.44, 0.14 from White's view after each move; 4. Ng5 Qxg5 took a knight.
    const fs::path file = wdl::testing::scratch_directory() / "wdl_test_human_one_game.pgn";
    {
        std::string text = wdl::testing::read_decompressed(lichess_file("edge_cases.pgn"));
        std::ofstream(file, std::ios::binary) << text.substr(0, text.find("\n\n[Event ") + 2);
    }
    HumanScanResult result = scan_file(file, 1);
    CHECK(result.tally.games_read == 1);
    CHECK(result.tally.games_accepted == 1);
    CHECK(result.tally.positions == 8);
    const SpeedClass blitz = SpeedClass::Blitz;
    // (result, move, material, eval binned by 5, mover's rating, opponent's): Black (1725)
    // to move after White's moves, White (1525) after Black's.
    std::vector<HumanKey> expected = {
        {{Outcome::Win, 1, 78, 0}, 1725, 1525, blitz},
        {{Outcome::Loss, 2, 78, 10}, 1525, 1725, blitz},
        {{Outcome::Win, 2, 78, -20}, 1725, 1525, blitz},
        {{Outcome::Loss, 3, 78, 30}, 1525, 1725, blitz},
        {{Outcome::Win, 3, 78, -15}, 1725, 1525, blitz},
        {{Outcome::Loss, 4, 78, 75}, 1525, 1725, blitz},
        {{Outcome::Win, 4, 78, 145}, 1725, 1525, blitz},
        {{Outcome::Loss, 5, 75, 15}, 1525, 1725, blitz},
    };
    const std::vector<HumanCell> cells = cells_of(result.counts);
    REQUIRE(cells.size() == expected.size());
    for (const HumanKey& key : expected) {
        INFO(format_key(key.position));
        auto found = std::find_if(cells.begin(), cells.end(),
                                  [&](const HumanCell& cell) { return cell.key == key; });
        REQUIRE(found != cells.end());
        CHECK(found->count == 1);
        CHECK(found->group == 0);
    }
}

TEST_CASE("human games are left out by their tags and text, each counted once", "[scan][human]") {
    HumanScanResult result = scan_file(lichess_file("edge_cases.pgn"), 1);
    const GameTally& tally = result.tally;
    CHECK(tally.games_read == 13);
    // 180+2 with clocks, 60+0 and "-": eight positions each.
    CHECK(tally.games_accepted == 3);
    CHECK(tally.positions == 24);
    CHECK(human_skipped(tally, HumanSkipReason::NoEval) == 1);
    CHECK(human_skipped(tally, HumanSkipReason::Variant) == 1);
    CHECK(human_skipped(tally, HumanSkipReason::SetUpPosition) == 1);
    CHECK(human_skipped(tally, HumanSkipReason::Bot) == 1);
    CHECK(human_skipped(tally, HumanSkipReason::Unrated) == 2);  // Casual, and a rating "?"
    CHECK(human_skipped(tally, HumanSkipReason::UnknownTimeControl) == 1);
    CHECK(skipped(tally, GameSkipReason::BadTermination) == 1);
    CHECK(tally.time_forfeits == 1);
    CHECK(skipped(tally, GameSkipReason::IllegalMove) == 1);
    // The last game's last comment is never closed: it runs to the end of the text.
    CHECK(skipped(tally, GameSkipReason::Incomplete) == 1);
    REQUIRE(result.files.warnings.size() == 2);
    CHECK_THAT(result.files.warnings[0],
               Catch::Contains("edge_cases.pgn, game 12") && Catch::Contains("Nf6"));
    CHECK_THAT(result.files.warnings[1],
               Catch::Contains("edge_cases.pgn, game 13") && Catch::Contains("without a result"));

    std::map<SpeedClass, std::uint64_t> by_speed;
    for (const HumanCell& cell : cells_of(result.counts)) by_speed[cell.key.speed] += cell.count;
    CHECK(by_speed == std::map<SpeedClass, std::uint64_t>{{SpeedClass::Bullet, 8},
                                                          {SpeedClass::Blitz, 8},
                                                          {SpeedClass::Correspondence, 8}});
    const std::vector<std::pair<std::string, std::uint64_t>> reasons = skip_reasons(tally);
    CHECK(reasons.front() == std::pair<std::string, std::uint64_t>{"no eval", 1});
    CHECK(reasons.size() == 9);
}

TEST_CASE("the sample of real games counts every eval of every game that ended normally",
          "[scan][human]") {
    const fs::path file = lichess_file("sample.pgn.zst");
    const std::map<TextKey, std::uint64_t> reckoned =
        keys_from_text(wdl::testing::read_decompressed(file));
    std::uint64_t evals = 0;
    for (const auto& [key, count] : reckoned) evals += count;
    REQUIRE(evals > 10000);

    HumanScanResult result = scan_file(file, 1);
    CHECK(result.tally.games_read == 240);
    CHECK(result.tally.games_accepted == 225);
    CHECK(result.tally.time_forfeits == 15);
    CHECK(result.tally.positions == evals);
    CHECK(result.files.warnings.empty());
    CHECK(keys_without_material(result.counts) == reckoned);
}

TEST_CASE("a human scan gives the same counts on 1 and 2 threads", "[scan][human][threads]") {
    const fs::path file = lichess_file("sample.pgn.zst");
    HumanScanResult whole = scan_file(file, 1);
    for (int threads : {1, 2}) {
        INFO("threads " << threads);
        // Chunks of 32 KiB: some 60 of them, read by both threads.
        HumanScanResult chunked = scan_file(file, threads, 32 << 10);
        CHECK(chunked.tally.games_read == whole.tally.games_read);
        CHECK(chunked.tally.positions == whole.tally.positions);
        CHECK(chunked.tally.human_skipped == whole.tally.human_skipped);
        CHECK(chunked.tally.skipped == whole.tally.skipped);
        CHECK(sorted_cells(chunked.counts) == sorted_cells(whole.counts));
    }
}

TEST_CASE("a human scan's groups split the counts of whole games", "[scan][human][threads]") {
    const fs::path file = lichess_file("sample.pgn.zst");
    const int groups = 8;
    Grouping grouping;
    grouping.groups = groups;
    GameGrouping game_grouping(grouping, {file}, file.parent_path(), {file});
    HumanScanResult plain = scan_file(file, 1);
    for (int threads : {1, 2}) {
        INFO("threads " << threads);
        HumanScanResult grouped = scan_file(file, threads, 32 << 10, &game_grouping);
        std::map<std::uint64_t, std::uint64_t> summed;  // the cells with group 0
        std::vector<std::uint64_t> per_group(groups);
        grouped.counts.for_each([&](std::uint64_t packed, std::uint64_t count) {
            HumanCell cell = unpack_human_cell(packed, count);
            REQUIRE(cell.group < groups);
            per_group[std::size_t(cell.group)] += count;
            summed[pack_human_cell(cell.key, 0)] += count;
        });
        std::map<std::uint64_t, std::uint64_t> expected;
        plain.counts.for_each(
            [&](std::uint64_t key, std::uint64_t count) { expected[key] = count; });
        CHECK(summed == expected);
        CHECK(std::count(per_group.begin(), per_group.end(), 0) == 0);
    }
}

namespace {

// The count file a scan writes, as bytes.
std::string written_counts(HumanScanResult& result, int groups, const fs::path& file) {
    wdl::util::AtomicFile output(file);
    write_human_scan(result, groups, output);
    return wdl::testing::read_decompressed(file);
}

// The passes that leave at most `width` of `runs` runs, each merging `width` runs into one.
int passes_to_merge(std::size_t runs, std::size_t width) {
    int passes = 0;
    for (; runs > width; ++passes) runs = (runs + width - 1) / width;
    return passes;
}

std::size_t entries_in(const fs::path& folder) {
    return std::size_t(std::distance(fs::directory_iterator(folder), fs::directory_iterator()));
}

}  // namespace

TEST_CASE("a human scan over its memory budget writes the file of an unbounded scan",
          "[scan][human][threads]") {
    const fs::path dir = wdl::testing::fresh_directory("human_scan_spill");
    const int groups = 4;
    Grouping grouping;
    grouping.groups = groups;
    // Budgets of 500 cells of the sample's 15,857 (some 30 runs), 2 of the edge cases' (a run
    // every game it accepts), in chunks of 16 and 4 KiB. A merge width of 2 merges them in passes.
    struct Case {
        const char* name;
        std::size_t cell_budget, chunk_bytes, least_runs;
    };
    for (const Case& test :
         {Case{"sample.pgn.zst", 500, 16 << 10, 20}, Case{"edge_cases.pgn", 2, 4 << 10, 3}}) {
        const fs::path file = lichess_file(test.name);
        GameGrouping game_grouping(grouping, {file}, file.parent_path(), {file});
        for (const GameGrouping* by_game : {static_cast<const GameGrouping*>(nullptr),
                                            static_cast<const GameGrouping*>(&game_grouping)}) {
            const int file_groups = by_game ? groups : 1;
            HumanScanResult unbounded = scan_file(file, 1, 4 << 20, by_game);
            REQUIRE(unbounded.runs->runs() == 0);
            const std::string expected = written_counts(unbounded, file_groups, dir / "whole.txt");
            for (std::size_t merge_width : {std::size_t{2}, std::size_t{64}}) {
                for (int threads : {1, 2}) {
                    INFO(test.name << ", groups " << file_groups << ", merge width " << merge_width
                                   << ", threads " << threads);
                    HumanScanMemory memory;
                    memory.cell_budget = test.cell_budget;
                    memory.runs_prefix = dir / "runs";
                    memory.merge_width = merge_width;
                    HumanScanResult bounded =
                        scan_file(file, threads, test.chunk_bytes, by_game, memory);
                    const std::size_t runs = bounded.runs->runs();
                    CHECK(runs >= test.least_runs);
                    CHECK(bounded.tally.positions == unbounded.tally.positions);
                    CHECK(written_counts(bounded, file_groups, dir / "bounded.txt") == expected);
                    CHECK(bounded.runs->merge_passes() == passes_to_merge(runs, merge_width));
                    if (merge_width == 64) CHECK(bounded.runs->merge_passes() == 0);
                    // The runs' folder goes with the scan's result.
                    CHECK(entries_in(dir) == 3);
                    bounded = {};
                    CHECK(entries_in(dir) == 2);
                }
            }
        }
    }
}
