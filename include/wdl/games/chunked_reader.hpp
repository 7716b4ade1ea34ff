#pragma once

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

// Reading many PGN files on several threads: each file's decompressed text is cut at game
// boundaries into chunks that any thread may parse, so that the threads share one huge file
// as well as many small ones. Every analysis of games (counting, chains, endgames) reads
// through here, with a consumer of its own per thread.
namespace wdl::games {

// A piece of one file's decompressed text that holds whole games.
struct TextChunk {
    std::size_t file_index = 0;  // into the list of files being read
    std::uint64_t offset = 0;    // of the chunk's first byte in the file's text
    std::string_view text;
};

// A game (or another record) that is broken, for the warning lines.
struct GameProblem {
    std::uint64_t game_index;  // 0-based, among the games (records) of its chunk
    std::string description;
};

// Broken games listed with their own warning, per file (and so per chunk): the rest are only
// counted, so that a file of millions of bad games costs neither memory nor a flood of lines.
inline constexpr std::size_t kListedProblems = 20;
// A description longer than this is cut: a quoted FEN or move of a hostile file can be
// megabytes long.
inline constexpr std::size_t kLongestProblem = 200;

// The broken games of one chunk, bounded as above: every reader of games lists them here.
class ProblemList {
  public:
    // game_index counts from the chunk's first game (0-based).
    void add(std::uint64_t game_index, std::string description);
    // Adds the problems of text read after `games_before` games of this list's text.
    void add_all(const ProblemList& later, std::uint64_t games_before);
    void clear();
    const std::vector<GameProblem>& listed() const { return listed_; }
    std::uint64_t unlisted() const { return unlisted_; }

  private:
    std::vector<GameProblem> listed_;
    std::uint64_t unlisted_ = 0;
};

// What a consumer found in one chunk: how many games it held and which were broken.
struct ChunkReport {
    std::uint64_t games = 0;
    ProblemList problems;
};

// Parses chunks on one thread. An exception stops the whole reading with its message and the
// name of the file concerned.
class ChunkConsumer {
  public:
    virtual ~ChunkConsumer() = default;
    virtual ChunkReport consume(const TextChunk& chunk) = 0;
};

// Where a file's text may be cut into chunks that hold whole records: PGN games, or the
// blocks, records or lines of a training-data format.
class RecordLayout {
  public:
    virtual ~RecordLayout() = default;
    // The end of the last whole record in `buffer` (a cut in 1 .. size), or npos when there is
    // none yet; no cut lies in buffer[1, searched].
    virtual std::size_t last_cut(std::string_view buffer, std::size_t searched) const = 0;
    // Where to cut a buffer that grew to several chunks without a cut (text without records,
    // or garbage), or npos to read on (a record may be that long).
    virtual std::size_t forced_cut(std::string_view buffer) const = 0;
    // What a record is called in the warnings ("game", "block").
    virtual const char* record_noun() const = 0;
};

// PGN games, cut before a tag section.
const RecordLayout& pgn_game_layout();

struct ReadSettings {
    // Chunks are cut at about this size.
    std::size_t chunk_bytes = std::size_t{4} << 20;
    // The layout of each file (by index); empty: every file is PGN.
    std::vector<const RecordLayout*> file_layouts;
};

// Counters a progress line can read while the files are read.
struct ReadProgress {
    std::atomic<std::uint64_t> files_done{0};
    std::atomic<std::uint64_t> compressed_bytes{0};
    std::atomic<std::uint64_t> text_bytes{0};
    std::atomic<std::uint64_t> games_read{0};  // or the records of another layout
    const char* records_name = "games";        // what games_read counts, for the line
};

struct ReadSummary {
    std::uint64_t files_read = 0;     // opened and read to the end (possibly damaged)
    std::uint64_t files_damaged = 0;  // truncated or corrupt: their complete games were read
    std::uint64_t files_unreadable = 0;
    std::uint64_t text_bytes = 0;  // decompressed PGN text
    // One line per problem, in file order and game order, whatever thread read what:
    // unreadable or damaged files, and broken games ("FILE, game N: ...; game skipped").
    std::vector<std::string> warnings;
};

// Reads the files with one thread per consumer (consumers[i] is used by thread i only).
// Throws wdl::Error when a consumer threw.
ReadSummary read_in_chunks(const std::vector<std::filesystem::path>& files,
                           const std::vector<ChunkConsumer*>& consumers,
                           const ReadSettings& settings, ReadProgress* progress = nullptr);

}  // namespace wdl::games
