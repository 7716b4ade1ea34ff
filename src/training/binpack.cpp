#include "wdl/training/binpack.hpp"

#include <array>
#include <bit>
#include <cstring>
#include <string>

#include "wdl/chess/board.hpp"

namespace wdl::training {
namespace {

using chess::Board;
using chess::Color;
using chess::Move;
using chess::MoveKind;
using chess::PieceType;
using chess::Square;

constexpr std::string_view kBlockMagic = "BINP";
constexpr std::size_t kBlockHeaderBytes = 8;
constexpr std::size_t kStemBytes = 32;
// A stem and the count of the plies after it: less than this left in a block is its padding.
constexpr std::size_t kChainHeaderBytes = kStemBytes + 2;

// Why a block is dropped; caught per block.
struct DamagedBlock {
    std::string description;
};

std::uint32_t big_endian_16(const unsigned char* bytes) {
    return std::uint32_t(bytes[0]) << 8 | bytes[1];
}

std::uint32_t little_endian_32(const unsigned char* bytes) {
    return std::uint32_t(bytes[0]) | std::uint32_t(bytes[1]) << 8 | std::uint32_t(bytes[2]) << 16 |
           std::uint32_t(bytes[3]) << 24;
}

// The format's signed numbers: the sign in the lowest bit, the magnitude's bits flipped for a
// negative number (small numbers of either sign stay small).
int signed_from_stored(std::uint32_t stored) {
    auto bits = static_cast<std::uint16_t>((stored << 15) | (stored >> 1));
    if (bits & 0x8000) bits ^= 0x7FFF;
    return static_cast<std::int16_t>(bits);
}

// Bits needed to number `choices` alternatives (0 for one or none).
int bits_to_number(std::uint64_t choices) {
    return choices == 0 ? 0 : int(std::bit_width(choices - 1));
}

// The square of set bit number `index` (from the lowest) of `bits`.
Square nth_square(std::uint64_t bits, unsigned index) {
    if (index >= unsigned(std::popcount(bits))) throw DamagedBlock{"a move number out of range"};
    for (unsigned i = 0; i < index; ++i) bits &= bits - 1;
    return static_cast<Square>(std::countr_zero(bits));
}

// The movetext's bits, most significant first.
class BitReader {
  public:
    BitReader(const unsigned char* data, std::size_t size) : data_(data), size_(size) {}

    unsigned take(int count) {
        unsigned value = 0;
        for (int i = 0; i < count; ++i, ++position_) {
            std::size_t byte = position_ >> 3;
            if (byte >= size_) throw DamagedBlock{"a chain runs past the end of its block"};
            value = value << 1 | ((data_[byte] >> (7 - (position_ & 7))) & 1u);
        }
        return value;
    }
    // A number in groups of 4 bits, least significant first, each with a bit that says
    // whether another follows.
    std::uint32_t take_variable_length() {
        std::uint32_t value = 0;
        for (int shift = 0;; shift += 4) {
            unsigned group = take(5);
            if (shift < 16) value |= (group & 0xFu) << shift;
            if (!(group & 0x10u)) return value & 0xFFFFu;
        }
    }
    std::size_t bytes_read() const { return (position_ + 7) / 8; }

