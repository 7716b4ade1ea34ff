#include "wdl/download/game_file_check.hpp"

#include <exception>
#include <memory>

#include "wdl/io/block_reader.hpp"

namespace wdl::download {

std::optional<std::string> gzip_file_defect(const std::filesystem::path& file) {
    std::unique_ptr<io::BlockReader> reader;
    try {
        reader = io::BlockReader::open(file, io::Compression::Gzip);
    } catch (const std::exception& error) {
        return error.what();
    }
    // Only the verdict matters: each block is dropped once decoded.
    std::string block;
    while (reader->read_block(block) > 0) block.clear();
    if (reader->damage().empty()) return std::nullopt;
    return reader->damage();
}

}  // namespace wdl::download
