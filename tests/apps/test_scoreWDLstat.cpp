#include <fmt/format.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <sstream>

#include "program_runner.hpp"
#include "sanitizer.hpp"
#include "skip.hpp"
#include "test_data.hpp"
#include "wdl/counts/count_file.hpp"
#include "wdl/counts/human_counts.hpp"
#include "wdl/fishtest/run_metadata.hpp"
#include "wdl/pgn/reader.hpp"

namespace fs = std::filesystem;
using namespace wdl::testing;

namespace {

struct ScanCase {
    const char* name;
    std::vector<std::string> arguments;
    long positions;
    long games;
};

// The original scanner's reference cases on the bundled corpus (tests/data/reference/scan/),
// with the figures it printed.
const std::vector<ScanCase> kReferenceCases = {
    {"default", {"--dir", "data", "-r"}, 87993, 798},
    {"binWidth_1", {"--dir", "data", "-r", "--binWidth", "1"}, 87993, 798},
    {"binWidth_10", {"--dir", "data", "-r", "--binWidth", "10"}, 87993, 798},
    {"matchTC_60+0.6", {"--dir", "data", "-r", "--matchTC", "60\\+0.6"}, 38411, 338},
    {"matchThreads_1", {"--dir", "data", "-r", "--matchThreads", "1"}, 70017, 638},
    {"matchBook_UHO_Lichess",
     {"--dir", "data", "-r", "--matchBook", "UHO_Lichess_4852_v..epd"},
     38411,
     338},
    {"matchBookInvert_UHO_Lichess",
     {"--dir", "data", "-r", "--matchBook", "UHO_Lichess_4852_v..epd", "--matchBookInvert"},
     49582,
     460},
    {"SPRTonly", {"--dir", "data", "-r", "--SPRTonly"}, 63479, 578},
    {"EloDiffMax_5", {"--dir", "data", "-r", "--EloDiffMax", "5"}, 20435, 178},
    {"EloDiff_-2_10",
     {"--dir", "data", "-r", "--EloDiffMin", "-2", "--EloDiffMax", "10", "--SPRTonly"},
     20435,
     178},
    {"matchEngine_New", {"--dir", "data", "-r", "--matchEngine", "New-.*"}, 43989, 798},
    {"matchRev_817c898c", {"--dir", "data", "-r", "--matchRev", ".*817c898c.*"}, 8269, 160},
    {"fixFENsource",
     {"--dir", "data", "-r", "--fixFENsource", "data/fens_true_counters.txt"},
     87993,
     798},
    {"updateWDL_filters",
     {"--dir", "data", "-r", "--matchTC", "60\\+0.6", "--matchThreads", "1", "--EloDiffMax", "5",
      "--matchBook", "UHO_Lichess_4852_v..epd"},
     20435,
     178},
    {"file_single",
     {"--file", "data/24-11-05/fada7bd8c58aff62bbd52188/fada7bd8c58aff62bbd52188.pgn.gz"},
     8029,
     80},
    {"matchRev_nameless", {"--dir", "data", "-r", "--matchRev", "817c898c.*"}, 0, 160},
};

nlohmann::json read_counts(const fs::path& path) { return read_count_json(path); }

std::string wrote_line(long positions, long games, const fs::path& output) {
    return "Wrote " + std::to_string(positions) + " scored positions from " +
           std::to_string(games) + " games to " + output.string() + " for analysis.";
}

ProgramRun scan(const std::vector<std::string>& arguments, const fs::path& directory) {
    return run_program("scoreWDLstat", arguments, directory);
}

// A short real game (1-0) with fishtest comments: 4 counted positions.
std::string game(const std::string& result = "1-0", const std::string& extra_tags = "",
                 const std::string& moves = "") {
    std::string movetext = moves.empty() ? "1. e4 {+0.30/10 0.1s} e5 {-0.25/10 0.1s} "
                                           "2. Nf3 {+0.31/10 0.1s} Nc6 {-0.33/10 0.1s} "
                                           "3. Bb5 {book} "
                                         : moves;
    return "[Event \"t\"]\n[White \"New-x\"]\n[Black \"Base-y\"]\n[Result \"" + result + "\"]\n" +
           extra_tags + "\n" + movetext + result + "\n\n";
}

const nlohmann::json kOneGameCounts = {{"('W', 1, 78, 30)", 1},
                                       {"('L', 1, 78, -25)", 1},
                                       {"('W', 2, 78, 30)", 1},
                                       {"('L', 2, 78, -35)", 1}};

nlohmann::json times(const nlohmann::json& counts, int factor) {
    nlohmann::json scaled = counts;
    for (auto& [key, value] : scaled.items()) value = value.get<int>() * factor;
    return scaled;
}

std::string gzip_member(const std::string& text) {
    z_stream stream{};
    REQUIRE(deflateInit2(&stream, 6, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY) == Z_OK);
    std::string out(deflateBound(&stream, text.size()) + 64, '\0');
    stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
    stream.avail_in = static_cast<uInt>(text.size());
    stream.next_out = reinterpret_cast<Bytef*>(out.data());
    stream.avail_out = static_cast<uInt>(out.size());
    REQUIRE(deflate(&stream, Z_FINISH) == Z_STREAM_END);
    out.resize(stream.total_out);
    deflateEnd(&stream);
    return out;
}

std::string gunzip(const fs::path& path) {
    gzFile file = gzopen(path.c_str(), "rb");
    REQUIRE(file);
    std::string text;
    char buffer[65536];
    int read = 0;
    while ((read = gzread(file, buffer, sizeof buffer)) > 0) text.append(buffer, read);
    gzclose(file);
    return text;
}

std::string zstd_frame(const std::string& text) {
    std::string out(ZSTD_compressBound(text.size()), '\0');
    auto size = ZSTD_compress(out.data(), out.size(), text.data(), text.size(), 3);
    REQUIRE_FALSE(ZSTD_isError(size));
    out.resize(size);
    return out;
}

// Splits PGN text into pieces of whole games, about `pieces` of them.
std::vector<std::string> split_games(const std::string& text, int pieces) {
    std::vector<std::string> parts;
    std::size_t start = 0;
    for (int i = 1; i < pieces; ++i) {
        std::size_t cut = wdl::pgn::find_last_game_start(
            std::string_view(text).substr(0, text.size() * i / pieces), start + 1);
        if (cut == std::string::npos) continue;
        parts.push_back(text.substr(start, cut - start));
        start = cut;
    }
    parts.push_back(text.substr(start));
    return parts;
}

}  // namespace

