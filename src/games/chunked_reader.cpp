#include "wdl/games/chunked_reader.hpp"

#include <condition_variable>
#include <deque>
#include <map>
#include <mutex>
#include <optional>
#include <thread>

#include "wdl/io/block_reader.hpp"
#include "wdl/pgn/reader.hpp"
#include "wdl/util/error.hpp"

namespace wdl::games {
namespace {

// Text without tag sections (tagless games, garbage) is cut anyway once it reaches this many
// chunks, so that memory stays bounded and the threads share it.
constexpr std::size_t kForcedCutChunks = 4;

class PgnGameLayout final : public RecordLayout {
  public:
    std::size_t last_cut(std::string_view buffer, std::size_t searched) const override {
        return pgn::find_last_game_start(buffer, std::max<std::size_t>(1, searched));
    }
    // Text that has no game start is cut after its last blank line (games are separated by
    // one), else after its last line, else at its end.
    std::size_t forced_cut(std::string_view text) const override {
        if (auto blank = text.rfind("\n\n"); blank != std::string_view::npos && blank > 0)
            return blank + 2;
        if (auto newline = text.rfind('\n'); newline != std::string_view::npos && newline > 0)
            return newline + 1;
        return text.size();
    }
    const char* record_noun() const override { return "game"; }
};

struct Chunk {
    std::size_t file_index;
    std::size_t sequence;  // position of the chunk within its file
    std::uint64_t offset;  // of its first byte in the file's text
    std::string text;
};

struct FileRecord {
    std::string failure;  // unreadable, or the damage found at its end
    bool damaged = false;
    bool unreadable = false;
};

// The shared state of one reading: a bounded queue of chunks that readers fill and all
// threads drain, and the records for the final report. Chunk reports are keyed by (file,
// sequence) so that game numbers and the order of the lines do not depend on which thread
// read what.
class ReadJob {
  public:
    ReadJob(const std::vector<std::filesystem::path>& files, const ReadSettings& settings,
            ReadProgress& progress, std::size_t threads)
        : files_(files),
          settings_(settings),
          progress_(progress),
          queue_capacity_(2 * threads),
          file_records_(files.size()) {}

    ReadSummary run(const std::vector<ChunkConsumer*>& consumers);

  private:
    void work(ChunkConsumer& consumer);
    void read_file(std::size_t file_index, ChunkConsumer& consumer);
    void submit(Chunk chunk, ChunkConsumer& consumer);
    void consume(const Chunk& chunk, ChunkConsumer& consumer);
    void fail(const std::string& message);
    // Runs a step of work; an exception (a consumer's, or out of memory) stops the reading
    // with its message instead of escaping the thread.
    template <typename Step>
    void run_guarded(Step&& step) {
        try {
            step();
        } catch (const std::exception& error) {
            fail(error.what());
        }
    }
    // Chunk buffers are recycled: reallocating and faulting in megabytes per chunk costs
    // more than parsing them.
    std::string take_buffer();
    void return_buffer(std::string buffer);
    ReadSummary collect();
    const RecordLayout& layout_of(std::size_t file_index) const {
        return settings_.file_layouts.empty() ? pgn_game_layout()
                                              : *settings_.file_layouts[file_index];
    }

    const std::vector<std::filesystem::path>& files_;
    const ReadSettings& settings_;
    ReadProgress& progress_;
    const std::size_t queue_capacity_;

