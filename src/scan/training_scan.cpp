#include "wdl/scan/training_scan.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <memory>
#include <optional>

#include "wdl/games/reading_report.hpp"

namespace wdl::scan {
namespace {

// Counts the positions of the chunks one thread reads into that thread's own map.
class TrainingConsumer : public games::ChunkConsumer {
  public:
    TrainingConsumer(const TrainingScanSettings& settings)
        : formats_(settings.formats),
          counts_(settings.rules.grouping ? std::optional(settings.rules.grouping->grouping())
                                          : std::nullopt),
          counter_(settings.rules, counts_) {}

    games::ChunkReport consume(const games::TextChunk& chunk) override {
        counter_.begin_chunk(chunk.file_index);
        auto reading =
            training::read_chunk(formats_[chunk.file_index], chunk.text, chunk.offset, counter_);
        counter_.add_reading(reading);
        return {reading.records, std::move(reading.problems)};
    }

    counts::PositionCounts& counts() { return counts_; }
    TrainingTally tally() const { return counter_.tally(); }

  private:
    const std::vector<training::TrainingFormat>& formats_;
    counts::PositionCounts counts_;
    TrainingCounter counter_;
};

}  // namespace

TrainingScanResult scan_training_files(const std::vector<std::filesystem::path>& files,
                                       const TrainingScanSettings& settings,
                                       games::ReadProgress* progress) {
    std::vector<std::unique_ptr<TrainingConsumer>> workers;
    std::vector<games::ChunkConsumer*> consumers;
    for (int i = 0; i < std::max(1, settings.threads); ++i) {
        workers.push_back(std::make_unique<TrainingConsumer>(settings));
        consumers.push_back(workers.back().get());
    }
    games::ReadSettings reading;
    reading.chunk_bytes = settings.chunk_bytes;
    for (auto format : settings.formats)
        reading.file_layouts.push_back(&training::record_layout(format));
    if (progress) progress->records_name = "records";
    TrainingScanResult result;
    result.files = games::read_in_chunks(files, consumers, reading, progress);
    result.counts = std::move(workers[0]->counts());
    for (std::size_t i = 0; i < workers.size(); ++i) {
        if (i > 0) result.counts.merge(workers[i]->counts(), settings.threads);
        result.tally.add(workers[i]->tally());
    }
    return result;
}

double positions_per_unit(const TrainingTally& tally) {
    if (tally.units == 0) return 0;
    return double(tally.positions + tally.without_score + tally.beyond_move) / double(tally.units);
}

std::string units_warning(const TrainingScanResult& result) {
    double mean = positions_per_unit(result.tally);
    if (result.tally.units == 0 || mean >= kFewestPositionsPerGame) return "";
    return fmt::format(
        "Warning: the {} units counted hold {:.2f} positions each on average: they are not "
        "games (records out of game order, such as shuffled data, or bullet's lines), and a "
        "jackknife over groups of them (--groups) takes single positions as independent: its "
        "intervals are too narrow for positions that share their games' results.\n",
        result.tally.units, mean);
}

std::string format_training_summary(const TrainingScanResult& result, double seconds) {
    const auto& tally = result.tally;
    double safe_seconds = std::max(seconds, 1e-9);
    std::string summary = games::format_files_line(result.files, "training data");
    summary += fmt::format(
        "Records: {} read, {} of them broken; {} units (blocks, games of records, lines) "
        "counted, {} dropped with a broken record.\n",
        tally.records, tally.records_broken, tally.units, tally.units_dropped);
    summary += fmt::format(
        "Positions: {} read, {} counted in {} distinct keys ({} without a score, {} after the "
        "last counted move).\n",
        tally.positions_read, tally.positions, result.counts.distinct_keys(), tally.without_score,
        tally.beyond_move);
    summary += fmt::format("Units: {:.1f} positions a counted unit on average.\n",
                           positions_per_unit(tally));
    summary += fmt::format("Speed: {:.2f} s, {:.1f} MB/s, {:.0f} positions/s.\n", seconds,
                           double(result.files.text_bytes) / 1e6 / safe_seconds,
                           double(tally.positions_read) / safe_seconds);
    return summary;
}

nlohmann::ordered_json training_summary_json(const TrainingScanResult& result, double seconds) {
    const auto& tally = result.tally;
    nlohmann::ordered_json json;
    json["files"] = {{"read", result.files.files_read},
                     {"damaged", result.files.files_damaged},
                     {"unreadable", result.files.files_unreadable},
                     {"bytes", result.files.text_bytes}};
    json["records"] = {{"read", tally.records}, {"broken", tally.records_broken}};
    json["units"] = {{"counted", tally.units},
                     {"broken", tally.units_dropped},
                     {"positions_per_unit", positions_per_unit(tally)}};
    json["positions"] = {{"read", tally.positions_read},
                         {"counted", tally.positions},
                         {"without_score", tally.without_score},
                         {"after_last_counted_move", tally.beyond_move}};
    json["distinct_keys"] = result.counts.distinct_keys();
    json["seconds"] = seconds;
    json["warnings"] = result.files.warnings;
    return json;
}

}  // namespace wdl::scan
