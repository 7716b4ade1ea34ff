#pragma once

#include <memory>

#include "input_file.hpp"
#include "wdl/io/block_reader.hpp"

// One factory per compression format; BlockReader::open picks among them.
namespace wdl::io {

std::unique_ptr<BlockReader> make_plain_reader(std::unique_ptr<InputFile> file,
                                               const ReaderLimits& limits);
std::unique_ptr<BlockReader> make_gzip_reader(std::unique_ptr<InputFile> file,
                                              const ReaderLimits& limits);
std::unique_ptr<BlockReader> make_zstd_reader(std::unique_ptr<InputFile> file,
                                              const ReaderLimits& limits);

}  // namespace wdl::io
