#include "wdl/scan/human_scan.hpp"

#include <algorithm>
#include <memory>

#include "wdl/scan/human_counter.hpp"

namespace wdl::scan {
namespace {

// Counts the human games of the chunks one thread reads into that thread's own map, which it
// spills to the runs when it holds more than its share of the budget.
class HumanCountingConsumer : public games::ChunkConsumer {
  public:
    HumanCountingConsumer(const CountingRules& rules, std::size_t cell_budget,
                          counts::CellRuns& runs)
        : counter_(rules, counts_) {
        counter_.spill_beyond(cell_budget, runs);
    }

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

std::size_t human_cell_budget(std::size_t megabytes) {
    return std::max<std::size_t>(1, (megabytes << 20) / kHumanCellBytes);
}

HumanScanResult scan_human_files(const std::vector<std::filesystem::path>& files,
                                 const ScanSettings& settings, const HumanScanMemory& memory,
                                 games::ReadProgress* progress) {
    HumanScanResult result;
    result.runs = std::make_unique<counts::CellRuns>(memory.runs_prefix, memory.merge_width);
    const int threads = std::max(1, settings.threads);
    const std::size_t share = std::max<std::size_t>(1, memory.cell_budget / std::size_t(threads));
    std::vector<std::unique_ptr<HumanCountingConsumer>> workers;
    std::vector<games::ChunkConsumer*> consumers;
    for (int i = 0; i < threads; ++i) {
        workers.push_back(
            std::make_unique<HumanCountingConsumer>(settings.rules, share, *result.runs));
        consumers.push_back(workers.back().get());
    }
    result.files = games::read_in_chunks(files, consumers, settings.reading, progress);
    for (const auto& worker : workers) result.tally.add(worker->tally());
    if (result.runs->runs() > 0) {
        // The cells left in memory join the runs, so that the end merges on disk only.
        for (const auto& worker : workers)
            if (worker->counts().distinct_keys() > 0) result.runs->spill(worker->counts());
        return result;
    }
    result.counts = std::move(workers[0]->counts());
    for (std::size_t i = 1; i < workers.size(); ++i)
        result.counts.merge(workers[i]->counts(), settings.threads);
    return result;
}

std::size_t write_human_scan(HumanScanResult& result, int groups, util::AtomicFile& output) {
    if (result.runs && result.runs->runs() > 0)
        return counts::write_human_counts(*result.runs, groups, output);
    counts::write_human_counts(result.counts, groups, output);
    return result.counts.distinct_keys();
}

}  // namespace wdl::scan
