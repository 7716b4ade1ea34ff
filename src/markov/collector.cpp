#include "wdl/markov/collector.hpp"

#include <algorithm>
#include <memory>

#include "wdl/games/engine_filter.hpp"

namespace wdl::markov {
namespace {

using games::kNoEval;  // a position without an eval

constexpr const char* kUnknownPlayers = "players not the pairing's two engines";
constexpr const char* kNotMatched = "no player matches --matchEngine";

int colour_index(chess::Color colour) { return colour == chess::Color::White ? 0 : 1; }

// FNV-1a, then a SplitMix64 finish so that every bit (the fold takes the top one) depends on
// the whole text.
std::uint64_t hash_bytes(std::uint64_t hash, std::string_view text) {
    for (unsigned char c : text) hash = (hash ^ c) * 0x100000001b3ULL;
    return hash;
}

std::uint64_t finish_hash(std::uint64_t hash) {
    hash ^= hash >> 30;
    hash *= 0xbf58476d1ce4e5b9ULL;
    hash ^= hash >> 27;
    hash *= 0x94d049bb133111ebULL;
    return hash ^ (hash >> 31);
}

constexpr std::uint64_t kHashStart = 0xcbf29ce484222325ULL;

}  // namespace

void DropTally::add(int drop) {
    ++moves;
    at_most_0 += drop <= 0;
    at_most_10 += drop <= 10;
    at_most_30 += drop <= 30;
    positive_sum += std::max(drop, 0);
}

void DropTally::merge(const DropTally& other) {
    moves += other.moves;
    at_most_0 += other.at_most_0;
    at_most_10 += other.at_most_10;
    at_most_30 += other.at_most_30;
    positive_sum += other.positive_sum;
}

MoveTally::MoveTally(int classes)
    : transitions(std::size_t(classes) * std::size_t(classes)), drops(std::size_t(classes)) {}

void MoveTally::merge(const MoveTally& other) {
    for (std::size_t i = 0; i < transitions.size(); ++i) transitions[i] += other.transitions[i];
    for (std::size_t i = 0; i < drops.size(); ++i) drops[i].merge(other.drops[i]);
}

PairingTally::PairingTally(int classes) {
    for (auto& by_colour : moves)
        for (auto& by_fold : by_colour)
            for (auto& tally : by_fold) tally = MoveTally(classes);
    for (auto& starts : start_classes) starts.assign(std::size_t(classes), 0);
}

void PairingTally::merge(PairingTally&& other) {
    for (int role = 0; role < 2; ++role) {
        // Names seen in different threads: the smallest, so that the choice is the same.
        if (names[role].empty() || (!other.names[role].empty() && other.names[role] < names[role]))
            names[role] = other.names[role];
        for (int colour = 0; colour < 2; ++colour)
            for (int fold = 0; fold < kFolds; ++fold)
                moves[role][colour][fold].merge(other.moves[role][colour][fold]);
    }
    for (int fold = 0; fold < kFolds; ++fold)
        for (std::size_t i = 0; i < start_classes[fold].size(); ++i)
            start_classes[fold][i] += other.start_classes[fold][i];
    games.insert(games.end(), other.games.begin(), other.games.end());
    games_outside_chains += other.games_outside_chains;
}

int fold_of(std::uint64_t opening) { return int(finish_hash(opening) >> 63); }

void CollectedGames::merge(CollectedGames&& other) {
    for (auto& [key, tally] : other.pairings) {
        auto [at, inserted] = pairings.try_emplace(key, std::move(tally));
        if (!inserted) at->second.merge(std::move(tally));
    }
    games_read += other.games_read;
    games_accepted += other.games_accepted;
    games_without_transitions += other.games_without_transitions;
    for (const auto& [reason, count] : other.skipped) skipped[reason] += count;
    for (int fold = 0; fold < kFolds; ++fold) positions[fold].merge(other.positions[fold]);
}

ChainCollector::ChainCollector(const CollectorSettings& settings,
                               const std::vector<games::PairedGameFile>& files)
    : settings_(settings),
      files_(files),
      replay_rules_{settings.eval_parsing, settings.fix_fen, false},
      replay_(replay_rules_, *this),
      key_rules_(settings.max_counted_move, settings.bin_width) {
    evals_.reserve(512);
    game_keys_.reserve(512);
}

void ChainCollector::begin_chunk(std::size_t file_index) {
    file_ = file_index;
    replay_.begin_chunk();
}

void ChainCollector::read(std::string_view text) { pgn::read_games(text, replay_); }

void ChainCollector::begin_game(std::size_t) {
    ++collected_.games_read;
    scored_ = false;
}

games::TagVerdict ChainCollector::reject(const std::string& reason, std::string warning) {
    record_result(false);
    ++collected_.skipped[reason];
    return {false, std::move(warning)};
}

void ChainCollector::skip_game(games::GameSkipReason reason) {
    record_result(false);
    ++collected_.skipped[games::describe(reason)];
}

// Finds the game's pairing (the test of its file, or its two engines) and the role of each
// colour in it; false if the players are not two different engines.
bool ChainCollector::assign_pairing(const games::GameTags& tags) {
    const games::PairedGameFile& file = files_[file_];
    const std::string& white = tags.white;
    const std::string& black = tags.black;
    if (white.empty() || black.empty() || white == black) return false;
    bool new_white = games::white_is_new(white, black, file);
    role_of_colour_ = new_white ? std::array<int, 2>{kNew, kBase} : std::array<int, 2>{kBase, kNew};

    std::string key = games::pairing_key(white, black, file);
    if (pairing_ == nullptr || key != pairing_key_) {
        auto [at, inserted] =
            collected_.pairings.try_emplace(key, PairingTally(settings_.classes->size()));
        pairing_ = &at->second;
        pairing_key_ = std::move(key);
        pairing_->test = file.test;
    }
    const std::string& new_name = new_white ? white : black;
    const std::string& base_name = new_white ? black : white;
    std::array<std::string, 2> names = {file.new_name.empty() ? new_name : file.new_name,
                                        file.base_name.empty() ? base_name : file.base_name};
    for (int role = 0; role < 2; ++role)
        if (pairing_->names[role].empty() || names[role] < pairing_->names[role])
            pairing_->names[role] = names[role];
    return true;
}

// A game its tags or players reject is not read move by move. A game of the pairing with a
// result counts in the pairing's score even when the chains cannot use it (a time loss, a
// broken record), as fishtest counts a test's games.
games::TagVerdict ChainCollector::accept(const games::GameTags& tags) {
    auto rejection = tags.rejection();
    if (rejection == games::GameSkipReason::UnsupportedVariant)
        return reject(games::describe(*rejection), games::rejection_warning(tags, *rejection));
    if (!games::matched_players(settings_.engine_filter, tags.white, tags.black).any())
        return reject(kNotMatched);
    bool paired = assign_pairing(tags);
    opening_ = hash_bytes(kHashStart, tags.fen);
    scored_ = paired && tags.white_outcome.has_value();
    if (scored_) white_outcome_ = *tags.white_outcome;
    if (rejection) return reject(games::describe(*rejection));
    if (!paired)
        return reject(kUnknownPlayers, "players \"" + tags.white + "\" and \"" + tags.black +
                                           "\" are not two different engines");
    return {};
}

void ChainCollector::start_game(const chess::Board& board) {
    in_book_ = true;
    first_mover_ = board.side_to_move();
    evals_.clear();
    game_keys_.clear();
}

// Adds the game's result to its pairing's score; `in_chains` says whether the chains used it.
void ChainCollector::record_result(bool in_chains) {
    if (!scored_) return;
    scored_ = false;
    bool new_white = role_of_colour_[0] == kNew;
    counts::Outcome for_new = new_white ? white_outcome_ : counts::opposite(white_outcome_);
    std::uint8_t halves = for_new == counts::Outcome::Win    ? 2
                          : for_new == counts::Outcome::Draw ? 1
                                                             : 0;
    pairing_->games.push_back({opening_, new_white, halves});
    pairing_->games_outside_chains += !in_chains;
}

// The opening is the start position and the moves played from the book.
void ChainCollector::see_move(const chess::Board&, const games::ReplayedMove& move) {
    if (in_book_ && move.comment == "book") {
        opening_ = hash_bytes(hash_bytes(opening_, " "), move.san);
    } else {
        in_book_ = false;
    }
    if (evals_.size() < std::size_t(move.ply)) evals_.resize(std::size_t(move.ply), kNoEval);
}

// Keeps a position's eval (mover's view) and the scanner's key of it.
void ChainCollector::see_position(const chess::Board& board, int eval, int plies,
                                  games::EvalComment) {
    if (evals_.size() <= std::size_t(plies)) evals_.resize(std::size_t(plies) + 1, kNoEval);
    evals_[std::size_t(plies)] = eval;
    if (auto key = key_rules_.key_of(board, white_outcome_, eval)) game_keys_.push_back(*key);
}

void ChainCollector::finish_game(const chess::Board&) { commit_game(); }

void ChainCollector::commit_game() {
    const ClassScheme& classes = *settings_.classes;
    int n = classes.size();
    int fold = fold_of(opening_);
    PairingTally& pairing = *pairing_;
    bool any_transition = false;
    int first = colour_index(first_mover_);
    for (std::size_t k = 0; k + 1 < evals_.size(); ++k) {
        int colour = (first + int(k % 2)) % 2;
        MoveTally& tally = pairing.moves[role_of_colour_[colour]][colour][fold];
        int own = evals_[k], next = evals_[k + 1];
        if (next == kNoEval) continue;
        int from = -1;
        if (settings_.mode == TransitionMode::Own && own != kNoEval) {
            from = classes.class_of(own);
        } else if (settings_.mode == TransitionMode::Opponent && k > 0 &&
                   evals_[k - 1] != kNoEval) {
            from = classes.class_of(-evals_[k - 1]);
        }
        if (from >= 0) {
            tally.transitions[std::size_t(from * n + classes.class_of(-next))] += 1;
            any_transition = true;
        }
        if (own != kNoEval) tally.drops[std::size_t(classes.class_of(own))].add(own + next);
    }
    for (std::size_t k = 0; k < evals_.size(); ++k) {
        if (evals_[k] == kNoEval) continue;
        bool white_to_move = (first + int(k % 2)) % 2 == 0;
        pairing.start_classes[fold][std::size_t(
            classes.class_of(white_to_move ? evals_[k] : -evals_[k]))] += 1;
        break;
    }
    record_result(true);
    for (auto key : game_keys_) collected_.positions[fold].add(key);
    ++collected_.games_accepted;
    collected_.games_without_transitions += !any_transition;
}

namespace {

class CollectingConsumer : public games::ChunkConsumer {
  public:
    CollectingConsumer(const CollectorSettings& settings,
                       const std::vector<games::PairedGameFile>& files)
        : collector_(settings, files) {}

