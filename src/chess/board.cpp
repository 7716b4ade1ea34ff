#include "wdl/chess/board.hpp"

#include <bit>
#include <charconv>

#include "attacks.hpp"
#include "board_inline.hpp"

namespace wdl::chess {

using namespace detail;

namespace {

constexpr std::string_view start_fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
constexpr std::string_view piece_letters = "PNBRQK  pnbrqk";  // indexed by piece code
constexpr std::uint8_t not_a_piece = 0xFF;
// The piece code of each FEN letter, or not_a_piece.
constexpr std::array<std::uint8_t, 256> piece_codes = [] {
    std::array<std::uint8_t, 256> codes{};
    codes.fill(not_a_piece);
    for (std::size_t code = 0; code < piece_letters.size(); ++code) {
        if (piece_letters[code] != ' ')
            codes[static_cast<unsigned char>(piece_letters[code])] =
                static_cast<std::uint8_t>(code);
    }
    return codes;
}();

int back_rank(Color color) { return color == Color::White ? 0 : 7; }
int color_index(Color color) { return static_cast<int>(color); }

// Splits off the next space-separated field; empty when none is left.
std::string_view next_field(std::string_view& text) {
    size_t start = text.find_first_not_of(' ');
    if (start == std::string_view::npos) {
        text = {};
        return {};
    }
    text.remove_prefix(start);
    size_t end = text.find(' ');
    std::string_view field = text.substr(0, end);
    text.remove_prefix(end == std::string_view::npos ? text.size() : end);
    return field;
}

// A non-negative decimal counter; bounded so later increments cannot overflow.
std::optional<int> parse_counter(std::string_view field) {
    int value = 0;
    auto [end, error] = std::from_chars(field.data(), field.data() + field.size(), value);
    if (error != std::errc() || end != field.data() + field.size() || value < 0 ||
        value > 1'000'000) {
        return std::nullopt;
    }
    return value;
}

}  // namespace

Board::Board() { set_start_position(); }

void Board::set_start_position() { set_fen(start_fen); }

Board::Board(std::nullopt_t) {
    squares_.fill(no_piece);
    for (auto& rooks : castling_rook_) rooks.fill(no_square);
}

void Board::put_piece(int square, Color color, PieceType type) {
    Bitboard bit = square_bit(square);
    by_type_[static_cast<int>(type)] |= bit;
    by_color_[color_index(color)] |= bit;
    squares_[square] = piece_code(color, type);
}

void Board::remove_piece(int square) {
    Bitboard bit = square_bit(square);
    std::uint8_t piece = squares_[square];
    by_type_[piece & 7] &= ~bit;
    by_color_[color_of(piece)] &= ~bit;
    squares_[square] = no_piece;
}

void Board::move_piece(int from, int to) {
    Bitboard both = square_bit(from) | square_bit(to);
    std::uint8_t piece = squares_[from];
    by_type_[piece & 7] ^= both;
    by_color_[color_of(piece)] ^= both;
    squares_[to] = piece;
    squares_[from] = no_piece;
}

std::optional<PieceType> Board::piece_type_on(Square square) const {
    if (square >= 64 || squares_[square] == no_piece) return std::nullopt;
    return type_of(squares_[square]);
}

std::optional<Color> Board::color_on(Square square) const {
    if (square >= 64 || squares_[square] == no_piece) return std::nullopt;
    return static_cast<Color>(color_of(squares_[square]));
}

// ---------------------------------------------------------------------------------------------
// FEN

bool Board::set_fen(std::string_view fen, bool chess960) {
    Board board(std::nullopt);
    board.chess960_ = chess960;
    std::string_view rest = fen;
    std::string_view placement = next_field(rest);
    std::string_view side = next_field(rest);
    std::string_view castling = next_field(rest);
    std::string_view en_passant = next_field(rest);
    std::string_view halfmove = next_field(rest);
    std::string_view fullmove = next_field(rest);
    if (!next_field(rest).empty() || !board.parse_placement(placement)) return false;
    if (side == "w") {
        board.side_to_move_ = Color::White;
    } else if (side == "b") {
        board.side_to_move_ = Color::Black;
    } else {
        return false;
    }
    // The side that just moved must not have left its king in check.
    Color waiting = opposite(board.side_to_move_);
    if (board.attacked_by(board.king_square(waiting), board.side_to_move_, board.occupied()))
        return false;
    if (!castling.empty() && !board.parse_castling_field(castling)) return false;
    board.parse_en_passant_field(en_passant);
    if (!halfmove.empty()) {
        auto value = parse_counter(halfmove);
        if (!value) return false;
        board.halfmove_clock_ = *value;
    }
    if (!fullmove.empty()) {
        auto value = parse_counter(fullmove);
        if (!value) return false;
        board.fullmove_number_ = *value < 1 ? 1 : *value;
    }
    board.update_castling_squares();
    board.in_check_ =
        board.attacked_by(board.king_square(board.side_to_move_), waiting, board.occupied());
    *this = board;
    return true;
}

// Pieces beyond a side's first queen, two rooks, two bishops and two knights: each was a pawn.
// Counting them bounds the material (at most 103 a side), which keys hold in 8 bits.
int Board::promoted_pieces(Color color) const {
    auto beyond = [&](PieceType type, int initial) {
        return std::max(0, std::popcount(pieces(color, type)) - initial);
    };
    return beyond(PieceType::Queen, 1) + beyond(PieceType::Rook, 2) + beyond(PieceType::Bishop, 2) +
           beyond(PieceType::Knight, 2);
}

bool Board::parse_placement(std::string_view placement) {
    int rank = 7, file = 0;
    for (char c : placement) {
        if (c == '/') {
            if (file != 8 || rank == 0) return false;
            --rank;
            file = 0;
        } else if (c >= '1' && c <= '8') {
            file += c - '0';
            if (file > 8) return false;
        } else {
            std::uint8_t code = piece_codes[static_cast<unsigned char>(c)];
            if (code == not_a_piece || file > 7) return false;
            put_piece(rank * 8 + file, static_cast<Color>(color_of(code)), type_of(code));
            ++file;
        }
    }
    if (rank != 0 || file != 8) return false;
    for (Color color : {Color::White, Color::Black}) {
        if (std::popcount(pieces(color, PieceType::King)) != 1 ||
            std::popcount(pieces(color)) > 16 || promoted_pieces(color) > 8 - pawn_count(color))
            return false;
    }
    return !(by_type_[static_cast<int>(PieceType::Pawn)] & (rank_mask(0) | rank_mask(7)));
}

// Records a castling right if the king and rook stand where castling needs them; FENs with
// stale rights are common in the wild, so a mismatched right is dropped, not an error.
void Board::add_castling_right(Color color, CastlingSide side, int rook_square) {
    int king = king_square(color);
    int rank = back_rank(color);
    if (rank_of(king) != rank || rank_of(rook_square) != rank ||
        squares_[rook_square] != piece_code(color, PieceType::Rook)) {
        return;
    }
    bool rook_on_king_side = file_of(rook_square) > file_of(king);
    if (rook_on_king_side != (side == KingSide)) return;
    if (!chess960_ &&
        (file_of(king) != 4 || (file_of(rook_square) != 0 && file_of(rook_square) != 7))) {
        return;
    }
    castling_rook_[color_index(color)][side] = static_cast<Square>(rook_square);
}

bool Board::parse_castling_field(std::string_view field) {
    if (field == "-") return true;
    for (char c : field) {
        Color color = (c >= 'a' && c <= 'z') ? Color::Black : Color::White;
        char upper = color == Color::Black ? static_cast<char>(c - 'a' + 'A') : c;
        int rank = back_rank(color);
        int king_file = file_of(king_square(color));
        Bitboard rooks = pieces(color, PieceType::Rook) & rank_mask(rank);
        if (upper == 'K' || upper == 'Q') {
            // X-FEN: the outermost rook on that side of the king.
            CastlingSide side = upper == 'K' ? KingSide : QueenSide;
            Bitboard side_mask = 0;
            for (int file = 0; file < 8; ++file) {
                if (side == KingSide ? file > king_file : file < king_file) {
                    side_mask |= file_mask(file);
                }
            }
            Bitboard candidates = rooks & side_mask;
            if (candidates) {
                int rook =
                    side == KingSide ? highest_square(candidates) : lowest_square(candidates);
                add_castling_right(color, side, rook);
            }
        } else if (upper >= 'A' && upper <= 'H') {
            int file = upper - 'A';
            add_castling_right(color, file > king_file ? KingSide : QueenSide, rank * 8 + file);
        } else {
            return false;
        }
    }
    return true;
}

// Keeps the square only if a pawn can have just double-pushed past it, so that playing an
// en-passant capture always finds the pawn to remove.
void Board::parse_en_passant_field(std::string_view field) {
    if (field.size() != 2 || field[0] < 'a' || field[0] > 'h') return;
    int rank = field[1] - '1';
    int expected_rank = side_to_move_ == Color::White ? 5 : 2;
    if (rank != expected_rank) return;
    int square = rank * 8 + (field[0] - 'a');
    int forward = side_to_move_ == Color::White ? 8 : -8;
    int pushed_pawn = square - forward, pawn_origin = square + forward;
    if (squares_[square] != no_piece || squares_[pawn_origin] != no_piece ||
        !(pieces(opposite(side_to_move_), PieceType::Pawn) & square_bit(pushed_pawn))) {
        return;
    }
    en_passant_square_ = static_cast<Square>(square);
}

bool Board::has_castling_rights() const {
    for (const auto& rooks : castling_rook_)
        for (Square rook : rooks)
            if (rook != no_square) return true;
    return false;
}

std::string Board::fen() const {
    std::string out;
    for (int rank = 7; rank >= 0; --rank) {
        int empty = 0;
        for (int file = 0; file < 8; ++file) {
            std::uint8_t piece = squares_[rank * 8 + file];
            if (piece == no_piece) {
                ++empty;
                continue;
            }
            if (empty) out += static_cast<char>('0' + empty);
            empty = 0;
            out += piece_letters[piece];
        }
        if (empty) out += static_cast<char>('0' + empty);
        if (rank) out += '/';
    }
    out += side_to_move_ == Color::White ? " w " : " b ";
    size_t castling_start = out.size();
    for (Color color : {Color::White, Color::Black}) {
        for (CastlingSide side : {KingSide, QueenSide}) {
            Square rook = castling_rook_[color_index(color)][side];
            if (rook == no_square) continue;
            char letter =
                chess960_ ? static_cast<char>('A' + file_of(rook)) : (side == KingSide ? 'K' : 'Q');
            out += color == Color::White ? letter : static_cast<char>(letter - 'A' + 'a');
        }
    }
    if (out.size() == castling_start) out += '-';
    out += ' ';
    if (en_passant_square_ == no_square) {
        out += '-';
    } else {
        out += static_cast<char>('a' + file_of(en_passant_square_));
        out += static_cast<char>('1' + rank_of(en_passant_square_));
    }
    out += ' ' + std::to_string(halfmove_clock_) + ' ' + std::to_string(fullmove_number_);
    return out;
}

// ---------------------------------------------------------------------------------------------
// Playing moves

void Board::drop_castling_rights_touching(int square) {
    for (auto& rooks : castling_rook_) {
        for (Square& rook : rooks) {
            if (rook == square) rook = no_square;
        }
    }
}

void Board::update_castling_squares() {
    castling_squares_ = 0;
    for (Color color : {Color::White, Color::Black}) {
        for (Square rook : castling_rook_[color_index(color)]) {
            if (rook != no_square)
                castling_squares_ |= square_bit(rook) | square_bit(king_square(color));
        }
    }
}

void Board::play_castling(Move move) {
    Color us = side_to_move_;
    int rank = back_rank(us);
    bool king_side = move.to > move.from;
    int king_target = rank * 8 + (king_side ? 6 : 2);
    int rook_target = rank * 8 + (king_side ? 5 : 3);
    // Remove both first: in Chess960 either may start on the other's target square.
    remove_piece(move.from);
    remove_piece(move.to);
    put_piece(king_target, us, PieceType::King);
    put_piece(rook_target, us, PieceType::Rook);
    castling_rook_[color_index(us)].fill(no_square);
    update_castling_squares();
}

void Board::play(Move move) {
    Color us = side_to_move_;
    en_passant_square_ = no_square;
    ++halfmove_clock_;
    PieceType moved = PieceType::King;
    if (move.kind == MoveKind::Castling) {
        play_castling(move);
    } else {
        moved = type_of(squares_[move.from]);
        if (move.kind == MoveKind::EnPassant) {
            remove_piece(move.to ^ 8);  // the captured pawn is beside the origin, one rank back
        } else if (squares_[move.to] != no_piece) {
            remove_piece(move.to);
            halfmove_clock_ = 0;
        }
        move_piece(move.from, move.to);
        if (moved == PieceType::Pawn) {
            halfmove_clock_ = 0;
            if (move.kind == MoveKind::Promotion) {
                remove_piece(move.to);
                put_piece(move.to, us, move.promotion);
                moved = move.promotion;
            } else if (move.to - move.from == 16 || move.from - move.to == 16) {
                // Record the ep square only when an enemy pawn could capture there, as most
                // tools do; it keeps FENs of identical positions identical.
                int skipped = (move.from + move.to) / 2;
                if (pawn_attacks(us, skipped) & pieces(opposite(us), PieceType::Pawn)) {
                    en_passant_square_ = static_cast<Square>(skipped);
                }
            }
        }
        // Most moves touch no castling king or rook: one test instead of the bookkeeping.
        if (castling_squares_ & (square_bit(move.from) | square_bit(move.to))) {
            if (moved == PieceType::King) castling_rook_[color_index(us)].fill(no_square);
            drop_castling_rights_touching(move.from);
            drop_castling_rights_touching(move.to);
            update_castling_squares();
        }
    }
    if (us == Color::Black) ++fullmove_number_;
    side_to_move_ = opposite(us);
    in_check_ = gives_check(move, moved);
}

// Called by play() once the move is on the board: whether the side to move now is in check.
// Only the moved piece and a line opened through its origin can give check; castling and en
// passant (two pieces move) ask for all attackers.
bool Board::gives_check(Move move, PieceType moved) const {
    Color attacker = opposite(side_to_move_);
    int king = king_square(side_to_move_);
    Bitboard occupancy = occupied();
    if (move.kind == MoveKind::Castling || move.kind == MoveKind::EnPassant)
        return attacked_by(king, attacker, occupancy);
    Bitboard king_bit = square_bit(king);
    switch (moved) {
        case PieceType::Pawn:
            if (pawn_attacks(attacker, move.to) & king_bit) return true;
            break;
        case PieceType::Knight:
            if (knight_attacks(move.to) & king_bit) return true;
            break;
        case PieceType::Bishop:
        case PieceType::Rook:
        case PieceType::Queen: {
            int line = direction_between(move.to, king);
            bool moves_along = line >= 0 && (moved == PieceType::Queen ||
                                             is_straight(line) == (moved == PieceType::Rook));
            if (moves_along && !(squares_between(move.to, king, line) & occupancy)) return true;
            break;
        }
        case PieceType::King:
            break;
    }
    int line = direction_between(king, move.from);
    return line >= 0 && slider_attacks_along(king, line, occupancy, attacker);
}

std::string Board::to_uci(Move move) const {
    int to = move.to;
    if (move.kind == MoveKind::Castling && !chess960_) {
        to = rank_of(move.from) * 8 + (move.to > move.from ? 6 : 2);
    }
    std::string out;
    out += static_cast<char>('a' + file_of(move.from));
    out += static_cast<char>('1' + rank_of(move.from));
    out += static_cast<char>('a' + file_of(to));
    out += static_cast<char>('1' + rank_of(to));
    if (move.kind == MoveKind::Promotion) out += "pnbrqk"[static_cast<int>(move.promotion)];
    return out;
}

}  // namespace wdl::chess
