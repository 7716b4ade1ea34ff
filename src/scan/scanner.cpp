#include "wdl/scan/scanner.hpp"

#include <memory>
#include <optional>

namespace wdl::scan {
namespace {

// Counts the games of the chunks one thread reads into that thread's own map.
class CountingConsumer : public games::ChunkConsumer {
  public:
    explicit CountingConsumer(const CountingRules& rules)
        : counts_(rules.grouping ? std::optional(rules.grouping->grouping()) : std::nullopt),
          counter_(rules, counts_) {}

    games::ChunkReport consume(const games::TextChunk& chunk) override {
        std::uint64_t games_before = counter_.tally().games_read;
        counter_.begin_chunk(chunk.file_index, chunk.offset);
        counter_.read(chunk.text);
        games::ChunkReport report;
        report.games = counter_.tally().games_read - games_before;
        report.problems = counter_.problems();
        return report;
    }

    counts::PositionCounts& counts() { return counts_; }
    const GameTally& tally() const { return counter_.tally(); }

  private:
    counts::PositionCounts counts_;
    GameCounter counter_;
};

}  // namespace

ScanResult scan_files(const std::vector<std::filesystem::path>& files, const ScanSettings& settings,
                      games::ReadProgress* progress) {
    std::vector<std::unique_ptr<CountingConsumer>> workers;
    std::vector<games::ChunkConsumer*> consumers;
    for (int i = 0; i < std::max(1, settings.threads); ++i) {
        workers.push_back(std::make_unique<CountingConsumer>(settings.rules));
        consumers.push_back(workers.back().get());
    }
    ScanResult result;
    result.files = games::read_in_chunks(files, consumers, settings.reading, progress);
    result.counts = std::move(workers[0]->counts());
    for (std::size_t i = 0; i < workers.size(); ++i) {
        if (i > 0) result.counts.merge(workers[i]->counts(), settings.threads);
        result.tally.add(workers[i]->tally());
    }
    return result;
}

}  // namespace wdl::scan
