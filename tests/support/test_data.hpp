#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

// The files the tests read, all inside the repository: tests/data/ (reference outputs of the
// original tools, gzip-compressed where large) and data/ (the bundled corpus of games).
namespace wdl::testing {

// The repository's top folder.
std::filesystem::path source_directory();

// tests/data/<relative>; throws, naming the file, if it is missing.
std::filesystem::path test_data_path(const std::string& relative);

// data/<relative>, the bundled corpus; throws, naming the file, if it is missing.
std::filesystem::path corpus_path(const std::string& relative = "");

// The decompressed text of a file (.gz, .zst or plain).
std::string read_decompressed(const std::filesystem::path& path);

// tests/data/<relative>.gz decompressed into a folder of the build, for programs whose output
// names the file read (the original's reference printed the uncompressed name).
std::filesystem::path unpacked_test_data(const std::string& relative);

// A count file as a JSON object: the original writes null for no counts, read as {}.
nlohmann::json read_count_json(const std::filesystem::path& path);

// The header of a grouped count file of version 2: its first line, a JSON object.
nlohmann::json grouped_file_header(const std::filesystem::path& path);

// The original scanner's counts of a reference case: "exact_default", "legacy_SPRTonly", ...
nlohmann::json reference_scan_counts(const std::string& name);

}  // namespace wdl::testing
