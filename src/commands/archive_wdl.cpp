#include "wdl/commands/archive_wdl.hpp"

#include <fmt/format.h>

#include <iostream>

#include "wdl/commands/merge_wdl_stat.hpp"
#include "wdl/games/eval_parsing.hpp"
#include "wdl/scan/scan_summary.hpp"
#include "wdl/util/atomic_file.hpp"
#include "wdl/util/enum_names.hpp"
#include "wdl/util/error.hpp"

namespace wdl::commands {
namespace {

namespace fs = std::filesystem;

template <class T>
nlohmann::json or_null(const std::optional<T>& value) {
    return value ? nlohmann::json(*value) : nlohmann::json(nullptr);
}

// A batch scanned as scoreWDLstat scans a folder: its paths relative to the batch's folder are
// those of a full copy of the archive, so the games fall into the same groups.
void scan_batch(const ScoreWdlStatOptions& scan, const fs::path& games, const fs::path& counts) {
    ScoreWdlStatOptions options = scan;
    options.games.source = games::GameFileSource{};
    options.games.source.dir = games;
    options.games.source.recursive = true;
    options.output = counts;
    options.json = fs::path(counts).replace_extension(".summary.json");
    score_wdl_stat(options);
}

// Groups by test number the tests found before filters: a batch finds only its own, so its
// groups would not be those of a full scan; one label per test (--perTest) is not offered.
void check_scan_options(const ScoreWdlStatOptions& scan) {
    if (scan.grouping && scan.grouping->by != counts::GroupBy::Game)
        throw Error("a refit in batches groups its games by game, not by test");
    if (scan.per_test) throw Error("a refit in batches does not keep the tests apart");
}

}  // namespace

nlohmann::json refit_selection(const ArchiveWdlOptions& options) {
    const auto& selection = options.selection;
    const auto& scan = options.scan;
    nlohmann::json download = {{"ltcOnly", selection.query.ltc_only},
                               {"successOnly", selection.query.success_only},
                               {"yellowOnly", selection.query.yellow_only},
                               {"username", selection.query.username},
                               {"standardChessOnly", selection.rules.standard_chess_only},
                               {"tcLowerLimit", or_null(selection.rules.tc_lower_limit)},
                               {"tcUpperLimit", or_null(selection.rules.tc_upper_limit)}};
    std::optional<std::string> fix_fen;
    if (scan.fix_fen_source) fix_fen = scan.fix_fen_source->string();
    nlohmann::json scanning = {
        {"filters", scan::filters_json(scan.games.filters)},
        {"matchEngine", or_null(scan.match_engine)},
        {"fixFENsource", or_null(fix_fen)},
        {"binWidth", scan.bin_width},
        {"evalParsing", std::string(util::name_of(games::kEvalParsingNames, scan.eval_parsing))},
        {"groups", scan.grouping ? scan.grouping->groups : 0}};
    return {{"repository", selection.repo},
            {"dates", selection.date_globs},
            {"download", download},
            {"scan", scanning}};
}

int refit_from_archive(archive::ArchiveSource& source, const ArchiveWdlOptions& options) {
    check_scan_options(options.scan);
    fs::path output = options.output.value_or(options.work / "archive_counts.json");
    fs::create_directories(options.work);
    // Opened now so that a bad path fails before the downloads, not after them.
    std::optional<util::AtomicFile> summary_file;
    if (options.json) summary_file.emplace(*options.json);

    archive::BatchRefitSettings settings;
    settings.work = options.work;
    settings.batch_bytes = options.batch_bytes;
    settings.keep = options.keep;
    settings.selection = refit_selection(options);
    settings.on_step = options.on_step;
    auto refit = archive::refit_in_batches(
        source, settings,
        [&](const fs::path& games, const fs::path& counts) {
            scan_batch(options.scan, games, counts);
        },
        std::cout);
    if (refit.counts.empty()) {
        throw Error(
            fmt::format("no game of the selected tests could be counted ({} listed, {} "
                        "left out by the filters, {} files failed)",
                        refit.tests_listed, refit.tests_skipped, refit.files_failed));
    }
    merge_wdl_stat({refit.counts, output, std::nullopt, std::nullopt});

    int status = 0;
    if (!options.scan_only) {
        ScoreWdlOptions fit = options.fit;
        fit.files = {output};
        status = score_wdl(fit);
    }
    if (refit.files_failed > 0 || refit.tests_failed > 0) {
        std::cout << fmt::format(
                         "{} files and {} tests failed to download and are not in the counts: "
                         "the same command again fetches and counts them.",
                         refit.files_failed, refit.tests_failed)
                  << std::endl;
        if (status == 0) status = 1;
    }
    if (summary_file) {
        auto json = archive::batch_refit_json(refit);
        json["output"] = output.string();
        json["fitted"] = !options.scan_only;
        json["exitStatus"] = status;
        summary_file->write(json.dump(2) + "\n");
        summary_file->commit();
    }
    return status;
}

}  // namespace wdl::commands
