#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

namespace wdl::games {

// Match runners rewrite a book FEN's move counters to "0 1". A FixFenTable, read from a
// file of FENs with their true counters (plain or .gz), restores them.
class FixFenTable {
  public:
    // Throws wdl::Error naming the file if it cannot be read.
    static FixFenTable load(const std::filesystem::path& path);
    // Lines "placement side castling ep halfmove fullmove"; for a FEN listed several times,
    // the smallest fullmove counter wins.
    static FixFenTable parse(std::string_view text);

    bool empty() const { return counters_.empty(); }
    std::size_t size() const { return counters_.size(); }

    // For a FEN ending in " 0 1": the FEN with the listed counters, or nullopt if its first
    // four fields are not listed. Other FENs are returned unchanged.
    std::optional<std::string> fix(std::string_view fen) const;

  private:
    struct Counters {
        int halfmove;
        int fullmove;
    };
    std::unordered_map<std::string, Counters> counters_;
};

}  // namespace wdl::games
