#include "wdl/tablebase/position.hpp"

#include <cctype>

namespace wdl::tablebase {
namespace {

using chess::Color;
using chess::PieceType;

std::optional<PieceType> piece_of_letter(char letter) {
    switch (std::tolower(static_cast<unsigned char>(letter))) {
        case 'p':
            return PieceType::Pawn;
        case 'n':
            return PieceType::Knight;
        case 'b':
            return PieceType::Bishop;
        case 'r':
            return PieceType::Rook;
        case 'q':
            return PieceType::Queen;
        case 'k':
            return PieceType::King;
    }
    return std::nullopt;
}

}  // namespace

std::optional<Position> position_from_fen(std::string_view fen) {
    Position position;
    int rank = 7, file = 0;
    std::size_t i = 0;
    int kings[2] = {0, 0};
    for (; i < fen.size() && fen[i] != ' '; ++i) {
        char c = fen[i];
        if (c == '/') {
            if (--rank < 0) return std::nullopt;
            file = 0;
        } else if (c >= '1' && c <= '8') {
            file += c - '0';
        } else if (auto type = piece_of_letter(c)) {
            if (file > 7 || position.count == kMaxMen) return std::nullopt;
            Color color = std::isupper(static_cast<unsigned char>(c)) ? Color::White : Color::Black;
            kings[int(color)] += *type == PieceType::King;
            position.add(color, *type, chess::make_square(file++, rank));
        } else {
            return std::nullopt;
        }
    }
    if (kings[0] != 1 || kings[1] != 1 || i + 2 > fen.size()) return std::nullopt;
    std::string_view rest = fen.substr(i + 1);
    if (rest.starts_with("w")) {
        position.side_to_move = Color::White;
    } else if (rest.starts_with("b")) {
        position.side_to_move = Color::Black;
    } else {
        return std::nullopt;
    }
    rest.remove_prefix(1);
    if (rest.starts_with(' ')) rest.remove_prefix(1);
    // Castling rights: only "-" (or nothing) is a table position.
    if (!rest.empty() && !rest.starts_with("- ") && rest != "-") return std::nullopt;
    rest.remove_prefix(rest.empty() ? 0 : std::min<std::size_t>(2, rest.size()));
    if (rest.size() >= 2 && rest[0] >= 'a' && rest[0] <= 'h' && rest[1] >= '1' && rest[1] <= '8')
        position.en_passant = chess::make_square(rest[0] - 'a', rest[1] - '1');
    return position;
}

std::optional<Position> position_from_board(const chess::Board& board) {
    if (board.has_castling_rights()) return std::nullopt;
    Position position;
    for (int square = 0; square < 64; ++square) {
        auto type = board.piece_type_on(chess::Square(square));
        if (!type) continue;
        if (position.count == kMaxMen) return std::nullopt;
        position.add(*board.color_on(chess::Square(square)), *type, chess::Square(square));
    }
    position.side_to_move = board.side_to_move();
    position.en_passant = board.en_passant_square();
    return position;
}

std::string to_fen(const Position& position) {
    std::array<char, 64> board{};
    for (int i = 0; i < position.count; ++i) {
        const Man& man = position.men[std::size_t(i)];
        char letter = "pnbrqk"[std::size_t(man.type)];
        board[man.square] = man.color == Color::White ? char(std::toupper(letter)) : letter;
    }
    std::string fen;
    for (int rank = 7; rank >= 0; --rank) {
        int empty = 0;
        for (int file = 0; file < 8; ++file) {
            char c = board[std::size_t(rank * 8 + file)];
            if (!c) {
                ++empty;
                continue;
            }
            if (empty) fen += char('0' + empty);
            empty = 0;
            fen += c;
        }
        if (empty) fen += char('0' + empty);
        if (rank) fen += '/';
    }
    fen += position.side_to_move == Color::White ? " w - " : " b - ";
    if (position.en_passant == chess::no_square) {
        fen += '-';
    } else {
        fen += char('a' + chess::file_of(position.en_passant));
        fen += char('1' + chess::rank_of(position.en_passant));
    }
    return fen + " 0 1";
}

}  // namespace wdl::tablebase