TEST_CASE("scoreWDLstat reproduces the reference counts of every case", "[apps][scan][parity]") {
    fs::path output_dir = fresh_directory("scan_parity");
    // Under a sanitizer each case and mode runs at one thread count, the other one for the other
    // mode: every case, mode and thread count is still checked there, in half the time.
    for (std::size_t case_index = 0; case_index < kReferenceCases.size(); ++case_index) {
        const auto& reference = kReferenceCases[case_index];
        for (std::size_t mode_index : {0, 1}) {
            std::string mode = mode_index == 0 ? "exact" : "legacy";
            for (std::size_t thread_count : {1, 2}) {
                if (wdl::testing::kUnderSanitizer &&
                    (case_index + mode_index) % 2 != thread_count - 1)
                    continue;
                std::string threads = std::to_string(thread_count);
                fs::path output = output_dir / (mode + "_" + reference.name + ".json");
                auto arguments = reference.arguments;
                arguments.insert(arguments.end(), {"--evalParsing", mode, "--concurrency", threads,
                                                   "-o", output.string()});
                auto run = scan(arguments, source_directory());
                INFO(reference.name << " " << mode << " threads " << threads << "\n" << run.output);
                REQUIRE(run.exit_code == 0);
                CHECK_THAT(run.output, Catch::Contains(wrote_line(reference.positions,
                                                                  reference.games, output)));
                CHECK(read_counts(output) == reference_scan_counts(mode + "_" + reference.name));
            }
        }
    }
}

TEST_CASE("plain, multi-member gzip and zstd copies give the same counts", "[apps][scan]") {
    fs::path root = fresh_directory("scan_formats");
    for (std::string format : {"pgn", "pgn.gz", "pgn.zst"}) {
        fs::path corpus = root / format;
        for (const auto& entry : fs::recursive_directory_iterator(corpus_path())) {
            auto relative = fs::relative(entry.path(), corpus_path());
            if (entry.is_directory()) fs::create_directories(corpus / relative);
            if (!entry.is_regular_file()) continue;
            std::string name = entry.path().filename().string();
            if (!name.ends_with(".pgn.gz")) {
                fs::copy_file(entry.path(), corpus / relative);
                continue;
            }
            std::string text = gunzip(entry.path());
            std::string stem = name.substr(0, name.size() - 3);
            fs::path target = corpus / relative.parent_path() /
                              (stem + (format == "pgn"      ? ""
                                       : format == "pgn.gz" ? ".gz"
                                                            : ".zst"));
            std::string content;
            for (const auto& part : split_games(text, 7)) {
                content += format == "pgn"      ? part
                           : format == "pgn.gz" ? gzip_member(part)
                                                : zstd_frame(part);
            }
            write_text_file(target, content);
        }
        fs::path output = root / (format + ".json");
        auto run = scan({"--dir", corpus.string(), "-r", "-o", output.string()}, root);
        INFO(format << "\n" << run.output);
        REQUIRE(run.exit_code == 0);
        CHECK_THAT(run.output, Catch::Contains(wrote_line(87993, 798, output)));
        CHECK(read_counts(output) == reference_scan_counts("exact_default"));
    }
}

TEST_CASE("a truncated gzip keeps its complete games and warns", "[apps][scan][robust]") {
    fs::path dir = fresh_directory("scan_truncated");
    std::string members;
    for (int i = 0; i < 5; ++i) members += gzip_member(game());
    std::string last = gzip_member(game());
    members += last.substr(0, last.size() / 2);
    write_text_file(dir / "t.pgn.gz", members);
    auto run = scan({"--dir", ".", "-o", "out.json"}, dir);
    INFO(run.output);
    CHECK(run.exit_code == 0);
    CHECK(has_line_with(run.output, "Warning", "t.pgn.gz"));
    CHECK(read_counts(dir / "out.json") == times(kOneGameCounts, 5));
}

