#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>

#include "wdl/model/position_key.hpp"

// Reading the scanner's count files: a JSON object {"('W', move, material, eval)": count}.
namespace wdl::model {

using CountSink = std::function<void(const PositionKey&, std::int64_t)>;

// Calls sink for every key of the file. A file holding just `null` (what the original
// scanner writes when it counted nothing) is empty. Throws std::runtime_error naming the
// file (and the key) on an unreadable file, malformed JSON, a key not of the form
// ('W', move, material, eval), or a count that is negative or not an integer.
void read_count_file(const std::filesystem::path& path, const CountSink& sink);

}  // namespace wdl::model
