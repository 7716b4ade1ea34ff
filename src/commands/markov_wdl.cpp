#include "wdl/commands/markov_wdl.hpp"

#include <fmt/format.h>
#include <re2/re2.h>

#include <charconv>
#include <chrono>
#include <iostream>

#include "wdl/fishtest/layout.hpp"
#include "wdl/fishtest/run_metadata.hpp"
#include "wdl/markov/report.hpp"
#include "wdl/markov/results.hpp"
#include "wdl/model/model_lookup.hpp"
#include "wdl/report/markov_plots.hpp"
#include "wdl/scan/game_counter.hpp"
#include "wdl/scan/scan_report.hpp"
#include "wdl/util/atomic_file.hpp"
#include "wdl/util/error.hpp"
#include "wdl/util/progress_line.hpp"

namespace wdl::commands {
namespace {

namespace fs = std::filesystem;

std::vector<double> parse_bounds(const std::string& text) {
    std::vector<double> bounds;
    std::size_t start = 0;
    while (start <= text.size()) {
        std::size_t end = std::min(text.find(',', start), text.size());
        std::string item = text.substr(start, end - start);
        double value = 0;
        auto [rest, error] = std::from_chars(item.data(), item.data() + item.size(), value);
        if (item.empty() || error != std::errc() || rest != item.data() + item.size())
            throw Error("--classes " + text +
                        ": expected log19, linear10, model or bounds in pawns such as "
                        "0,0.25,0.5,1,2");
        bounds.push_back(value);
        start = end + 1;
    }
    return bounds;
}

markov::ClassScheme class_scheme(const MarkovWdlOptions& options) {
    if (options.classes == "log19") return markov::ClassScheme::log19();
    if (options.classes == "linear10") return markov::ClassScheme::linear10();
    if (options.classes == "model") {
        auto named = model::load_model(options.class_model);
        return markov::ClassScheme::equal_score(named.model, named.name, options.class_count);
    }
    return markov::ClassScheme::custom(parse_bounds(options.classes));
}

// The files with what their tests' metadata says about the pairing.
std::vector<markov::GameFileInfo> selected_files(const MarkovWdlOptions& options,
                                                 const scan::FileFilter& filter) {
    auto files = scan::find_game_files(options.source, std::cout);
    std::cout << "Found " << files.size() << " .pgn(.gz) files in total." << std::endl;
    std::vector<std::string> warnings;
    auto metadata = fishtest::load_metadata(files, warnings);
    for (const auto& warning : warnings) std::cerr << warning << std::endl;
    files = filter.apply(std::move(files), metadata, std::cout);
    std::vector<markov::GameFileInfo> infos;
    for (const auto& file : files) {
        markov::GameFileInfo info{file, {}, {}, {}};
        auto run = metadata.find(fishtest::metadata_file_of(file));
        if (run != metadata.end()) {
            info.test = fishtest::test_id_of(file);
            if (run->second.resolved_new) info.new_name = "New-" + *run->second.resolved_new;
            if (run->second.resolved_base) info.base_name = "Base-" + *run->second.resolved_base;
        }
        infos.push_back(std::move(info));
    }
    return infos;
}

// A name usable in a file name: letters, digits, '-' and '.'; the rest becomes '_'.
std::string file_stem(const markov::PairingResult& pairing) {
    std::string text = pairing.test.empty()
                           ? pairing.names[markov::kNew] + "_vs_" + pairing.names[markov::kBase]
                           : pairing.test;
    for (char& c : text)
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '.') c = '_';
    return text.substr(0, 100);
}

std::vector<std::vector<double>> rows_of(const markov::Matrix& matrix) {
    std::vector<std::vector<double>> rows(std::size_t(matrix.size()));
    for (int i = 0; i < matrix.size(); ++i)
        for (int j = 0; j < matrix.size(); ++j) rows[std::size_t(i)].push_back(matrix.at(i, j));
    return rows;
}

std::vector<std::string> class_labels(const markov::ClassScheme& classes) {
    std::vector<std::string> labels;
    for (int i = 0; i < classes.size(); ++i) labels.push_back(classes.label(i));
    return labels;
}

void write_plots(const fs::path& directory, const markov::ClassScheme& classes,
                 const markov::MarkovResults& results) {
    auto labels = class_labels(classes);
    report::PredictionPlot predictions;
    std::size_t pairing_plots = 0;
    for (const auto& pairing : results.pairings) {
        if (!pairing.evaluated) continue;
        std::string title = pairing.test.empty() ? pairing.names[0] + " vs " + pairing.names[1]
                                                 : "Test " + pairing.test;
        report::MatrixHeatmaps heatmaps{title + ": transition matrices (colours pooled)",
                                        labels,
                                        {"New", "Base"},
                                        {rows_of(pairing.chains[0].as_white.probabilities),
                                         rows_of(pairing.chains[1].as_white.probabilities)}};
        report::write_matrix_heatmaps(heatmaps, directory / (file_stem(pairing) + "_matrices.png"));
        report::ClassProfiles profiles{
            title + ": moves and drops by class", labels, {"New", "Base"}, {}, {}};
        for (int role = 0; role < 2; ++role) {
            double moves = 0;
            for (auto count : pairing.occupancy[role]) moves += double(count);
            for (int i = 0; i < classes.size(); ++i) {
                const auto& drops = pairing.conformance[role].by_class[std::size_t(i)];
                profiles.occupancy[role].push_back(
                    moves > 0 ? double(pairing.occupancy[role][std::size_t(i)]) / moves : 0);
                profiles.mean_drop[role].push_back(drops.moves > 0 ? double(drops.positive_sum) /
                                                                         double(drops.moves) / 100
                                                                   : std::nan(""));
            }
        }
        report::write_class_profiles(profiles, directory / (file_stem(pairing) + "_classes.png"));
        pairing_plots += 2;
        predictions.pairings.push_back(
            {pairing.actual.score, pairing.actual.standard_error,
             pairing.stationary.overall.score(),
             pairing.model ? std::optional(pairing.model->overall.score()) : std::nullopt,
             std::nullopt});
        for (const auto& row : pairing.crossfit)
            predictions.crossfit.push_back({row.held_out.score, row.held_out.standard_error,
                                            row.stationary, row.model, row.baseline});
    }
    report::write_prediction_plot(predictions, directory / "predictions.png");
    std::cout << fmt::format("Saved {} plots to {}.\n", pairing_plots + 1, directory.string());
}

}  // namespace

