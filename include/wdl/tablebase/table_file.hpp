#pragma once

#include <filesystem>

#include "wdl/tablebase/table.hpp"

namespace wdl::tablebase {

// "KQKR.dtc.wdltb": the file name of a table in a table directory.
std::string table_file_name(const Material& material, Metric metric);

// A text header line ("wdlfit-table 1 KQKR DTC <positions per side>") followed by one zstd
// frame of the codes (White to move, then Black) with zstd's content checksum. Written
// atomically.
void write_table_file(const Table& table, const std::filesystem::path& path);
// Throws wdl::Error (one line naming the file) if the file is missing, has a bad header, fails the
// checksum or has the wrong length.
Table read_table_file(const std::filesystem::path& path);

}  // namespace wdl::tablebase
