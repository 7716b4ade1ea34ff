#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace wdl::counts {

// Game result from the point of view of the side to move in a counted position.
enum class Outcome : std::uint8_t { Win = 0, Draw = 1, Loss = 2 };

char outcome_letter(Outcome outcome);
// The same game's result for the other side.
inline Outcome opposite(Outcome outcome) {
    return outcome == Outcome::Win    ? Outcome::Loss
           : outcome == Outcome::Loss ? Outcome::Win
                                      : Outcome::Draw;
}
std::optional<Outcome> outcome_from_letter(char letter);

// The eval of a key whose position had a mate score (either sign); other evals lie within
// +-kMaxEval and are multiples of the scan's bin width.
inline constexpr int kMateEval = 1001;
inline constexpr int kMaxEval = 1000;

// One cell of the scanner's statistics: (result, full-move number, material, eval in cp).
struct PositionKey {
    Outcome result = Outcome::Draw;
    int move = 0;
    int material = 0;
    int eval = 0;

    friend bool operator==(const PositionKey&, const PositionKey&) = default;
};

// The JSON key spelling shared with the original tools: "('W', 12, 62, 35)".
std::string format_key(const PositionKey& key);
// Appends the key to out without allocating a temporary (hot path of JSON writing).
void append_key(std::string& out, const PositionKey& key);
// A number that orders keys as their spellings order as strings (byte by byte), which is how
// count files list them: sorting by it needs no text. For keys within the ranges of pack_key.
std::uint64_t spelling_order(const PositionKey& key);
// Parses the spelling above as Python's ast.literal_eval would: whitespace around the items,
// either quote style and a sign on the numbers are accepted; leading zeros (05) are not.
std::optional<PositionKey> parse_key(std::string_view text);

// Packing into one integer for hash maps. Fields must fit the ranges the scanner produces:
// move 0..65535, material 0..255, eval -32768..32767.
// Whether pack_key keeps the key whole (its fields within the ranges above).
inline bool packable(const PositionKey& key) {
    return key.move >= 0 && key.move <= 65535 && key.material >= 0 && key.material <= 255 &&
           key.eval >= -32768 && key.eval <= 32767;
}

// Inline: the scanner packs a key for every counted position.
inline std::uint64_t pack_key(const PositionKey& key) {
    return (std::uint64_t(key.result) << 40) | (std::uint64_t(std::uint32_t(key.move)) << 24) |
           (std::uint64_t(std::uint8_t(key.material)) << 16) |
           std::uint64_t(std::uint16_t(key.eval));
}
inline PositionKey unpack_key(std::uint64_t packed) {
    PositionKey key;
    key.result = Outcome((packed >> 40) & 0xff);
    key.move = int((packed >> 24) & 0xffff);
    key.material = int((packed >> 16) & 0xff);
    key.eval = int(std::int16_t(packed & 0xffff));
    return key;
}

}  // namespace wdl::counts
