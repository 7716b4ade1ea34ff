#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "wdl/chess/types.hpp"

namespace wdl::chess {

// A chess position (standard chess or Chess960) with bitboards, legal move generation and
// SAN resolution. Copying is cheap (about 130 bytes); there is no undo: copy, then play.
class Board {
  public:
    Board();  // standard start position
    // Sets a position from FEN. chess960 = true means Chess960/DFRC castling rules: the
    // castling field may be Shredder-FEN (rook files A-H/a-h) or X-FEN (KQkq = outermost rook
    // on that side of the king, or a file letter for an inner rook). In standard mode KQkq
    // need the king on the e-file and the rook in the corner. Castling rights that do not
    // match the pieces and en-passant squares without a pawn that just double-pushed are
    // dropped. Missing halfmove/fullmove fields default to 0 and 1. Returns false, leaving the
    // board unchanged, on invalid FEN (bad syntax, not one king per side, pawns on the first or
    // last rank, more than 16 pieces or 8 pawns per side, side not to move in check).
    bool set_fen(std::string_view fen, bool chess960 = false);
    void set_start_position();
    std::string fen() const;  // Shredder-style castling in 960 mode, KQkq otherwise

    Color side_to_move() const { return side_to_move_; }
    int fullmove_number() const { return fullmove_number_; }
    int halfmove_clock() const { return halfmove_clock_; }
    bool is_chess960() const { return chess960_; }
    // P + 3N + 3B + 5R + 9Q over both colours (kings count 0).
    int material() const {
        auto count = [this](PieceType type) { return std::popcount(by_type_[int(type)]); };
        return count(PieceType::Pawn) + 3 * (count(PieceType::Knight) + count(PieceType::Bishop)) +
               5 * count(PieceType::Rook) + 9 * count(PieceType::Queen);
    }
    bool in_check() const { return in_check_; }
    bool has_castling_rights() const;
    // The square a pawn skipped by its double push, where an en-passant capture may land.
    Square en_passant_square() const { return en_passant_square_; }
    // The piece on a square, if any.
    std::optional<PieceType> piece_type_on(Square square) const;
    std::optional<Color> color_on(Square square) const;

    // Resolves a SAN move (O-O and 0-0 spellings, optional 'x', optional '=' before the
    // promotion piece, trailing + # ! ? tolerated). Returns std::nullopt if the text is
    // garbled, ambiguous or not a legal move here. Allocation-free.
    std::optional<Move> parse_san(std::string_view san) const {
        Move move = resolve_san(san);
        if (move.from == move.to) return std::nullopt;
        return move;
    }
    // Plays a legal move (as returned by parse_san or legal_moves).
    void play(Move move);

    // All legal moves; out is cleared first.
    void legal_moves(MoveList& out) const;
    std::uint64_t perft(int depth) const;

    // For decoders of move encodings that number a piece's destinations (Stockfish's binpack):
    // the squares of one side's pieces, the squares the piece on `square` attacks whatever
    // stands there (a pawn: its capture squares; none for an empty square), the rook square of
    // a side's castling right (no_square without it), and whether an en-passant capture is
    // legal here.
    std::uint64_t occupancy(Color color) const { return pieces(color); }
    std::uint64_t attacks_from(Square square) const;
    Square castling_rook(Color color, bool king_side) const {
        return castling_rook_[static_cast<int>(color)][king_side ? KingSide : QueenSide];
    }
    bool has_legal_en_passant() const;
    // Whether a move a decoder built from a piece's destinations (castling as king takes its
    // rook) is legal here: castling through nothing and no attacked square, no other move
    // leaving its king attacked.
    bool is_legal(Move move) const;
    // "e2e4", "e7e8q"; castling is "e1g1" in standard mode and king-to-rook ("e1h1") in 960.
    std::string to_uci(Move move) const;

  private:
    using Bitboard = std::uint64_t;
    enum CastlingSide : std::uint8_t { KingSide, QueenSide };
    // Piece codes on squares_: type + 8 * color, so that each is one mask or shift away.
    static constexpr std::uint8_t no_piece = 15;
    static constexpr std::uint8_t piece_code(Color color, PieceType type) {
        return static_cast<std::uint8_t>(static_cast<int>(type) | static_cast<int>(color) << 3);
    }
    static constexpr PieceType type_of(std::uint8_t code) {
        return static_cast<PieceType>(code & 7);
    }
    static constexpr int color_of(std::uint8_t code) { return code >> 3; }

    Bitboard occupied() const { return by_color_[0] | by_color_[1]; }
    Bitboard pieces(Color color) const { return by_color_[static_cast<int>(color)]; }
    Bitboard pieces(Color color, PieceType type) const {
        return by_color_[static_cast<int>(color)] & by_type_[static_cast<int>(type)];
    }
    Square king_square(Color color) const;
    // Whether a piece of `attacker`, other than the `ignored` ones, attacks the square when the
    // board's occupancy is `occupancy`.
    bool attacked_by(int square, Color attacker, Bitboard occupancy, Bitboard ignored = 0) const;
    Bitboard pinned_pieces(Color color) const;
    bool leaves_king_safe(Move move) const;
    // Whether the nearest piece on ray `direction` from `square` is a slider of `attacker` that
    // moves along it.
    bool slider_attacks_along(int square, int direction, Bitboard occupancy, Color attacker) const;
    bool is_legal_candidate(Move move) const;
    bool gives_check(Move move, PieceType moved) const;
    bool castling_is_legal(CastlingSide side) const;
    // parse_san's work. No move is Move{} (from == to): a std::optional<Move> returned from
    // here would be assembled in memory by g++ and stall its reader.
    Move resolve_san(std::string_view san) const;
    Move resolve_castling(CastlingSide side) const;
    Move resolve_piece_move(std::string_view san) const;

    explicit Board(std::nullopt_t);  // empty board, no castling rights
    void put_piece(int square, Color color, PieceType type);
    void remove_piece(int square);
    void move_piece(int from, int to);
    void play_castling(Move move);
    void drop_castling_rights_touching(int square);
    void update_castling_squares();
    bool parse_placement(std::string_view placement);
    int promoted_pieces(Color color) const;
    int pawn_count(Color color) const { return std::popcount(pieces(color, PieceType::Pawn)); }
    bool parse_castling_field(std::string_view field);
    void add_castling_right(Color color, CastlingSide side, int rook_square);
    void parse_en_passant_field(std::string_view field);
    void generate_pseudo_legal(MoveList& out) const;

    std::array<Bitboard, 6> by_type_{};
    std::array<Bitboard, 2> by_color_{};
    std::array<std::uint8_t, 64> squares_{};
    // Rook square of each castling right, [color][CastlingSide], or no_square.
    std::array<std::array<Square, 2>, 2> castling_rook_{};
    // The kings and rooks whose moves (or capture) change castling rights.
    Bitboard castling_squares_ = 0;
    Square en_passant_square_ = no_square;
    bool in_check_ = false;  // the side to move's king is attacked
    Color side_to_move_ = Color::White;
    bool chess960_ = false;
    int halfmove_clock_ = 0;
    int fullmove_number_ = 1;
};

}  // namespace wdl::chess