TEST_CASE("an empty gzip file warns and the other files count", "[apps][scan][robust]") {
    fs::path dir = fresh_directory("scan_empty_gz");
    write_text_file(dir / "a.pgn.gz", "");
    write_text_file(dir / "b.pgn.gz", gzip_member(game() + game()));
    auto run = scan({"--dir", ".", "-o", "out.json"}, dir);
    INFO(run.output);
    CHECK(run.exit_code == 0);
    CHECK(has_line_with(run.output, "Warning", "a.pgn.gz"));
    CHECK(read_counts(dir / "out.json") == times(kOneGameCounts, 2));
}

TEST_CASE("garbage bytes between games lose no game", "[apps][scan][robust]") {
    fs::path dir = fresh_directory("scan_garbage");
    std::string garbage = "\x01\x02\xff junk {unclosed ( (( \x7f\n\n";
    write_text_file(dir / "g.pgn", game() + garbage + game() + std::string("\0\0\xfe", 3) + game());
    auto run = scan({"--dir", ".", "-o", "out.json"}, dir);
    INFO(run.output);
    CHECK(run.exit_code == 0);
    CHECK(read_counts(dir / "out.json") == times(kOneGameCounts, 3));
    CHECK_THAT(run.output, Catch::Contains("from 3 games"));
}

TEST_CASE("an illegal move drops its whole game and names it", "[apps][scan][robust]") {
    fs::path dir = fresh_directory("scan_illegal");
    std::string broken =
        game("1-0", "", "1. e4 {+0.30/10 0.1s} e5 {-0.25/10 0.1s} 2. Ke3 {+0.31/10 0.1s} ");
    write_text_file(dir / "i.pgn", game() + broken + game());
    auto run = scan({"--dir", ".", "-o", "out.json"}, dir);
    INFO(run.output);
    CHECK(run.exit_code == 0);
    CHECK_THAT(run.output, Catch::Contains("i.pgn, game 2") && Catch::Contains("Ke3"));
    CHECK(read_counts(dir / "out.json") == times(kOneGameCounts, 2));
    CHECK_THAT(run.output, Catch::Contains("illegal or unreadable move: 1"));
}

TEST_CASE("a game with result * is not counted", "[apps][scan][robust]") {
    fs::path dir = fresh_directory("scan_star");
    write_text_file(dir / "s.pgn", game("*") + game());
    auto run = scan({"--dir", ".", "-o", "out.json"}, dir);
    CHECK(run.exit_code == 0);
    CHECK(read_counts(dir / "out.json") == kOneGameCounts);
    CHECK_THAT(run.output, Catch::Contains("from 1 games"));
}

TEST_CASE("a bad eval token carries no eval", "[apps][scan][robust]") {
    fs::path dir = fresh_directory("scan_bad_eval");
    write_text_file(dir / "b.pgn",
                    game("1-0", "",
                         "1. e4 {White mates} e5 {-0.25/10 0.1s} 2. Nf3 {+0.31/10 0.1s} "
                         "Nc6 {-0.33/10 0.1s} 3. Bb5 {book} "));
    auto run = scan({"--dir", ".", "-o", "out.json"}, dir);
    CHECK(run.exit_code == 0);
    auto expected = kOneGameCounts;
    expected.erase("('W', 1, 78, 30)");
    CHECK(read_counts(dir / "out.json") == expected);
}

TEST_CASE("a missing file is an error", "[apps][scan][robust]") {
    fs::path dir = fresh_directory("scan_missing");
    auto run = scan({"--file", "nothing.pgn.gz", "-o", "out.json"}, dir);
    CHECK(run.exit_code == 1);
    CHECK_THAT(run.output, Catch::Contains("Error: File not found: nothing.pgn.gz"));
    CHECK_FALSE(fs::exists(dir / "out.json"));
}

TEST_CASE("a directory without games is an error, not a crash", "[apps][scan][robust]") {
    fs::path dir = fresh_directory("scan_no_games");
    write_text_file(dir / "notes.txt", "no games here");
    auto run = scan({"--dir", ".", "-r", "-o", "out.json"}, dir);
    CHECK(run.exit_code == 1);
    CHECK_THAT(run.output, Catch::Contains("Found 0 .pgn(.gz) files in total."));
    CHECK_THAT(run.output, Catch::Contains("Error: no .pgn"));
    auto missing = scan({"--dir", "no_such_dir", "-o", "out.json"}, dir);
    CHECK(missing.exit_code == 1);
    CHECK_THAT(missing.output, Catch::Contains("no_such_dir"));
}

TEST_CASE("an unreadable file is reported and skipped", "[apps][scan][robust]") {
    fs::path dir = fresh_directory("scan_unreadable");
    // A directory named like a game file cannot be read as one, even by root.
    fs::create_directories(dir / "d.pgn");
    auto run = scan({"--file", "d.pgn", "-o", "out.json"}, dir);
    INFO(run.output);
    CHECK(run.exit_code == 1);
    CHECK_THAT(run.output, Catch::Contains("d.pgn"));
    // A dangling link cannot be read by root either: it must be named, the rest counted.
    write_text_file(dir / "good.pgn", game());
    fs::create_symlink(dir / "nowhere.pgn", dir / "dangling.pgn");
    auto with_link = scan({"--dir", ".", "-o", "out.json"}, dir);
    INFO(with_link.output);
    CHECK(with_link.exit_code == 0);
    CHECK(has_line_with(with_link.output, "Warning", "dangling.pgn"));
    CHECK(read_counts(dir / "out.json") == kOneGameCounts);
}

