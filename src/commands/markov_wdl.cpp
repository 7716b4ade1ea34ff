#include "wdl/commands/markov_wdl.hpp"

#include <fmt/format.h>
#include <re2/re2.h>

#include <charconv>
#include <chrono>
#include <iostream>
#include <utility>

#include "wdl/games/engine_filter.hpp"
#include "wdl/games/engine_pairing.hpp"
#include "wdl/games/game_reading.hpp"
#include "wdl/markov/report.hpp"
#include "wdl/markov/results.hpp"
#include "wdl/model/model_lookup.hpp"
#include "wdl/report/markov_plots.hpp"
#include "wdl/util/atomic_file.hpp"
#include "wdl/util/error.hpp"

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
    // The scheme checks its bounds; the error names the option they came from.
    auto bounds = parse_bounds(options.classes);
    try {
        return markov::ClassScheme::custom(std::move(bounds));
    } catch (const Error& error) {
        throw Error(std::string("--classes ") + options.classes + ": " + error.what());
    }
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
    games::FileFilter filter(options.games.filters);
    auto engine_filter = games::compile_engine_filter(
        games::engine_filter_pattern(options.match_engine, options.games.filters.match_rev));
    auto classes = class_scheme(options);
    markov::AnalysisSettings analysis;
    analysis.per_colour = options.per_colour;
    if (options.model) {
        auto named = model::load_model(*options.model);
        analysis.model.emplace(named.model, std::nullopt,
                               fmt::format("{} ({})", named.name, named.description));
    }
    std::optional<games::FixFenTable> fix_fen;
    if (options.fix_fen_source) fix_fen = games::FixFenTable::load(*options.fix_fen_source);
    std::optional<util::AtomicFile> json_file;
    if (options.json) json_file.emplace(*options.json);
    if (options.plot_dir) {
        std::error_code error;
        fs::create_directories(*options.plot_dir, error);
        if (!fs::is_directory(*options.plot_dir))
            throw Error("cannot create the plot directory " + options.plot_dir->string());
    }

    auto selection = games::select_game_files(options.games, filter, std::cout, std::cerr);
    auto files = games::paired_game_files(selection);

    markov::CollectorSettings settings;
    settings.classes = &classes;
    settings.mode = options.transitions;
    settings.eval_parsing = options.eval_parsing;
    settings.engine_filter = engine_filter.get();
    settings.fix_fen = fix_fen ? &*fix_fen : nullptr;

    std::cout << "Reading " << files.size() << " files with " << options.concurrency << " threads."
              << std::endl;
    auto [collection, seconds] = games::read_with_progress(
        selection.selected,
        [&](games::ReadProgress& progress) {
            return markov::collect_games(files, settings, options.concurrency, {}, &progress);
        },
        std::cerr);
    const auto& collected = collection.games;
    std::cout << games::format_files_line(collection.files);
    std::cout << fmt::format("Speed: {:.2f} s, {:.1f} MB/s of PGN text, {:.0f} games/s.\n", seconds,
                             double(collection.files.text_bytes) / 1e6 / std::max(seconds, 1e-9),
                             double(collected.games_read) / std::max(seconds, 1e-9));
    if (collected.games_accepted == 0)
        throw Error(
            fmt::format("none of the {} games read could be used (see the skipped games "
                        "by reason with --json, or the warnings above)",
                        collected.games_read));
    if (collected.games_accepted == collected.games_without_transitions)
        throw Error(
            "no game has evaluated moves: markovWDL needs engine evals in the move comments "
            "({+0.57/17 0.52s}) or lichess [%eval ...] annotations");

    auto results = markov::analyse(collected, classes, analysis);
    markov::ChainDescription description{classes, options.transitions, options.per_colour};
    std::cout << markov::format_settings(description, results);
    for (const auto& pairing : results.pairings)
        std::cout << markov::format_pairing(pairing, description);
    std::cout << markov::format_summary(results, collected);
    std::cout.flush();
    if (json_file) {
        auto json =
            markov::results_json(description, results, collected, collection.files, seconds);
        json_file->write(json.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n");
        json_file->commit();
        std::cout << "Wrote " << options.json->string() << "." << std::endl;
    }
    if (options.plot_dir) write_plots(*options.plot_dir, classes, results);
}

}  // namespace wdl::commands
