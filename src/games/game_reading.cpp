#include "wdl/games/game_reading.hpp"

#include <algorithm>

#include "wdl/util/error.hpp"

namespace wdl::games {

SelectedFiles select_game_files(const GameSelection& selection, const FileFilter& filter,
                                std::ostream& log, std::ostream& warnings) {
    const GameFileSource& source = selection.source;
    SelectedFiles files;
    files.found = find_game_files(source, log);
    auto training_data =
        std::count_if(files.found.begin(), files.found.end(), [&](const auto& path) {
            return source.is_training_data ? source.is_training_data(path)
                                           : is_listed_too(path, source.also_listed);
        });
    // The original's line, unless training data was found too.
    if (training_data == 0) {
        log << "Found " << files.found.size() << " .pgn(.gz) files in total." << std::endl;
    } else if (std::size_t(training_data) == files.found.size()) {
        log << "Found " << files.found.size() << " file" << (files.found.size() == 1 ? "" : "s")
            << " of training data in total." << std::endl;
    } else {
        log << "Found " << files.found.size() << " files in total ("
            << files.found.size() - std::size_t(training_data) << " of games, " << training_data
            << " of training data)." << std::endl;
    }
    if (files.found.empty() && !source.file) {
        throw Error(
            "no .pgn, .pgn.gz or .pgn.zst files in " +
            (source.file_list ? source.file_list->string() : source.dir.string()) +
            (source.also_listed.empty() ? "" : ", nor training data") +
            (source.recursive || source.file_list ? "" : " (use -r to search subdirectories)"));
    }
    auto kept = files.found;
    if (selection.shard) {
        auto root = source.file || source.file_list ? std::filesystem::path() : source.dir;
        kept = shard_files(kept, root, *selection.shard);
        log << "Shard " << selection.shard->index << "/" << selection.shard->count << ": "
            << kept.size() << " of " << files.found.size() << " files." << std::endl;
    }
    if (kept.empty()) return files;
    std::vector<std::string> metadata_warnings;
    files.metadata = fishtest::load_metadata(kept, metadata_warnings);
    for (const auto& warning : metadata_warnings) warnings << warning << std::endl;
    files.selected = filter.apply(std::move(kept), files.metadata, log);
    return files;
}

void report_reading(const ReadSummary& files, std::size_t file_count, std::ostream& warnings) {
    for (const auto& warning : files.warnings) warnings << warning << std::endl;
    if (file_count > 0 && files.files_unreadable == file_count)
        throw Error("none of the " + std::to_string(file_count) + " files could be read.");
}

}  // namespace wdl::games