TEST_CASE("a file without read permission is reported and skipped", "[apps][scan][robust]") {
    fs::path dir = fresh_directory("scan_locked");
    write_text_file(dir / "good.pgn", game());
    write_text_file(dir / "locked.pgn", game());
    fs::permissions(dir / "locked.pgn", fs::perms::none);
    // root (CI runs as root) reads files regardless of their permissions: nothing to test.
    if (::access((dir / "locked.pgn").c_str(), R_OK) == 0) {
        skip_test("a mode-000 file is readable here (running as root?)");
        return;
    }
    auto mixed = scan({"--dir", ".", "-o", "out.json"}, dir);
    INFO(mixed.output);
    CHECK(mixed.exit_code == 0);
    CHECK(has_line_with(mixed.output, "Warning", "locked.pgn"));
    CHECK(read_counts(dir / "out.json") == kOneGameCounts);
}

TEST_CASE("one big file split across threads counts like one thread", "[apps][scan]") {
    fs::path dir = fresh_directory("scan_big_file");
    std::string text;
    for (const auto& entry : fs::recursive_directory_iterator(corpus_path()))
        if (entry.path().string().ends_with(".pgn.gz")) text += gunzip(entry.path());
    std::string content;
    for (int copy = 0; copy < 4; ++copy) content += text;
    write_text_file(dir / "big.pgn", content);
    auto one = scan({"--file", "big.pgn", "--concurrency", "1", "-o", "one.json"}, dir);
    auto two = scan({"--file", "big.pgn", "--concurrency", "2", "-o", "two.json"}, dir);
    REQUIRE(one.exit_code == 0);
    REQUIRE(two.exit_code == 0);
    CHECK_THAT(two.output, Catch::Contains("Wrote 351972 scored positions from 3192 games"));
    CHECK(read_counts(dir / "one.json") == read_counts(dir / "two.json"));
    CHECK(read_counts(dir / "one.json") == times(reference_scan_counts("exact_default"), 4));
}

TEST_CASE("an unwritable output path fails before the scan", "[apps][scan][robust]") {
    fs::path dir = fresh_directory("scan_bad_output");
    write_text_file(dir / "g.pgn", game());
    auto run = scan({"--dir", ".", "-o", "no_such_dir/out.json"}, dir);
    INFO(run.output);
    CHECK(run.exit_code == 1);
    // The file asked for, not its temporary name, and why.
    CHECK_THAT(run.output, Catch::Contains("Error: cannot write no_such_dir/out.json: the folder "
                                           "no_such_dir does not exist\n"));
    CHECK_THAT(run.output, !Catch::Contains(".tmp."));
    CHECK_THAT(run.output, !Catch::Contains("Scanning"));
}

TEST_CASE("duplicate files and duplicate tests stop the scan unless allowed", "[apps][scan]") {
    fs::path dir = fresh_directory("scan_duplicates");
    fs::create_directories(dir / "a");
    fs::create_directories(dir / "b");
    write_text_file(dir / "a/t1.pgn", game());
    write_text_file(dir / "a/t1.pgn.gz", gzip_member(game()));
    auto files = scan({"--dir", ".", "-r", "-o", "out.json"}, dir);
    CHECK(files.exit_code == 1);
    CHECK(has_line_with(files.output, "Duplicate", "t1.pgn.gz"));

    fs::remove(dir / "a/t1.pgn.gz");
    write_text_file(dir / "b/t1-2.pgn", game());
    auto tests = scan({"--dir", ".", "-r", "-o", "out.json"}, dir);
    CHECK(tests.exit_code == 1);
    CHECK(has_line_with(tests.output, "Error: Detected a duplicate of test t1", "b"));
    auto allowed = scan({"--dir", ".", "-r", "--allowDuplicates", "-o", "out.json"}, dir);
    CHECK(allowed.exit_code == 0);
    CHECK(has_line_with(allowed.output, "Warning: Detected a duplicate of test t1", "b"));
    CHECK(read_counts(dir / "out.json") == times(kOneGameCounts, 2));
}

TEST_CASE("a FEN missing from --fixFENsource and a bad regex are fatal", "[apps][scan]") {
    fs::path dir = fresh_directory("scan_fatal");
    const std::string fen = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
    write_text_file(dir / "g.pgn",
                    game("1-0", "[FEN \"" + fen + "\"]\n", "1... e5 {-0.25/10 0.1s} "));
    write_text_file(dir / "fens.txt", "8/8/8/8/8/8/8/K6k w - - 3 40\n");
    auto missing = scan({"--file", "g.pgn", "--fixFENsource", "fens.txt", "-o", "out.json"}, dir);
    CHECK(missing.exit_code == 1);
    CHECK(has_line_with(missing.output, "Could not find FEN", "g.pgn"));
    CHECK_FALSE(fs::exists(dir / "out.json"));

    auto regex = scan({"--file", "g.pgn", "--matchEngine", "New-(", "-o", "out.json"}, dir);
    CHECK(regex.exit_code == 1);
    CHECK(has_line_with(regex.output, "invalid regular expression", "--matchEngine"));
}