    std::mutex mutex_;
    std::condition_variable changed_;
    std::deque<Chunk> queue_;
    std::size_t next_file_ = 0;
    int active_readers_ = 0;
    std::optional<std::string> fatal_error_;
    std::vector<FileRecord> file_records_;
    std::map<std::pair<std::size_t, std::size_t>, ChunkReport> chunk_reports_;
    std::vector<std::string> spare_buffers_;
};

ReadSummary ReadJob::run(const std::vector<ChunkConsumer*>& consumers) {
    std::vector<std::thread> threads;
    for (std::size_t i = 1; i < consumers.size(); ++i)
        threads.emplace_back([this, consumer = consumers[i]] { work(*consumer); });
    work(*consumers[0]);
    for (auto& thread : threads) thread.join();
    if (fatal_error_) throw Error(*fatal_error_);
    return collect();
}

// Each thread parses queued chunks first and otherwise becomes the reader of the next file.
void ReadJob::work(ChunkConsumer& consumer) {
    std::unique_lock lock(mutex_);
    while (!fatal_error_) {
        if (!queue_.empty()) {
            Chunk chunk = std::move(queue_.front());
            queue_.pop_front();
            lock.unlock();
            changed_.notify_all();
            run_guarded([&] { consume(chunk, consumer); });
            return_buffer(std::move(chunk.text));
            lock.lock();
        } else if (next_file_ < files_.size()) {
            std::size_t file_index = next_file_++;
            ++active_readers_;
            lock.unlock();
            run_guarded([&] { read_file(file_index, consumer); });
            lock.lock();
            --active_readers_;
            changed_.notify_all();
        } else if (active_readers_ == 0) {
            break;
        } else {
            changed_.wait(lock);
        }
    }
}

void ReadJob::read_file(std::size_t file_index, ChunkConsumer& consumer) {
    const auto& path = files_[file_index];
    const RecordLayout& layout = layout_of(file_index);
    std::unique_ptr<io::BlockReader> reader;
    try {
        reader = io::BlockReader::open(path);
    } catch (const std::exception& error) {
        file_records_[file_index] = {error.what(), false, true};
        ++progress_.files_done;
        return;
    }
    std::string buffer = take_buffer();
    std::size_t sequence = 0;
    std::uint64_t offset = 0;
    std::size_t searched = 0;  // no game starts in buffer[1, searched]
    std::uint64_t compressed_seen = 0;
    while (true) {
        std::size_t added = reader->read_block(buffer);
        progress_.text_bytes += added;
        progress_.compressed_bytes += reader->compressed_bytes_read() - compressed_seen;
        compressed_seen = reader->compressed_bytes_read();
        if (added == 0) break;
        if (buffer.size() < settings_.chunk_bytes) continue;
        std::size_t cut = layout.last_cut(buffer, searched);
        if (cut == std::string::npos && buffer.size() >= kForcedCutChunks * settings_.chunk_bytes)
            cut = layout.forced_cut(buffer);
        if (cut == std::string::npos) {
            // One record longer than a chunk: read on, searching only the lines still to come.
            if (auto last_newline = buffer.rfind('\n'); last_newline != std::string::npos)
                searched = last_newline;
            continue;
        }
        searched = 0;
        // The chunk takes the buffer; only the partial game after the cut is copied.
        std::string rest = take_buffer();
        rest.assign(buffer, cut);
        buffer.resize(cut);
        submit(Chunk{file_index, sequence++, offset, std::move(buffer)}, consumer);
        offset += cut;
        buffer = std::move(rest);
        std::lock_guard lock(mutex_);
        if (fatal_error_) return;
    }
    if (!buffer.empty()) {
        submit(Chunk{file_index, sequence++, offset, std::move(buffer)}, consumer);
    } else {
        return_buffer(std::move(buffer));
    }
    if (!reader->damage().empty()) {
        file_records_[file_index] = {reader->damage(), true, false};
    }
    ++progress_.files_done;
}

// Queues the chunk for any thread, or parses it here when the queue is full: readers then
// help with parsing instead of waiting, which bounds memory.
void ReadJob::submit(Chunk chunk, ChunkConsumer& consumer) {
    {
        std::lock_guard lock(mutex_);
        if (queue_.size() < queue_capacity_) {
            queue_.push_back(std::move(chunk));
            changed_.notify_one();
            return;
        }
    }
    consume(chunk, consumer);
    return_buffer(std::move(chunk.text));
}

void ReadJob::consume(const Chunk& chunk, ChunkConsumer& consumer) {
    ChunkReport report;
    try {
        report = consumer.consume({chunk.file_index, chunk.offset, chunk.text});
    } catch (const std::exception& error) {
        throw Error(std::string(error.what()) + " (" + files_[chunk.file_index].string() + ")");
    }
    progress_.games_read += report.games;
    std::lock_guard lock(mutex_);
    chunk_reports_[{chunk.file_index, chunk.sequence}] = std::move(report);
}

std::string ReadJob::take_buffer() {
    std::lock_guard lock(mutex_);
    if (spare_buffers_.empty()) return {};
    std::string buffer = std::move(spare_buffers_.back());
    spare_buffers_.pop_back();
    buffer.clear();
    return buffer;
}

void ReadJob::return_buffer(std::string buffer) {
    std::lock_guard lock(mutex_);
    spare_buffers_.push_back(std::move(buffer));
}

void ReadJob::fail(const std::string& message) {
    std::lock_guard lock(mutex_);
    if (!fatal_error_) fatal_error_ = message;
    changed_.notify_all();
}

ReadSummary ReadJob::collect() {
    ReadSummary result;
    // Chunk records are ordered by (file, sequence): number the games of each file in turn.
    std::size_t current_file = files_.size();
    std::uint64_t games_before_chunk = 0;
    auto file_records_done = std::size_t{0};
    auto report_file = [&](std::size_t index) {
        const auto& record = file_records_[index];
        if (record.unreadable) {
            result.warnings.push_back("Warning: skipping " + record.failure);
        } else if (record.damaged) {
            result.warnings.push_back("Warning: " + files_[index].string() + ": " + record.failure +
                                      "; its complete games were counted");
        }
    };
    ProblemList file_problems;  // of the current file, numbered from its first game
    auto end_file = [&] {
        std::string noun = layout_of(current_file).record_noun();
        for (const auto& problem : file_problems.listed()) {
            result.warnings.push_back("Warning: " + files_[current_file].string() + ", " + noun +
                                      " " + std::to_string(problem.game_index + 1) + ": " +
                                      problem.description + "; " + noun + " skipped");
        }
        if (auto unlisted = file_problems.unlisted()) {
            result.warnings.push_back("Warning: " + files_[current_file].string() + ": " +
                                      std::to_string(unlisted) + " more " + noun +
                                      "s skipped as broken (not listed)");
        }
        file_problems.clear();
    };
    for (auto& [key, record] : chunk_reports_) {
        std::size_t file_index = key.first;
        if (file_index != current_file) {
            if (current_file < files_.size()) end_file();
            while (file_records_done < file_index) report_file(file_records_done++);
            current_file = file_index;
            games_before_chunk = 0;
        }
        file_problems.add_all(record.problems, games_before_chunk);
        games_before_chunk += record.games;
    }
    if (current_file < files_.size()) end_file();
    while (file_records_done < files_.size()) report_file(file_records_done++);
    for (const auto& record : file_records_) {
        result.files_damaged += record.damaged;
        result.files_unreadable += record.unreadable;
    }
    result.files_read = files_.size() - result.files_unreadable;
    result.text_bytes = progress_.text_bytes;
    return result;
}

}  // namespace

void ProblemList::add(std::uint64_t game_index, std::string description) {
    if (listed_.size() >= kListedProblems) {
        ++unlisted_;
        return;
    }
    if (description.size() > kLongestProblem) {
        description = description.substr(0, kLongestProblem) + "... (" +
                      std::to_string(description.size()) + " bytes)";
    }
    listed_.push_back({game_index, std::move(description)});
}

// The later list's descriptions are already cut: kept as they are.
void ProblemList::add_all(const ProblemList& later, std::uint64_t games_before) {
    for (const auto& problem : later.listed_) {
        if (listed_.size() < kListedProblems) {
            listed_.push_back({games_before + problem.game_index, problem.description});
        } else {
            ++unlisted_;
        }
    }
    unlisted_ += later.unlisted_;
}

void ProblemList::clear() {
    listed_.clear();
    unlisted_ = 0;
}

const RecordLayout& pgn_game_layout() {
    static const PgnGameLayout layout;
    return layout;
}

ReadSummary read_in_chunks(const std::vector<std::filesystem::path>& files,
                           const std::vector<ChunkConsumer*>& consumers,
                           const ReadSettings& settings, ReadProgress* progress) {
    ReadProgress local_progress;
    return ReadJob(files, settings, progress ? *progress : local_progress, consumers.size())
        .run(consumers);
}

}  // namespace wdl::games
