#include "wdl/scan/human_scan.hpp"

#include <memory>

#include "wdl/scan/human_counter.hpp"

namespace wdl::scan {
namespace {

// Counts the human games of the chunks one thread reads into that thread's own map.
class HumanCountingConsumer : public games::ChunkConsumer {
  public:
    explicit HumanCountingConsumer(const CountingRules& rules) : counter_(rules, counts_) {}

    games::ChunkReport consume(const games::TextChunk& chunk) override {
        return counter_.read_chunk(chunk);
    }

    counts::CountMap& counts() { return counts_; }
    const GameTally& tally() const { return counter_.tally(); }

  private:
    counts::CountMap counts_;
    HumanCounter counter_;
};

}  // namespace

HumanScanResult scan_human_files(const std::vector<std::filesystem::path>& files,
                                 const ScanSettings& settings, games::ReadProgress* progress) {
    std::vector<std::unique_ptr<HumanCountingConsumer>> workers;
    std::vector<games::ChunkConsumer*> consumers;
    for (int i = 0; i < std::max(1, settings.threads); ++i) {
        workers.push_back(std::make_unique<HumanCountingConsumer>(settings.rules));
        consumers.push_back(workers.back().get());
    }
    HumanScanResult result;
    result.files = games::read_in_chunks(files, consumers, settings.reading, progress);
    result.counts = std::move(workers[0]->counts());
    for (std::size_t i = 0; i < workers.size(); ++i) {
        if (i > 0) result.counts.merge(workers[i]->counts(), settings.threads);
        result.tally.add(workers[i]->tally());
    }
    return result;
}

}  // namespace wdl::scan
