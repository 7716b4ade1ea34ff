#include "wdl/counts/cell_runs.hpp"

#include <fmt/format.h>
#include <stdlib.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <utility>

#include "wdl/util/error.hpp"

// A run file is its pairs (key, count) as two native 64-bit integers each, ascending by key:
// the runs are read only by the process that wrote them, so 16 bytes a cell and no parsing,
// where a count file's line takes about 30 bytes and a parse.
namespace wdl::counts {

// Of the run files only, outside the anonymous namespace: Merged::Reader holds them.
struct RunPair {
    std::uint64_t key;
    std::uint64_t count;
};

namespace {

constexpr std::size_t kPairsPerBuffer = kRunBufferBytes / sizeof(RunPair);

Error file_error(const std::string& what, const std::filesystem::path& path) {
    return Error(fmt::format("cannot {} {}: {}", what, path.string(), std::strerror(errno)));
}

class RunWriter {
  public:
    explicit RunWriter(std::filesystem::path path) : path_(std::move(path)) {
        file_ = std::fopen(path_.c_str(), "wb");
        if (!file_) throw file_error("write the run", path_);
        buffer_.reserve(kPairsPerBuffer);
    }
    ~RunWriter() {
        if (file_) std::fclose(file_);
    }
    RunWriter(const RunWriter&) = delete;
    RunWriter& operator=(const RunWriter&) = delete;

    void add(std::uint64_t key, std::uint64_t count) {
        buffer_.push_back({key, count});
        if (buffer_.size() == kPairsPerBuffer) flush();
    }
    void close() {
        flush();
        std::FILE* file = std::exchange(file_, nullptr);
        if (std::fclose(file) != 0) throw file_error("write the run", path_);
    }

  private:
    void flush() {
        if (std::fwrite(buffer_.data(), sizeof(RunPair), buffer_.size(), file_) != buffer_.size())
            throw file_error("write the run", path_);
        buffer_.clear();
    }

    std::filesystem::path path_;
    std::FILE* file_ = nullptr;
    std::vector<RunPair> buffer_;
};

}  // namespace

struct CellRuns::Merged::Reader {
    explicit Reader(const std::filesystem::path& run) : path(run) {
        file = std::fopen(path.c_str(), "rb");
        if (!file) throw file_error("read the run", path);
        buffer.resize(kPairsPerBuffer);
    }
    ~Reader() { std::fclose(file); }
    Reader(const Reader&) = delete;
    Reader& operator=(const Reader&) = delete;

    // Moves to the next pair; false at the run's end.
    bool advance() {
        if (++position < filled) return true;
        filled = std::fread(buffer.data(), sizeof(RunPair), buffer.size(), file);
        if (std::ferror(file)) throw file_error("read the run", path);
        position = 0;
        return filled > 0;
    }
    const RunPair& current() const { return buffer[position]; }

    std::filesystem::path path;
    std::FILE* file = nullptr;
    std::vector<RunPair> buffer;
    std::size_t position = 0;
    std::size_t filled = 0;
};

CellRuns::Merged::Merged(const std::vector<std::filesystem::path>& runs) {
    for (const auto& run : runs) {
        readers_.push_back(std::make_unique<Reader>(run));
        if (readers_.back()->advance()) heap_.push_back(readers_.size() - 1);
    }
    std::make_heap(heap_.begin(), heap_.end(), [this](std::size_t a, std::size_t b) {
        return readers_[a]->current().key > readers_[b]->current().key;
    });
}

CellRuns::Merged::~Merged() = default;

bool CellRuns::Merged::next(std::uint64_t& key, std::uint64_t& count) {
    auto later = [this](std::size_t a, std::size_t b) {
        return readers_[a]->current().key > readers_[b]->current().key;
    };
    if (heap_.empty()) return false;
    key = readers_[heap_.front()]->current().key;
    count = 0;
    // Each run holds a key once; the same key in several runs adds up.
    while (!heap_.empty() && readers_[heap_.front()]->current().key == key) {
        std::pop_heap(heap_.begin(), heap_.end(), later);
        Reader& reader = *readers_[heap_.back()];
        count += reader.current().count;
        if (reader.advance())
            std::push_heap(heap_.begin(), heap_.end(), later);
        else
            heap_.pop_back();
    }
    return true;
}

CellRuns::CellRuns(std::filesystem::path folder_prefix, std::size_t merge_width)
    : folder_prefix_(folder_prefix.string()), merge_width_(std::max<std::size_t>(2, merge_width)) {}

CellRuns::~CellRuns() {
    std::error_code ignored;
    if (!folder_.empty()) std::filesystem::remove_all(folder_, ignored);
}

std::filesystem::path CellRuns::new_run_path() {
    if (folder_.empty()) {
        std::string name = folder_prefix_ + ".XXXXXX";
        if (!::mkdtemp(name.data())) throw file_error("make the folder of the scan's runs", name);
        folder_ = name;
    }
    return folder_ / fmt::format("run{}", names_++);
}

void CellRuns::spill(CountMap& counts) {
    std::vector<RunPair> pairs;
    pairs.reserve(counts.distinct_keys());
    counts.for_each([&pairs](std::uint64_t key, std::uint64_t count) {
        pairs.push_back({key, count});
    });
    std::sort(pairs.begin(), pairs.end(),
              [](const RunPair& a, const RunPair& b) { return a.key < b.key; });
    std::filesystem::path path;
    {
        std::lock_guard lock(mutex_);
        path = new_run_path();
    }
    RunWriter writer(path);
    for (const RunPair& pair : pairs) writer.add(pair.key, pair.count);
    writer.close();
    counts.clear();
    std::lock_guard lock(mutex_);
    runs_.push_back(path);
}

std::size_t CellRuns::runs() const {
    std::lock_guard lock(mutex_);
    return runs_.size();
}

std::unique_ptr<CellRuns::Merged> CellRuns::merged() {
    std::lock_guard lock(mutex_);
    while (runs_.size() > merge_width_) {
        // A pass: each merge_width runs into one, so that the files open at once stay few.
        std::vector<std::filesystem::path> wider;
        for (std::size_t first = 0; first < runs_.size(); first += merge_width_) {
            std::vector<std::filesystem::path> part(
                runs_.begin() + std::ptrdiff_t(first),
                runs_.begin() + std::ptrdiff_t(std::min(runs_.size(), first + merge_width_)));
            if (part.size() == 1) {
                wider.push_back(part.front());
                continue;
            }
            std::filesystem::path path = new_run_path();
            {
                Merged merged(part);
                RunWriter writer(path);
                std::uint64_t key = 0, count = 0;
                while (merged.next(key, count)) writer.add(key, count);
                writer.close();
            }
            for (const auto& run : part) std::filesystem::remove(run);
            wider.push_back(path);
        }
        runs_ = std::move(wider);
        ++merge_passes_;
    }
    return std::make_unique<Merged>(runs_);
}

}  // namespace wdl::counts
