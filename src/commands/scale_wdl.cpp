#include "wdl/commands/scale_wdl.hpp"

#include <fmt/format.h>
#include <re2/re2.h>

#include <iostream>
#include <map>

#include "wdl/games/engine_filter.hpp"
#include "wdl/games/engine_pairing.hpp"
#include "wdl/games/reading_report.hpp"
#include "wdl/report/scale_plot.hpp"
#include "wdl/scale/paired_counter.hpp"
#include "wdl/scale/scale_comparison.hpp"
#include "wdl/scale/scale_report.hpp"
#include "wdl/scan/game_grouping.hpp"
#include "wdl/util/atomic_file.hpp"
#include "wdl/util/error.hpp"

namespace wdl::commands {
namespace {

// The pairings compared: each on its own, then the pooled sets the option asks for (a set of
// one pairing is not repeated).
struct ComparedSet {
    std::string name;
    std::vector<const scale::PairingCounts*> pairings;
    bool pooled = false;
};

std::string pairing_name(const scale::PairingCounts& pairing) {
    return pairing.test.empty() ? pairing.names[0] + " vs " + pairing.names[1]
                                : "Test " + pairing.test;
}

std::vector<ComparedSet> compared_sets(const scale::PairedCollection& collection, Pooling pooling) {
    std::vector<ComparedSet> sets;
    std::map<std::pair<std::string, std::string>, std::vector<const scale::PairingCounts*>> pairs;
    std::vector<const scale::PairingCounts*> all;
    for (const auto& [key, pairing] : collection.pairings) {
        if (pairing.games == 0) continue;
        sets.push_back({pairing_name(pairing), {&pairing}, false});
        pairs[{pairing.names[0], pairing.names[1]}].push_back(&pairing);
        all.push_back(&pairing);
    }
    if (pooling == Pooling::Pair) {
        for (auto& [names, pairings] : pairs)
            if (pairings.size() > 1)
                sets.push_back({fmt::format("Pooled: {} tests of {} vs {}", pairings.size(),
                                            names.first, names.second),
                                pairings, true});
    } else if (pooling == Pooling::All && all.size() > 1) {
        sets.push_back({fmt::format("Pooled: all {} pairings", all.size()), all, true});
    }
    return sets;
}

std::string summary_text(const scale::PairedCollection& collection) {
    std::string text = fmt::format("Games: {} read, {} accepted", collection.tally.games_read,
                                   collection.tally.games_accepted);
    for (const auto& [reason, count] : collection.tally.skipped)
        text += fmt::format(", {} skipped ({})", count, reason);
    text += fmt::format("; {} pairings.\n", collection.pairings.size());
    if (collection.tally.annotator_evals > 0)
        text += fmt::format(
            "{} evals of an annotator ([%eval]) were not counted: scaleWDL compares the players' "
            "own evals.\n",
            collection.tally.annotator_evals);
    return text;
}

std::optional<report::RatioInterval> interval_of(const fit::ResampledEstimate& figure) {
    return report::RatioInterval{figure.estimate, figure.low, figure.high};
}

report::ScalePlot scale_plot(const std::vector<ComparedSet>& sets,
                             const std::vector<scale::ScaleComparison>& comparisons,
                             double confidence) {
    report::ScalePlot plot;
    plot.title = "Eval scale of New against Base, fitted on each engine's own moves";
    plot.confidence = confidence;
    for (std::size_t i = 0; i < sets.size(); ++i) {
        const auto& comparison = comparisons[i];
        report::ScaleRow row;
        row.label = sets[i].pooled ? fmt::format("pooled ({})", comparison.tests.size())
                                   : comparison.tests.front().substr(0, 24);
        row.pooled = sets[i].pooled;
        if (!comparison.figures.empty()) row.scale = interval_of(comparison.figures.front().paired);
        for (int role = 0; role < 2; ++role)
            if (comparison.asymmetry[role] && comparison.asymmetry[role]->ratio)
                row.asymmetry[role] = interval_of(*comparison.asymmetry[role]->ratio);
        plot.rows.push_back(std::move(row));
    }
    return plot;
}

}  // namespace

void scale_wdl(const ScaleWdlOptions& options) {
    // Everything a user can get wrong is checked before the games are read.
    games::FileFilter filter(options.games.filters);
    auto engine_filter = games::compile_engine_filter(
        games::engine_filter_pattern(options.match_engine, options.games.filters.match_rev));
    auto normalization =
        model::Normalization::from_options(options.normalize_to_pawn_value, options.normalize_data);
    std::optional<games::FixFenTable> fix_fen;
    if (options.fix_fen_source) fix_fen = games::FixFenTable::load(*options.fix_fen_source);
    std::optional<util::AtomicFile> json_file;
    if (options.json) json_file.emplace(*options.json);

    auto selection = games::select_game_files(options.games, filter, std::cout, std::cerr);
    auto files = games::paired_game_files(selection);
    scan::GameGrouping grouping({counts::GroupBy::Game, options.groups}, selection.selected,
                                scan::grouping_base(options.games.source), selection.found);
    scale::PairedCountingRules rules;
    rules.eval_parsing = options.eval_parsing;
    rules.bin_width = options.bin_width;
    rules.engine_filter = engine_filter.get();
    rules.fix_fen = fix_fen ? &*fix_fen : nullptr;
    rules.grouping = &grouping;

    std::cout << "Reading " << files.size() << " files with " << options.concurrency << " threads."
              << std::endl;
    auto [collection, seconds] = games::read_with_progress(
        selection.selected,
        [&](games::ReadProgress& progress) {
            return scale::count_pairings(files, rules, options.concurrency, &progress);
        },
        std::cerr);
    std::cout << games::format_files_line(collection.files);
    std::cout << summary_text(collection);
    if (collection.tally.games_accepted == 0)
        throw Error(fmt::format("none of the {} games read could be used (see the warnings above)",
                                collection.tally.games_read));

    auto scale_options =
        scale::scale_options_for(options.filter, options.mom_target, options.a_form, options.b_form,
                                 normalization, options.confidence, options.concurrency);
    scale_options.asymmetry = options.asymmetry;
    scale_options.folds = options.folds;

    std::cout << scale::format_method(options.groups, options.confidence, options.asymmetry,
                                      options.folds);
    auto sets = compared_sets(collection, options.pool);
    std::vector<scale::ScaleComparison> comparisons;
    for (const auto& set : sets) {
        comparisons.push_back(
            scale::compare_scales(set.name, set.pairings, normalization, scale_options));
        std::cout << scale::format_comparison(comparisons.back(), options.confidence);
        std::cout.flush();
    }
    if (json_file) {
        nlohmann::ordered_json json;
        json["method"] = scale::format_method(options.groups, options.confidence, options.asymmetry,
                                              options.folds);
        json["files"] = games::files_json(collection.files);
        json["gamesRead"] = collection.tally.games_read;
        json["gamesAccepted"] = collection.tally.games_accepted;
        json["skipped"] = collection.tally.skipped;
        json["groups"] = options.groups;
        json["confidence"] = options.confidence;
        json["comparisons"] = nlohmann::ordered_json::array();
        for (std::size_t i = 0; i < sets.size(); ++i) {
            auto entry = scale::comparison_json(comparisons[i]);
            entry["pooled"] = sets[i].pooled;
            json["comparisons"].push_back(std::move(entry));
        }
        json_file->write(json.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n");
        json_file->commit();
        std::cout << "Wrote " << options.json->string() << "." << std::endl;
    }
    if (options.png && !sets.empty()) {
        report::write_scale_plot(scale_plot(sets, comparisons, options.confidence), *options.png);
        std::cout << "Saved the plot to " << options.png->string() << "." << std::endl;
    }
}

}  // namespace wdl::commands