void markov_wdl(const MarkovWdlOptions& options) {
    // Everything a user can get wrong is checked before the games are read.
    scan::FileFilter filter(options.filters);
    auto engine_filter = scan::compile_engine_filter(
        scan::engine_filter_pattern(options.match_engine, options.filters.match_rev));
    auto classes = class_scheme(options);
    markov::AnalysisSettings analysis;
    analysis.per_colour = options.per_colour;
    if (options.model) {
        auto named = model::load_model(*options.model);
        analysis.model.emplace(named.model, std::nullopt,
                               fmt::format("{} ({})", named.name, named.description));
    }
    std::optional<scan::FixFenTable> fix_fen;
    if (options.fix_fen_source) fix_fen = scan::FixFenTable::load(*options.fix_fen_source);
    std::optional<util::AtomicFile> json_file;
    if (options.json) json_file.emplace(*options.json);
    if (options.plot_dir) {
        std::error_code error;
        fs::create_directories(*options.plot_dir, error);
        if (!fs::is_directory(*options.plot_dir))
            throw Error("cannot create the plot directory " + options.plot_dir->string());
    }

    auto files = selected_files(options, filter);
    if (files.empty() && !options.source.file)
        throw Error(
            "no .pgn, .pgn.gz or .pgn.zst files to read" +
            std::string(options.source.recursive ? "" : " (use -r to search subdirectories)"));

    markov::CollectorSettings settings;
    settings.classes = &classes;
    settings.mode = options.transitions;
    settings.eval_parsing = options.eval_parsing;
    settings.engine_filter = engine_filter.get();
    settings.fix_fen = fix_fen ? &*fix_fen : nullptr;

    std::cout << "Reading " << files.size() << " files with " << options.concurrency << " threads."
              << std::endl;
    scan::ReadProgress progress;
    auto start = std::chrono::steady_clock::now();
    markov::Collection collection;
    {
        std::vector<fs::path> paths;
        for (const auto& file : files) paths.push_back(file.path);
        std::uint64_t bytes = scan::total_file_bytes(paths);
        util::ProgressTicker ticker([&](double seconds) {
            return scan::describe_progress(progress, files.size(), bytes, seconds);
        });
        collection = markov::collect_games(files, settings, options.concurrency, {}, &progress);
    }
    std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start;
    for (const auto& warning : collection.files.warnings) std::cerr << warning << std::endl;
    const auto& games = collection.games;
    if (!files.empty() && collection.files.files_unreadable == files.size())
        throw Error("none of the " + std::to_string(files.size()) + " files could be read.");
    std::cout << scan::format_files_line(collection.files);
    std::cout << fmt::format(
        "Speed: {:.2f} s, {:.1f} MB/s of PGN text, {:.0f} games/s.\n", elapsed.count(),
        double(collection.files.text_bytes) / 1e6 / std::max(elapsed.count(), 1e-9),
        double(games.games_read) / std::max(elapsed.count(), 1e-9));
    if (games.games_accepted == 0)
        throw Error(
            fmt::format("none of the {} games read could be used (see the skipped games "
                        "by reason with --json, or the warnings above)",
                        games.games_read));
    if (games.games_accepted == games.games_without_transitions)
        throw Error(
            "no game has evaluated moves: markovWDL needs engine evals in the move comments "
            "({+0.57/17 0.52s}) or lichess [%eval ...] annotations");

    auto results = markov::analyse(games, classes, analysis);
    markov::ChainDescription description{classes, options.transitions, options.per_colour};
    std::cout << markov::format_settings(description, results);
    for (const auto& pairing : results.pairings)
        std::cout << markov::format_pairing(pairing, description);
    std::cout << markov::format_summary(results, games);
    std::cout.flush();
    if (json_file) {
        auto json =
            markov::results_json(description, results, games, collection.files, elapsed.count());
        json_file->write(json.dump(2) + "\n");
        json_file->commit();
        std::cout << "Wrote " << options.json->string() << "." << std::endl;
    }
    if (options.plot_dir) write_plots(*options.plot_dir, classes, results);
}

}  // namespace wdl::commands