  private:
    const unsigned char* data_;
    std::size_t size_;
    std::size_t position_ = 0;
};

char piece_letter(PieceType type, bool black) {
    constexpr char letters[] = "PNBRQK";
    char letter = letters[int(type)];
    return black ? char(letter - 'A' + 'a') : letter;
}

std::string square_name(int square) {
    return {char('a' + chess::file_of(square)), char('1' + chess::rank_of(square))};
}

// The packed position as FEN: the occupied squares (a1 first), then a 4-bit code per piece in
// square order. Codes 0-11 are piece type * 2 + colour; 12 a pawn that just moved two squares,
// 13/14 a white/black rook that may still castle, 15 the black king with Black to move.
std::string packed_position_fen(const unsigned char* bytes, int ply, int rule50) {
    std::uint64_t occupied = 0;
    for (int i = 0; i < 8; ++i) occupied = occupied << 8 | bytes[i];
    if (std::popcount(occupied) > 32) throw DamagedBlock{"a position of more than 32 pieces"};
    std::array<char, 64> board;
    board.fill(0);
    std::string castling, en_passant = "-";
    bool black_to_move = false;
    int index = 0;
    for (std::uint64_t rest = occupied; rest; rest &= rest - 1, ++index) {
        int square = std::countr_zero(rest);
        unsigned code = (bytes[8 + index / 2] >> (index % 2 * 4)) & 0xFu;
        if (code < 12) {
            board[square] = piece_letter(PieceType(code / 2), code % 2);
        } else if (code == 12) {
            bool white_pawn = chess::rank_of(square) == 3;
            board[square] = white_pawn ? 'P' : 'p';
            en_passant = square_name(white_pawn ? square - 8 : square + 8);
        } else if (code == 13 || code == 14) {
            bool white = code == 13;
            board[square] = white ? 'R' : 'r';
            bool king_side = chess::file_of(square) == 7;
            castling += white ? (king_side ? 'K' : 'Q') : (king_side ? 'k' : 'q');
        } else {
            board[square] = 'k';
            black_to_move = true;
        }
    }
    std::string fen;
    for (int rank = 7; rank >= 0; --rank) {
        int empty = 0;
        for (int file = 0; file < 8; ++file) {
            char piece = board[rank * 8 + file];
            if (!piece) {
                ++empty;
                continue;
            }
            if (empty) fen += char('0' + empty);
            empty = 0;
            fen += piece;
        }
        if (empty) fen += char('0' + empty);
        if (rank) fen += '/';
    }
    // FEN lists castling rights in the order KQkq.
    std::string ordered;
    for (char right : std::string_view("KQkq"))
        if (castling.find(right) != std::string::npos) ordered += right;
    fen += black_to_move ? " b " : " w ";
    fen += ordered.empty() ? "-" : ordered;
    fen += " " + en_passant + " " + std::to_string(rule50) + " " + std::to_string(ply / 2 + 1);
    return fen;
}

// A move that would take a king is no move of a game: the data is damaged (and a board
// without a king has no meaning).
void check_not_taking_king(const Board& board, Square to) {
    if (board.piece_type_on(to) == PieceType::King) throw DamagedBlock{"a move that takes a king"};
}

// The stem's move: 2 bits of kind (normal, promotion, castling, en passant), 6 of origin, 6 of
// destination, 2 of promotion piece (knight to queen).
Move packed_move(const Board& board, std::uint32_t packed) {
    Move move;
    move.kind = MoveKind(std::array{0, 1, 3, 2}[packed >> 14]);  // the format's order of kinds
    move.from = static_cast<Square>((packed >> 8) & 63);
    move.to = static_cast<Square>((packed >> 2) & 63);
    move.promotion = PieceType(int(PieceType::Knight) + (packed & 3));
    chess::MoveList legal;
    board.legal_moves(legal);
    for (Move candidate : legal) {
        if (candidate.from == move.from && candidate.to == move.to && candidate.kind == move.kind &&
            (move.kind != MoveKind::Promotion || candidate.promotion == move.promotion))
            return candidate;
    }
    throw DamagedBlock{"a chain's first move is not legal in its position"};
}

// Decodes chains of moves: each move is the number of the moving piece among the mover's
// pieces (in square order), then the number of its destination among those the piece attacks
// or may move to, counted the way Stockfish's binpack writer counts them.
class MoveDecoder {
  public:
    explicit MoveDecoder(BitReader& bits) : bits_(bits) {}

    Move next(const Board& board) {
        Color us = board.side_to_move();
        std::uint64_t ours = board.occupancy(us);
        std::uint64_t theirs = board.occupancy(chess::opposite(us));
        Square from = nth_square(ours, bits_.take(bits_to_number(std::popcount(ours))));
        switch (*board.piece_type_on(from)) {
            case PieceType::Pawn:
                return pawn_move(board, from, ours | theirs, theirs);
            case PieceType::King:
                return king_move(board, from, ours);
            default: {
                std::uint64_t targets = board.attacks_from(from) & ~ours;
                Square to = nth_square(targets, bits_.take(bits_to_number(std::popcount(targets))));
                check_not_taking_king(board, to);
                return {from, to, MoveKind::Normal};
            }
        }
    }

  private:
    // The writer's en-passant square: only where a capture there is legal.
    static Square en_passant_square(const Board& board) {
        return board.has_legal_en_passant() ? board.en_passant_square() : chess::no_square;
    }

