#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "wdl/chess/board.hpp"
#include "wdl/games/chunked_reader.hpp"

// NNUE training data as an input of the scan (docs/training-data.md): positions, each with the
// engine's search score, the game's result and the game ply, in the formats net trainers read.
namespace wdl::training {

enum class TrainingFormat : std::uint8_t {
    Binpack,  // Stockfish's .binpack: blocks of chains, a position and its game's moves
    Plain,    // Stockfish's .plain: "fen/move/score/ply/result/e" records of text
    Bullet,   // bullet's text: "<FEN> | <score> | <result>" lines, White's view
    Bin,      // Stockfish's older .bin: records of 40 bytes, a Huffman-packed position
};

// "binpack", "plain", "bullet", "bin".
const char* format_name(TrainingFormat format);
// The format of a --format value; nullopt for another word.
std::optional<TrainingFormat> format_named(std::string_view name);
// The format a file's name tells: .binpack, .plain (also compressed: .plain.gz, .plain.zst),
// .bin; nullopt for any other name (bullet's text has no extension of its own).
std::optional<TrainingFormat> format_of_file(const std::filesystem::path& path);
// How a file of the format is cut into chunks for the threads (games::read_in_chunks).
const games::RecordLayout& record_layout(TrainingFormat format);

// Stockfish's VALUE_NONE: a position written without a score (not counted).
inline constexpr int kNoScore = 32002;
// Stockfish's VALUE_MATE_IN_MAX_PLY (32000 - 246): a score this large in size is a mate,
// counted as the scanner counts "#n" in a game.
inline constexpr int kMateThreshold = 31754;

// Every format stores a score in 16 bits and a ply in at most 16: text beyond them is damage
// (and kept out of the arithmetic that turns a score to the mover's view).
inline constexpr int kLargestScore = 32767;
inline constexpr int kLargestPly = 65535;

// One position of training data: the board (side to move to move), the score of its search
// from the mover's view in the engine's internal units, the ply of its game (0 at the start
// position with White to move), and the game's result from the mover's view (1, 0, -1).
struct TrainingPosition {
    const chess::Board& board;
    int score;
    int ply;
    int result;
};

// What a reader hands its positions to, in file order, a unit at a time: a binpack block, a
// .plain game (records that continue each other), a bullet line. A unit is counted whole or,
// found broken, not at all, as a game of PGN is; it is also the unit of --groups.
class PositionSink {
  public:
    virtual ~PositionSink() = default;
    // A unit begins at byte `offset` of its file.
    virtual void begin_unit(std::uint64_t offset) = 0;
    virtual void see(const TrainingPosition& position) = 0;
    // The positions of the unit seen so far count whatever follows (the reader checked the
    // whole unit first): a sink may add them now instead of holding them to end_unit.
    virtual void count_so_far() {}
    virtual void end_unit() = 0;
    virtual void drop_unit() = 0;
};

// What a reader found in a chunk: its records, and those broken, for the warnings.
struct ChunkReading {
    std::uint64_t records = 0;
    games::ProblemList problems;
};

// Reads a chunk of a file of the format (whole records as its layout cuts them), which starts
// at byte `offset` of the file.
ChunkReading read_chunk(TrainingFormat format, std::string_view bytes, std::uint64_t offset,
                        PositionSink& sink);

}  // namespace wdl::training
