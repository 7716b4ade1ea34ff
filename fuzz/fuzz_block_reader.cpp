// The block readers (.gz, .zst, plain) on any bytes, with limits small enough to reach the
// window refills, the streaming fallback and the holding of rejected members.
#include <cstdint>
#include <string>

#include "fuzz_support.hpp"
#include "wdl/io/block_reader.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) return 0;
    static const char* const suffixes[] = {".pgn.gz", ".pgn.zst", ".pgn"};
    wdl::fuzz::InputFile file(data + 1, size - 1, suffixes[data[0] % 3]);
    wdl::io::ReaderLimits limits;
    limits.block_bytes = 4096;
    limits.input_window_bytes = 8192;
    limits.max_whole_member_bytes = 1 << 16;
    auto reader = wdl::io::BlockReader::open(file.path(), limits);
    std::string out;
    while (reader->read_block(out) > 0) {
        if (out.size() > (std::size_t{64} << 20)) break;  // a bomb: time, not memory, is checked
        out.clear();
    }
    return 0;
}
