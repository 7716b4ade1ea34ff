#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "wdl/counts/count_map.hpp"
#include "wdl/counts/position_key.hpp"
#include "wdl/util/atomic_file.hpp"

// Count files: the scanner's output and the fitter's input, a JSON object
// {"('W', move, material, eval)": count, ...} (docs/formats.md). Plain, .gz or .zst.
namespace wdl::counts {

using CountSink = std::function<void(const PositionKey&, std::int64_t)>;

struct CountFileReport {
    // Keys the file gives more than once, once per repetition, as spelled in the file.
    std::vector<std::string> repeated_keys;
};

// Calls sink once for every key of the file, in no particular order. A key given more than
// once keeps its last count (as Python's json.load does) and is reported. A file holding just
// `null` (what the original scanner writes when it counted nothing) is empty. Throws
// wdl::Error naming the file (and the key) on an unreadable file, malformed JSON, a key not
// of the form ('W', move, material, eval) (numbers as Python literals), or a count that is
// negative, not an integer or beyond 64 bits.
CountFileReport read_count_file(const std::filesystem::path& path, const CountSink& sink);

// Counts that a large file can be read into on two threads at once: each half of the file
// goes into a blank copy of the target, and the copies are merged into it at the end.
class CountTarget {
  public:
    virtual ~CountTarget() = default;
    virtual void add(const PositionKey& key, std::int64_t count) = 0;
    virtual std::unique_ptr<CountTarget> blank_copy() const = 0;
    // Adds the counts of a target made by blank_copy.
    virtual void merge(const CountTarget& part) = 0;
};

// read_count_file into a target. A large file whose keys are in order, as scanners write
// them, is read in two halves on two threads; any other file as read_count_file reads it.
CountFileReport read_count_file(const std::filesystem::path& path, CountTarget& target);

// The counts in the scanners' spelling: keys "('W', 12, 62, 35)" in sorted order, two-space
// indent; "{}" when empty.
std::string count_file_text(const CountMap& counts);

// Writes count_file_text into the output and commits it; throws wdl::Error naming the file on
// failure. The output is opened by the caller, so that a bad path fails before a long scan.
void write_count_file(const CountMap& counts, util::AtomicFile& output);

}  // namespace wdl::counts