    Move pawn_move(const Board& board, Square from, std::uint64_t occupied, std::uint64_t theirs) {
        bool white = board.side_to_move() == Color::White;
        Square en_passant = en_passant_square(board);
        std::uint64_t capture_targets = theirs;
        if (en_passant != chess::no_square) capture_targets |= std::uint64_t{1} << en_passant;
        std::uint64_t targets = board.attacks_from(from) & capture_targets;
        int forward = white ? 8 : -8;
        int one_step = from + forward;
        if (!(occupied >> one_step & 1)) {
            targets |= std::uint64_t{1} << one_step;
            int start_rank = white ? 1 : 6;
            int two_steps = one_step + forward;
            if (chess::rank_of(from) == start_rank && !(occupied >> two_steps & 1))
                targets |= std::uint64_t{1} << two_steps;
        }
        auto destinations = unsigned(std::popcount(targets));
        if (chess::rank_of(from) == (white ? 6 : 1)) {
            unsigned number = bits_.take(bits_to_number(destinations * 4));
            Square to = nth_square(targets, number / 4);
            check_not_taking_king(board, to);
            return {from, to, MoveKind::Promotion, PieceType(int(PieceType::Knight) + number % 4)};
        }
        Square to = nth_square(targets, bits_.take(bits_to_number(destinations)));
        check_not_taking_king(board, to);
        return {from, to, to == en_passant ? MoveKind::EnPassant : MoveKind::Normal};
    }

    // After the king's destinations come its castlings: queen side first where it may.
    Move king_move(const Board& board, Square from, std::uint64_t ours) {
        Color us = board.side_to_move();
        std::uint64_t targets = board.attacks_from(from) & ~ours;
        Square queen_rook = board.castling_rook(us, false);
        Square king_rook = board.castling_rook(us, true);
        auto destinations = unsigned(std::popcount(targets));
        unsigned castlings = (queen_rook != chess::no_square) + (king_rook != chess::no_square);
        unsigned number = bits_.take(bits_to_number(destinations + castlings));
        if (number < destinations) {
            Square to = nth_square(targets, number);
            check_not_taking_king(board, to);
            return {from, to, MoveKind::Normal};
        }
        bool queen_side = number == destinations && queen_rook != chess::no_square;
        Square rook = queen_side ? queen_rook : king_rook;
        if (rook == chess::no_square || number - destinations >= castlings)
            throw DamagedBlock{"a castling without its right"};
        return {from, rook, MoveKind::Castling};
    }

