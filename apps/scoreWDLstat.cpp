// scoreWDLstat: scans PGN files into counts of (result, move, material, eval) positions.
// Drop-in for the WDL_model scanner: same options, output file and printed lines.
#include <re2/re2.h>

#include <CLI/CLI.hpp>
#include <chrono>
#include <filesystem>
#include <iostream>
#include <thread>

#include "wdl/scan/counts_json.hpp"
#include "wdl/scan/file_selection.hpp"
#include "wdl/scan/fix_fen.hpp"
#include "wdl/scan/scan_report.hpp"
#include "wdl/scan/scanner.hpp"
#include "wdl/scan/test_metadata.hpp"

namespace fs = std::filesystem;
using namespace wdl::scan;

namespace {

struct Options {
    std::string file;
    std::string dir = "./pgns";
    bool recursive = false;
    bool allow_duplicates = false;
    int concurrency = std::max(1, int(std::thread::hardware_concurrency()));
    FileFilters filters;
    std::string match_engine;
    bool match_engine_given = false;
    std::string fix_fen_source;
    int bin_width = 5;
    std::string eval_parsing = "exact";
    std::string output = "scoreWDLstat.json";
};

void add_options(CLI::App& app, Options& options) {
    app.add_option("--file", options.file, "Path to a single .pgn(.gz|.zst) file");
    app.add_option("--dir", options.dir,
                   "Directory with .pgn, .pgn.gz and .pgn.zst files (default: ./pgns)");
    app.add_flag("-r", options.recursive, "Search the directory recursively");
    app.add_flag("--allowDuplicates", options.allow_duplicates,
                 "Warn instead of stopping when one test id appears in two directories");
    app.add_option("--concurrency", options.concurrency,
                   "Number of threads (default: all cores); one big file is split across "
                   "threads too")
        ->check(CLI::PositiveNumber);
    app.add_option("--matchRev", options.filters.match_rev,
                   "Keep tests whose resolved_base or resolved_new matches this regex; also "
                   "the default for --matchEngine");
    app.add_option("--matchEngine", options.match_engine,
                   "Count only the moves of the engine(s) whose White/Black name matches this "
                   "regex")
        ->each([&](const std::string&) { options.match_engine_given = true; });
    app.add_option("--matchTC", options.filters.match_tc,
                   "Keep tests whose tc matches this regex (and equals new_tc)");
    app.add_option("--matchThreads", options.filters.match_threads,
                   "Keep tests that used this number of threads");
    app.add_option("--matchBook", options.filters.match_book,
                   "Keep tests whose book name matches this regex");
    app.add_flag("--matchBookInvert", options.filters.match_book_invert,
                 "Invert --matchBook (tests without a book are still dropped)");
    app.add_option("--EloDiffMax", options.filters.elo_diff_max,
                   "Keep tests whose normalized Elo (from the pentanomial) is at most X");
    app.add_option("--EloDiffMin", options.filters.elo_diff_min,
                   "Keep tests whose normalized Elo is at least Y (default: -X)");
    app.add_flag("--SPRTonly", options.filters.sprt_only, "Keep only SPRT tests");
    app.add_option("--fixFENsource", options.fix_fen_source,
                   "File of FENs with their true move counters (plain or .gz): restores the "
                   "counters that match runners reset to '0 1'");
    app.add_option("--binWidth", options.bin_width,
                   "Round evals to multiples of this many centipawns (default: 5)")
        ->check(CLI::PositiveNumber);
    app.add_option("--evalParsing", options.eval_parsing,
                   "exact: centipawns from the decimal digits (default); legacy: the original "
                   "scanner's float arithmetic, for byte-for-byte comparisons")
        ->check(CLI::IsMember({"exact", "legacy"}));
    app.add_option("-o", options.output, "Output JSON file (default: scoreWDLstat.json)");
}

std::vector<fs::path> find_input_files(const Options& options) {
    if (!options.file.empty()) {
        if (!fs::exists(options.file))
            throw std::runtime_error("Error: File not found: " + options.file);
        return {options.file};
    }
    std::cout << "Looking " << (options.recursive ? "(recursively) " : "") << "for pgn files in "
              << options.dir << std::endl;
    auto files = list_game_files(options.dir, options.recursive);
    if (auto duplicate = find_duplicate_files(files)) {
        throw std::runtime_error("Error: \"Duplicate\" files: " + duplicate->first.string() +
                                 " and " + duplicate->second.string());
    }
    return files;
}

void check_duplicate_tests(const std::vector<fs::path>& files, bool allow_duplicates) {
    for (const auto& message : find_duplicate_tests(files)) {
        std::cout << (allow_duplicates ? "Warning: " : "Error: ") << message << std::endl;
        if (!allow_duplicates) {
            throw std::runtime_error("Use --allowDuplicates to continue nonetheless.");
        }
    }
}

std::uint64_t total_size(const std::vector<fs::path>& files) {
    std::uint64_t bytes = 0;
    for (const auto& file : files) {
        std::error_code ignored;
        auto size = fs::file_size(file, ignored);
        if (!ignored) bytes += size;
    }
    return bytes;
}

int run(const Options& options) {
    auto files = find_input_files(options);
    std::cout << "Found " << files.size() << " .pgn(.gz) files in total." << std::endl;
    if (files.empty()) {
        std::cerr << "Error: no .pgn, .pgn.gz or .pgn.zst files in " << options.dir
                  << (options.recursive ? "" : " (use -r to search subdirectories)") << std::endl;
        return 1;
    }
    check_duplicate_tests(files, options.allow_duplicates);

    validate_filters(options.filters);
    std::vector<std::string> metadata_warnings;
    auto metadata = load_metadata(files, metadata_warnings);
    for (const auto& warning : metadata_warnings) std::cerr << warning << std::endl;
    files = apply_filters(std::move(files), metadata, options.filters, std::cout);

    std::string engine_pattern =
        options.match_engine_given ? options.match_engine : options.filters.match_rev;
    std::optional<RE2> engine_filter;
    if (!engine_pattern.empty()) {
        engine_filter.emplace(engine_pattern, RE2::Quiet);
        if (!engine_filter->ok())
            throw std::runtime_error("Error: invalid regular expression for --matchEngine \"" +
                                     engine_pattern + "\": " + engine_filter->error());
    }
    std::optional<FixFenTable> fix_fen;
    if (!options.fix_fen_source.empty()) fix_fen = FixFenTable::load(options.fix_fen_source);

    ScanSettings settings;
    settings.threads = options.concurrency;
    settings.rules.bin_width = options.bin_width;
    settings.rules.eval_parsing =
        options.eval_parsing == "legacy" ? EvalParsing::Legacy : EvalParsing::Exact;
    settings.rules.engine_filter = engine_filter ? &*engine_filter : nullptr;
    settings.rules.fix_fen = fix_fen ? &*fix_fen : nullptr;

    // Opened now so that an unwritable output path fails before a long scan, not after it.
    wdl::util::AtomicFile output(options.output);
    std::cout << "Scanning " << files.size() << " files with " << settings.threads << " threads."
              << std::endl;
    ScanProgress progress;
    auto start = std::chrono::steady_clock::now();
    ScanResult result;
    {
        ProgressLine progress_line(progress, files.size(), total_size(files));
        result = scan_files(files, settings, &progress);
    }
    std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start;

    for (const auto& warning : result.warnings) std::cerr << warning << std::endl;
    if (!files.empty() && result.files_unreadable == files.size()) {
        std::cerr << "Error: none of the " << files.size() << " files could be read." << std::endl;
        return 1;
    }
    std::cout << "Time taken: " << elapsed.count() << "s" << std::endl;
    std::cout << format_scan_summary(result, elapsed.count());
    write_counts_json(result.counts, output);
    std::cout << "Wrote " << result.tally.positions << " scored positions from "
              << result.tally.games_accepted << " games to " << options.output << " for analysis."
              << std::endl;
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    CLI::App app{
        "Scan fishtest/cutechess/fastchess/OpenBench PGN files into counts of positions keyed "
        "by (result, move, material, eval), the input of scoreWDL."};
    Options options;
    add_options(app, options);
    CLI11_PARSE(app, argc, argv);
    try {
        return run(options);
    } catch (const std::exception& error) {
        std::cout << std::flush;
        std::cerr << error.what() << std::endl;
        return 1;
    }
}
