#include "wdl/games/fix_fen.hpp"

#include <sstream>
#include <stdexcept>

#include "wdl/io/block_reader.hpp"
#include "wdl/util/error.hpp"

namespace wdl::games {

FixFenTable FixFenTable::load(const std::filesystem::path& path) {
    auto reader = io::BlockReader::open(path);
    std::string text;
    while (reader->read_block(text) > 0) {
    }
    if (!reader->damage().empty())
        throw Error("damaged fixFENsource " + path.string() + ": " + reader->damage());
    return parse(text);
}

FixFenTable FixFenTable::parse(std::string_view text) {
    FixFenTable table;
    std::istringstream lines{std::string(text)};
    std::string line;
    while (std::getline(lines, line)) {
        std::istringstream fields(line);
        std::string placement, side, castling, ep;
        int halfmove = 0, fullmove = 0;
        if (!(fields >> placement >> side >> castling >> ep >> halfmove >> fullmove)) continue;
        if (fullmove == 0) continue;
        auto key = placement + ' ' + side + ' ' + castling + ' ' + ep;
        auto [it, inserted] = table.counters_.emplace(key, Counters{halfmove, fullmove});
        if (!inserted && fullmove < it->second.fullmove) it->second = Counters{halfmove, fullmove};
    }
    return table;
}

std::optional<std::string> FixFenTable::fix(std::string_view fen) const {
    constexpr std::string_view rewritten = " 0 1";
    if (!fen.ends_with(rewritten) || fen.size() == rewritten.size()) return std::string(fen);
    std::string key(fen.substr(0, fen.size() - rewritten.size()));
    auto it = counters_.find(key);
    if (it == counters_.end()) return std::nullopt;
    return key + ' ' + std::to_string(it->second.halfmove) + ' ' +
           std::to_string(it->second.fullmove);
}

}  // namespace wdl::games
