#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "wdl/model/count_grid.hpp"
#include "wdl/model/position_key.hpp"

// Reading the scanner's count files: a JSON object {"('W', move, material, eval)": count}.
namespace wdl::model {

using CountSink = std::function<void(const PositionKey&, std::int64_t)>;

struct CountFileReport {
    // Keys the file gives more than once, once per repetition, as spelled in the file.
    std::vector<std::string> repeated_keys;
};

// Calls sink once for every key of the file, in no particular order. A key given more than
// once keeps its last count (as Python's json.load does) and is reported. A file holding just
// `null` (what the original scanner writes when it counted nothing) is empty. Throws
// std::runtime_error naming the file (and the key) on an unreadable file, malformed JSON, a
// key not of the form ('W', move, material, eval) (numbers as Python literals), or a count
// that is negative, not an integer or beyond 64 bits.
CountFileReport read_count_file(const std::filesystem::path& path, const CountSink& sink);

// read_count_file into a grid. A large file whose keys are in order, as scanners write them,
// is read in two halves on two threads; any other file as read_count_file does it.
CountFileReport add_count_file(const std::filesystem::path& path, CountGrid& grid);

}  // namespace wdl::model