    games::ChunkReport consume(const games::TextChunk& chunk) override {
        std::uint64_t games_before = collector_.collected().games_read;
        collector_.begin_chunk(chunk.file_index);
        collector_.read(chunk.text);
        games::ChunkReport report;
        report.games = collector_.collected().games_read - games_before;
        report.problems = collector_.problems();
        return report;
    }

    CollectedGames& collected() { return collector_.collected(); }

  private:
    ChainCollector collector_;
};

}  // namespace

Collection collect_games(const std::vector<games::PairedGameFile>& files,
                         const CollectorSettings& settings, int threads,
                         const games::ReadSettings& reading, games::ReadProgress* progress) {
    std::vector<std::unique_ptr<CollectingConsumer>> workers;
    std::vector<games::ChunkConsumer*> consumers;
    for (int i = 0; i < std::max(1, threads); ++i) {
        workers.push_back(std::make_unique<CollectingConsumer>(settings, files));
        consumers.push_back(workers.back().get());
    }
    std::vector<std::filesystem::path> paths;
    for (const auto& file : files) paths.push_back(file.path);
    Collection result;
    result.files = games::read_in_chunks(paths, consumers, reading, progress);
    // The first thread's tallies become the result, so that a single thread merges nothing.
    result.games = std::move(workers[0]->collected());
    for (std::size_t i = 1; i < workers.size(); ++i)
        result.games.merge(std::move(workers[i]->collected()));
    return result;
}

}  // namespace wdl::markov
