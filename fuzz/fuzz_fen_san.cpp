// FEN and SAN: the first line is a FEN (Chess960 by the first byte), the rest moves in SAN,
// played while legal; material must fit a key.
#include <cstdint>
#include <string_view>

#include "wdl/chess/board.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) return 0;
    std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
    std::size_t newline = text.find('\n');
    std::string_view fen = text.substr(0, newline);
    std::string_view moves = newline == std::string_view::npos ? "" : text.substr(newline + 1);
    wdl::chess::Board board;
    if (!board.set_fen(fen, data[0] & 1)) return 0;
    if (board.material() > 255) __builtin_trap();
    while (!moves.empty()) {
        std::size_t end = moves.find(' ');
        std::string_view san = moves.substr(0, end);
        moves = end == std::string_view::npos ? "" : moves.substr(end + 1);
        auto move = board.parse_san(san);
        if (!move) continue;
        board.play(*move);
        if (board.material() > 255) __builtin_trap();
    }
    (void)board.fen();
    return 0;
}