TEST_CASE("the summary counts games read, accepted and skipped by reason", "[apps][scan]") {
    fs::path dir = fresh_directory("scan_summary");
    std::string broken = game("1-0", "", "1. e4 {+0.30/10 0.1s} e5 {-0.25/10 0.1s} 2. Ke3 ");
    write_text_file(dir / "g.pgn", game() + game("*") +
                                       game("0-1", "[Termination \"abandoned\"]\n") + broken +
                                       game("1/2-1/2"));
    auto run = scan({"--file", "g.pgn", "-o", "out.json"}, dir);
    INFO(run.output);
    CHECK(run.exit_code == 0);
    CHECK_THAT(run.output, Catch::Contains("Games: 5 read, 2 accepted, 3 skipped"));
    CHECK_THAT(run.output, Catch::Contains("no decisive or drawn result: 1"));
    CHECK_THAT(run.output, Catch::Contains("excluded termination: 1"));
    CHECK_THAT(run.output, Catch::Contains("illegal or unreadable move: 1"));
    CHECK_THAT(run.output, Catch::Contains("Positions: 8 counted"));
    CHECK(has_line_with(run.output, "Warning", "g.pgn, game 4"));
}

TEST_CASE("scoreWDLstat --json writes the summary's figures", "[apps][scan][json]") {
    fs::path dir = fresh_directory("scan_summary_json");
    auto run = scan({"--dir", corpus_path().string(), "-r", "-o", (dir / "counts.json").string(),
                     "--json", (dir / "summary.json").string()},
                    dir);
    REQUIRE(run.exit_code == 0);
    auto summary = nlohmann::json::parse(read_text_file(dir / "summary.json"));
    CHECK(summary["games"]["read"] == 800);
    CHECK(summary["games"]["accepted"] == 798);
    CHECK(summary["games"]["skipped"]["excluded termination"] == 1);
    // data/README.md: the excluded termination is a time forfeit; 662 games say adjudication.
    CHECK(summary["games"]["timeForfeits"] == 1);
    CHECK(summary["games"]["adjudicated"] == 662);
    CHECK(summary["positions"] == 87993);
    CHECK(summary["files"]["read"] == 9);
    CHECK(summary["distinctKeys"] == read_counts(dir / "counts.json").size());
    CHECK(summary["output"] == (dir / "counts.json").string());
    CHECK_FALSE(summary.contains("grouping"));
    run = scan({"--dir", corpus_path().string(), "-r", "-o", (dir / "counts.json").string(),
                "--json", (dir / "summary.json").string(), "--groups", "8", "--groupBy", "test"},
               dir);
    REQUIRE(run.exit_code == 0);
    summary = nlohmann::json::parse(read_text_file(dir / "summary.json"));
    CHECK(summary["grouping"] == nlohmann::json{{"groupBy", "test"}, {"groups", 8}});
}

TEST_CASE("scoreWDLstat --json lists the tests read and the filters", "[apps][scan][json]") {
    fs::path dir = fresh_directory("scan_summary_tests");
    auto run =
        scan({"--dir", corpus_path().string(), "-r", "--matchTC", "60\\+0.6", "--EloDiffMax", "50",
              "-o", (dir / "counts.json").string(), "--json", (dir / "summary.json").string()},
             dir);
    REQUIRE(run.exit_code == 0);
    auto summary = nlohmann::json::parse(read_text_file(dir / "summary.json"));
    // The two LTC tests of the corpus, in the order of their metadata files.
    const auto& tests = summary["tests"];
    REQUIRE(tests.size() == 2);
    CHECK(tests[0]["id"] == "716838bf67ed35143299f7d3");
    CHECK(tests[1]["id"] == "1508b764ed7a051de89f949b");
    CHECK(tests[0]["startTime"] == "2024-07-21T11:26:57.000+00:00");
    CHECK(tests[0]["timeControls"] == nlohmann::json{"60+0.6"});
    CHECK(tests[0]["threads"] == 1);
    CHECK(tests[1]["threads"] == 8);
    CHECK(tests[1]["book"] == "UHO_Lichess_4852_v2.epd");
    CHECK(tests[0]["sprt"] == true);
    for (const auto& [index, folder] : {std::pair{0, "24-07-21/716838bf67ed35143299f7d3"},
                                        std::pair{1, "25-04-09/1508b764ed7a051de89f949b"}}) {
        auto id = fs::path(folder).filename().string();
        auto metadata = nlohmann::json::parse(
            read_text_file(corpus_path(std::string(folder) + "/" + id + ".json")));
        CHECK(tests[std::size_t(index)]["resolvedNew"] == metadata["args"]["resolved_new"]);
        auto pentanomial = metadata["results"]["pentanomial"].get<std::array<std::int64_t, 5>>();
        CHECK(tests[std::size_t(index)]["nElo"].get<double>() ==
              Approx(wdl::fishtest::normalized_elo(pentanomial)));
    }
    CHECK(summary["filters"]["matchTC"] == "60\\+0.6");
    CHECK(summary["filters"]["EloDiffMax"] == 50.0);
    CHECK(summary["filters"]["EloDiffMin"].is_null());
    CHECK(summary["filters"]["SPRTonly"] == false);
}