    BitReader& bits_;
};

// Reads one chain at bytes[0, size) (the rest of its block); returns its length in bytes.
std::size_t read_chain(const unsigned char* bytes, std::size_t size, PositionSink& sink) {
    std::uint32_t ply_and_result = big_endian_16(bytes + 28);
    int ply = int(ply_and_result & 0x3FFF);
    int result = signed_from_stored(ply_and_result >> 14);
    if (result < -1 || result > 1) throw DamagedBlock{"a result that is not one"};
    int score = signed_from_stored(big_endian_16(bytes + 26));
    Board board;
    if (!board.set_fen(packed_position_fen(bytes, ply, int(big_endian_16(bytes + 30)))))
        throw DamagedBlock{"a packed position that is not a legal one"};
    std::uint32_t plies = big_endian_16(bytes + kStemBytes);
    sink.see({board, score, ply, result});
    if (plies == 0) return kChainHeaderBytes;
    Move move = packed_move(board, big_endian_16(bytes + 24));
    BitReader bits(bytes + kChainHeaderBytes, size - kChainHeaderBytes);
    MoveDecoder decoder(bits);
    for (std::uint32_t i = 0; i < plies; ++i) {
        board.play(move);
        ++ply;
        result = -result;
        move = decoder.next(board);
        // The code numbers destinations, not legal moves: a damaged one may name a move that
        // leaves its king attacked, which no game played.
        if (!board.is_legal(move)) throw DamagedBlock{"a move that is not legal in its position"};
        // The code holds the sum of this score and the previous one (the sides' views differ
        // in sign), in 16 bits as the writer computed it.
        score = static_cast<std::int16_t>(-score + signed_from_stored(bits.take_variable_length()));
        sink.see({board, score, ply, result});
    }
    return kChainHeaderBytes + bits.bytes_read();
}

// Stockfish's writer ends a block once it passes 1 MiB: a block up to this size is counted as
// it is decoded, the sink holding its keys (some 3 million at most) until the block ends. A
// larger one (up to 100 MiB, about 100 million positions) is checked whole first and then
// counted chain by chain, so that what a thread holds does not grow with the block.
constexpr std::size_t kCountedAtOnceBytes = std::size_t{2} << 20;

// The check's sink: the decoding alone finds the damage.
class NoSink final : public PositionSink {
  public:
    void begin_unit(std::uint64_t) override {}
    void see(const TrainingPosition&) override {}
    void end_unit() override {}
    void drop_unit() override {}
};

// Reads the chains of one block's payload; `checked`: the block is known to be whole, each
// chain's positions count as soon as it is read.
void read_block(const unsigned char* payload, std::size_t size, PositionSink& sink, bool checked) {
    std::size_t at = 0;
    while (size - at >= kChainHeaderBytes) {
        at += read_chain(payload + at, size - at, sink);
        if (checked) sink.count_so_far();
    }
}

bool is_block_header(std::string_view bytes, std::size_t at) {
    return bytes.size() - at >= kBlockHeaderBytes && bytes.substr(at, 4) == kBlockMagic &&
           little_endian_32(reinterpret_cast<const unsigned char*>(bytes.data()) + at + 4) <=
               kLargestBinpackBlock;
}

std::string byte_text(std::uint64_t offset) { return "at byte " + std::to_string(offset); }

class BinpackLayout final : public games::RecordLayout {
  public:
    std::size_t last_cut(std::string_view buffer, std::size_t) const override {
        std::size_t at = 0;
        while (is_block_header(buffer, at)) {
            std::size_t end =
                at + kBlockHeaderBytes +
                little_endian_32(reinterpret_cast<const unsigned char*>(buffer.data()) + at + 4);
            if (end > buffer.size()) break;
            at = end;
        }
        if (at > 0) return at;
        // Bytes that are no block: cut them off at the next header, to be reported alone.
        if (buffer.size() >= kBlockHeaderBytes && !is_block_header(buffer, 0)) {
            std::size_t next = buffer.find(kBlockMagic, 1);
            if (next != std::string_view::npos && next + kBlockHeaderBytes <= buffer.size())
                return next;
        }
        return std::string_view::npos;
    }
    // A block may be up to kLargestBinpackBlock long: read on while one is; cut garbage before
    // the bytes that may start a header (whose size field may not be there yet).
    std::size_t forced_cut(std::string_view buffer) const override {
        if (is_block_header(buffer, 0)) return std::string_view::npos;
        return buffer.size() >= kBlockHeaderBytes ? buffer.size() - (kBlockHeaderBytes - 1)
                                                  : std::string_view::npos;
    }
    const char* record_noun() const override { return "block"; }
};

}  // namespace

ChunkReading read_binpack(std::string_view bytes, std::uint64_t offset, PositionSink& sink) {
    ChunkReading reading;
    const auto* data = reinterpret_cast<const unsigned char*>(bytes.data());
    std::size_t at = 0;
    while (at < bytes.size()) {
        std::uint64_t record = reading.records++;
        if (!is_block_header(bytes, at)) {
            std::size_t next = bytes.find(kBlockMagic, at + 1);
            if (next == std::string_view::npos) next = bytes.size();
            reading.problems.add(record, byte_text(offset + at) + ", " + std::to_string(next - at) +
                                             " bytes that are no binpack block");
            at = next;
            continue;
        }
        std::size_t size = little_endian_32(data + at + 4);
        std::size_t available = bytes.size() - at - kBlockHeaderBytes;
        // A block is one unit: its chains cannot be told apart without decoding them.
        sink.begin_unit(offset + at);
        try {
            if (size > available) {
                throw DamagedBlock{"the file ends after " + std::to_string(available) + " of its " +
                                   std::to_string(size) + " bytes"};
            }
            const unsigned char* payload = data + at + kBlockHeaderBytes;
            bool large = size > kCountedAtOnceBytes;
            if (large) {
                NoSink check;
                read_block(payload, size, check, false);
            }
            read_block(payload, size, sink, large);
            sink.end_unit();
            at += kBlockHeaderBytes + size;
        } catch (const DamagedBlock& damage) {
            sink.drop_unit();
            reading.problems.add(record, byte_text(offset + at) + ", " + damage.description);
            // A damaged block's size is no more trusted than the rest of it (raised, it would
            // swallow the good blocks after it): read on at the next block header.
            std::size_t next = bytes.find(kBlockMagic, at + kBlockHeaderBytes);
            at = next == std::string_view::npos ? bytes.size() : next;
        }
    }
    return reading;
}

const games::RecordLayout& binpack_layout() {
    static const BinpackLayout layout;
    return layout;
}

}  // namespace wdl::training
