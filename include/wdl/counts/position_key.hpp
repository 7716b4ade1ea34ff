#pragma once

#include <array>
#include <cstddef>
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

// Rounds a centipawn eval to a multiple of bin_width (half away from zero): the eval of a key.
// Mate scores (+-kMateEval) are kept as they are.
int bin_eval(int centipawns, int bin_width);

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
// The longest spelling: three numbers of up to 11 characters and 11 other characters.
inline constexpr std::size_t kLongestKeySpelling = 44;
// Writes the spelling at out, which has room for kLongestKeySpelling characters, and returns
// its end (the hot path of writing count files).
char* write_key(char* out, const PositionKey& key);

// A number that orders keys as their spellings order as strings (byte by byte), which is how
// count files list them: sorting by it needs no text. For keys within the ranges of pack_key.
std::uint64_t spelling_order(const PositionKey& key);

// spelling_order, with the order of every move and eval magnitude below kTabled and of every
// material looked up instead of computed digit by digit: a count file's hundreds of thousands
// of keys are ordered while a scan with threads waits.
class SpellingOrder {
  public:
    SpellingOrder();
    std::uint64_t operator()(const PositionKey& key) const {
        const unsigned move = unsigned(key.move);
        const unsigned magnitude = unsigned(key.eval < 0 ? -key.eval : key.eval);
        const unsigned material = unsigned(key.material);
        if (move >= kTabled || magnitude >= kTabled || material >= three_places_.size())
            return spelling_order(key);
        return compose(key.result, five_places_[move], three_places_[material], key.eval >= 0,
                       five_places_[magnitude]);
    }
    // The one layout of the order: 'D' < 'L' < 'W', then the move (5 base-11 places, 18 bits),
    // the material (3 places, 11 bits), the eval's sign ('-' sorts before the digits) and its
    // digits (5 places, 18 bits).
    static std::uint64_t compose(Outcome result, std::uint64_t move, std::uint64_t material,
                                 bool nonnegative, std::uint64_t magnitude) {
        const std::uint64_t letter = result == Outcome::Draw ? 0 : result == Outcome::Loss ? 1 : 2;
        return (letter << 48) | (move << 30) | (material << 19) |
               (std::uint64_t(nonnegative) << 18) | magnitude;
    }

  private:
    static constexpr unsigned kTabled = 1024;
    std::array<std::uint32_t, kTabled> five_places_;
    std::array<std::uint32_t, 256> three_places_;
};
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