namespace {

// The count maps of a grouped count file, checked against its header.
std::vector<nlohmann::json> group_counts(const fs::path& path, const std::string& group_by,
                                         int groups) {
    auto header = wdl::testing::grouped_file_header(path);
    CHECK(header["format"] == "wdlfit-grouped-counts");
    CHECK(header["version"] == 2);
    CHECK(header["groupBy"] == group_by);
    CHECK(header["groups"] == groups);
    std::vector<nlohmann::json> maps(std::size_t(groups), nlohmann::json::object());
    auto report = wdl::counts::read_grouped_count_file(
        path, [&](int group, const wdl::counts::PositionKey& key, std::int64_t count) {
            maps.at(std::size_t(group))[wdl::counts::format_key(key)] = count;
        });
    CHECK(report.grouping ==
          wdl::counts::Grouping{*wdl::counts::group_by_from_name(group_by), groups});
    return maps;
}

nlohmann::json sum_of(const std::vector<nlohmann::json>& groups) {
    nlohmann::json sum = nlohmann::json::object();
    for (const auto& group : groups)
        for (const auto& [key, count] : group.items())
            sum[key] = sum.value(key, 0) + count.get<long>();
    return sum;
}

}  // namespace

TEST_CASE("grouped counts sum exactly to the plain counts at 1 and 2 threads",
          "[apps][scan][groups]") {
    fs::path dir = fresh_directory("scan_groups");
    auto plain = dir / "plain.json";
    REQUIRE(scan({"--dir", corpus_path().string(), "-r", "-o", plain.string()}, dir).exit_code ==
            0);
    // Without --groups the output stays the original's, byte for byte.
    CHECK(read_text_file(plain) ==
          read_decompressed(test_data_path("reference/scan/exact_default.json.gz")));
    for (auto [group_by, groups] : {std::pair{"game", 64}, std::pair{"test", 16}}) {
        std::string texts[2];
        for (int threads : {1, 2}) {
            CAPTURE(group_by, threads);
            auto output = dir / fmt::format("{}_{}.json", group_by, threads);
            auto run = scan({"--dir", corpus_path().string(), "-r", "-o", output.string(),
                             "--groups", std::to_string(groups), "--groupBy", group_by,
                             "--concurrency", std::to_string(threads)},
                            dir);
            REQUIRE(run.exit_code == 0);
            CHECK_THAT(run.output, Catch::Contains(fmt::format("split into {} groups", groups)));
            auto counts = group_counts(output, group_by, groups);
            CHECK(sum_of(counts) == read_counts(plain));
            std::size_t used = 0;
            for (const auto& group : counts) used += !group.empty();
            // 798 games fill every group; the 6 tests take one group each.
            CHECK(used == (group_by == std::string("game") ? 64u : 6u));
            texts[threads - 1] = read_text_file(output);
        }
        // A game's group depends on its file and place only, not on the threads.
        CHECK(texts[0] == texts[1]);
    }
    fs::remove_all(dir);
}

TEST_CASE("a game's group does not depend on where the corpus lies", "[apps][scan][groups]") {
    fs::path dir = fresh_directory("scan_groups_moved");
    fs::copy(corpus_path(), dir / "moved", fs::copy_options::recursive);
    auto here = dir / "here.json", there = dir / "there.json";
    REQUIRE(
        scan({"--dir", corpus_path().string() + "/", "-r", "-o", here.string(), "--groups", "32"},
             dir)
            .exit_code == 0);
    REQUIRE(
        scan({"--dir", "./moved", "-r", "-o", there.string(), "--groups", "32"}, dir).exit_code ==
        0);
    CHECK(read_text_file(here) == read_text_file(there));
    fs::remove_all(dir);
}

TEST_CASE("scoreWDLstat refuses --groupBy without --groups and groups beyond 1 to 65536",
          "[apps][scan][groups]") {
    fs::path dir = fresh_directory("scan_groups_options");
    for (std::vector<std::string> arguments : {std::vector<std::string>{"--groupBy", "test"},
                                               {"--groups", "0"},
                                               {"--groups", "65537"},
                                               {"--groups", "4", "--groupBy", "engine"}}) {
        arguments.insert(arguments.begin(),
                         {"--dir", corpus_path().string(), "-r", "-o", (dir / "x.json").string()});
        auto run = scan(arguments, dir);
        CAPTURE(run.output);
        CHECK(run.exit_code != 0);
        CHECK_FALSE(fs::exists(dir / "x.json"));
    }
    fs::remove_all(dir);
}

// Training data (docs/training-data.md): chosen by name or --format, counted as the games are.
TEST_CASE("scoreWDLstat counts training data by name or --format, and not mixed with games",
          "[apps][scan][training]") {
    auto dir = fresh_directory("scan_training_data");
    fs::create_directories(dir / "data");
    auto pgn = corpus_path("24-11-05/fada7bd8c58aff62bbd52188/fada7bd8c58aff62bbd52188.pgn.gz");
    fs::copy_file(test_data_path("training/games.binpack"), dir / "data" / "games.binpack");
    fs::copy_file(test_data_path("training/games.plain.gz"), dir / "data" / "games.plain.gz");
    fs::copy_file(pgn, dir / "data" / "games.pgn.gz");
    auto games = run_program_line("scoreWDLstat", "--dir data -o games.json", dir);
    REQUIRE(games.exit_code == 0);
    CHECK_THAT(games.output, Catch::Contains("Found 1 .pgn(.gz) files in total."));
    auto single = read_count_json(dir / "games.json");

    // --format lists that format's files from --dir, and no games.
    auto binpack = run_program_line(
        "scoreWDLstat",
        "--dir data --format binpack --NormalizeToPawnValue 100 -o binpack.json --json "
        "summary.json",
        dir);
    REQUIRE(binpack.exit_code == 0);
    CHECK_THAT(binpack.output, Catch::Contains("Found 1 file of training data in total."));
    CHECK_THAT(binpack.output, Catch::Contains("Converting the data's internal scores to "
                                               "displayed centipawns with NormalizeToPawnValue = "
                                               "100"));
    CHECK_THAT(binpack.output, Catch::Contains("Wrote 8029 scored positions from 1 units of "
                                               "training data to binpack.json for analysis."));
    CHECK(read_count_json(dir / "binpack.json") == single);
    auto summary = nlohmann::json::parse(read_text_file(dir / "summary.json"));
    CHECK(summary["positions"]["counted"] == 8029);
    CHECK(summary["positions"]["without_score"] == 1280);

    // A file's name chooses its format.
    auto plain = run_program_line(
        "scoreWDLstat", "--file data/games.plain.gz --NormalizeToPawnValue 100 -o plain.json", dir);
    REQUIRE(plain.exit_code == 0);
    CHECK(read_count_json(dir / "plain.json") == single);
    auto bullet =
        run_program_line("scoreWDLstat",
                         "--file " + test_data_path("training/games.bullet.txt.gz").string() +
                             " --format bullet --NormalizeToPawnValue 100 -o bullet.json",
                         dir);
    REQUIRE(bullet.exit_code == 0);
    CHECK(read_count_json(dir / "bullet.json") == single);

    write_text_file(dir / "list.txt", "data/games.pgn.gz\ndata/games.binpack\n");
    auto mixed = run_program_line("scoreWDLstat", "--fileList list.txt -o mixed.json", dir);
    CHECK(mixed.exit_code != 0);
    CHECK_THAT(mixed.output, Catch::Contains("a scan reads games or training data, not both"));
    auto normalized_games = run_program_line(
        "scoreWDLstat", "--dir data --NormalizeToPawnValue 328 -o games.json", dir);
    CHECK(normalized_games.exit_code != 0);
    CHECK_THAT(normalized_games.output, Catch::Contains("apply to training data"));
}

// Issue 52: units of one position (bullet's lines, shuffled records) are no games, which a
// jackknife over their groups would take them for: the summary's mean says so, with a warning.
TEST_CASE("scoreWDLstat gives training data's positions per unit and warns when they are no games",
          "[apps][scan][training]") {
    auto dir = fresh_directory("scan_training_units");
    auto plain = run_program_line("scoreWDLstat",
                                  "--file " + test_data_path("training/games.plain.gz").string() +
                                      " --NormalizeToPawnValue 100 -o plain.json",
                                  dir);
    REQUIRE(plain.exit_code == 0);
    CHECK_THAT(plain.output, Catch::Contains("Units: 116.4 positions a counted unit on average."));
    CHECK_THAT(plain.output, !Catch::Contains("they are not games"));
    auto bullet = run_program_line(
        "scoreWDLstat",
        "--file " + test_data_path("training/games.bullet.txt.gz").string() +
            " --format bullet --groups 16 --NormalizeToPawnValue 100 -o bullet.json",
        dir);
    REQUIRE(bullet.exit_code == 0);
    CHECK_THAT(bullet.output, Catch::Contains("Units: 1.0 positions a counted unit on average."));
    // The bullet fixture holds the 8029 scored positions only.
    CHECK_THAT(bullet.output, Catch::Contains("Warning: the 8029 units counted hold 1.00 positions "
                                              "each on average: they are not games"));
    fs::remove_all(dir);
}

TEST_CASE("a damaged binpack block is named with its byte and the others count",
          "[apps][scan][training][robust]") {
    auto dir = fresh_directory("scan_damaged_binpack");
    std::string one = read_decompressed(test_data_path("training/games.binpack"));
    std::string damaged = one + one;
    damaged[one.size() + 8] = char(0xFF);
    damaged[one.size() + 9] = char(0xFF);
    damaged[one.size() + 10] = char(0xFF);
    damaged[one.size() + 11] = char(0xFF);
    damaged[one.size() + 12] = char(0xFF);
    write_text_file(dir / "damaged.binpack", damaged + one.substr(0, 100));
    auto run = run_program_line("scoreWDLstat", "--file damaged.binpack --concurrency 2", dir);
    CHECK(run.exit_code == 0);
    CHECK_THAT(run.output, Catch::Contains("damaged.binpack, block 2: at byte " +
                                           std::to_string(one.size()) + ", "));
    CHECK_THAT(run.output, Catch::Contains("damaged.binpack, block 3: at byte " +
                                           std::to_string(2 * one.size()) +
                                           ", the file ends after 92 of its "));
    CHECK_THAT(run.output, Catch::Contains("Records: 3 read, 2 of them broken; 1 units (blocks, "
                                           "games of records, lines) counted, 2 dropped with a "
                                           "broken record."));
}

TEST_CASE(
    "scoreWDLstat --human writes a human-games count file, its summary naming what it left out",
    "[apps][scan][human]") {
    fs::path dir = fresh_directory("scan_human");
    fs::copy_file(test_data_path("lichess/edge_cases.pgn"), dir / "edge_cases.pgn");
    fs::copy_file(test_data_path("lichess/sample.pgn.zst"), dir / "sample.pgn.zst");
    auto run = scan(
        {"--dir", ".", "--human", "--groups", "4", "--concurrency", "2", "--json", "summary.json"},
        dir);
    INFO(run.output);
    REQUIRE(run.exit_code == 0);
    CHECK(has_line_with(run.output, "Games: 253 read, 228 accepted", "no eval: 1"));
    CHECK(has_line_with(run.output, "Warning", "edge_cases.pgn, game 12"));
    auto counts = wdl::counts::read_human_counts(dir / "scoreWDLstat_human.txt");
    CHECK(counts.groups == 4);
    auto summary = nlohmann::json::parse(read_text_file(dir / "summary.json"));
    CHECK(summary["positions"].get<std::uint64_t>() == counts.total_count());
    CHECK(summary["output"] == "scoreWDLstat_human.txt");
    CHECK(summary["games"]["accepted"] == 228);

    // The plain readers refuse it with a line naming it.
    auto merged = run_program("mergeWDLstat", {"scoreWDLstat_human.txt", "-o", "m.json"}, dir);
    CHECK(merged.exit_code != 0);
    CHECK_THAT(merged.output,
               Catch::Contains("scoreWDLstat_human.txt is a human-games count file"));

    auto refused = scan({"--dir", ".", "--human", "--matchEngine", "x"}, dir);
    CHECK(refused.exit_code == 1);
    CHECK_THAT(refused.output, Catch::Contains("--human reads people's games"));
}

TEST_CASE("scoreWDLstat --human past --memoryLimit writes the same file through runs it removes",
          "[apps][scan][human]") {
    fs::path dir = fresh_directory("scan_human_memory");
    fs::copy_file(test_data_path("lichess/edge_cases.pgn"), dir / "edge_cases.pgn");
    fs::copy_file(test_data_path("lichess/sample.pgn.zst"), dir / "sample.pgn.zst");
    fs::create_directory(dir / "out");
    // 1 MB holds 8192 cells, the games some 16,000 (on 2 threads 4096 each).
    for (const char* groups : {"1", "4"}) {
        INFO("groups " << groups);
        auto whole =
            scan({"--dir", ".", "--human", "--groups", groups, "-o", "out/whole.txt"}, dir);
        REQUIRE(whole.exit_code == 0);
        CHECK_THAT(whole.output, !Catch::Contains("Memory full"));
        auto bounded = scan({"--dir", ".", "--human", "--groups", groups, "--concurrency", "2",
                             "--memoryLimit", "1", "-o", "out/bounded.txt", "--json", "s.json"},
                            dir);
        INFO(bounded.output);
        REQUIRE(bounded.exit_code == 0);
        CHECK(has_line_with(bounded.output, "Memory full: the cells went to", "runs on disk"));
        auto summary = nlohmann::json::parse(read_text_file(dir / "s.json"));
        CHECK(summary["spilledRuns"].get<std::uint64_t>() >= 2);
        CHECK(read_text_file(dir / "out/bounded.txt") == read_text_file(dir / "out/whole.txt"));
        // Nothing left beside the two outputs: the runs' folder is gone.
        CHECK(std::distance(fs::directory_iterator(dir / "out"), fs::directory_iterator()) == 2);
    }

    auto nowhere =
        scan({"--dir", ".", "--human", "--memoryLimit", "1", "-o", "missing/h.txt"}, dir);
    CHECK(nowhere.exit_code == 1);
    CHECK(has_line_with(nowhere.output, "cannot write missing/h.txt", "does not exist"));
    CHECK(nowhere.output.find("cannot write") == nowhere.output.rfind("cannot write"));
    auto zero = scan({"--dir", ".", "--human", "--memoryLimit", "0"}, dir);
    CHECK(zero.exit_code != 0);
    CHECK_THAT(zero.output, Catch::Contains("--memoryLimit") && Catch::Contains("not in [1,"));
    auto plain = scan({"--dir", ".", "--memoryLimit", "100"}, dir);
    CHECK(plain.exit_code != 0);
    CHECK_THAT(plain.output, Catch::Contains("--memoryLimit requires --human"));
}
