#include "wdl/scale/paired_counter.hpp"

#include <memory>

#include "wdl/counts/position_key.hpp"
#include "wdl/games/engine_filter.hpp"
#include "wdl/games/game_rules.hpp"
#include "wdl/pgn/reader.hpp"

namespace wdl::scale {
namespace {

constexpr const char* kUnknownPlayers = "players not two different engines";
constexpr const char* kNotMatched = "no player matches --matchEngine";

counts::Grouping role_grouping(int game_groups) { return {counts::GroupBy::Game, 2 * game_groups}; }

}  // namespace

PairingCounts::PairingCounts(int groups_per_role)
    : game_groups(groups_per_role), counts(role_grouping(groups_per_role)) {}

void PairingCounts::merge(PairingCounts&& other) {
    // Names seen on different threads: the smallest, so that the choice is the same.
    for (int role = 0; role < 2; ++role)
        if (names[role].empty() || (!other.names[role].empty() && other.names[role] < names[role]))
            names[role] = other.names[role];
    counts.merge(other.counts);
    games += other.games;
    for (int role = 0; role < 2; ++role) positions[role] += other.positions[role];
}

void PairedTally::add(const PairedTally& other) {
    games_read += other.games_read;
    games_accepted += other.games_accepted;
    for (const auto& [reason, count] : other.skipped) skipped[reason] += count;
    annotator_evals += other.annotator_evals;
}

PairedCounter::PairedCounter(const PairedCountingRules& rules,
                             const std::vector<games::PairedGameFile>& files)
    : rules_(rules),
      files_(files),
      replay_rules_{rules.eval_parsing, rules.fix_fen, false},
      replay_(replay_rules_, *this),
      key_rules_(rules.max_counted_move, rules.bin_width) {
    for (auto& keys : game_keys_) keys.reserve(256);
}

void PairedCounter::begin_chunk(std::size_t file_index, std::uint64_t offset) {
    file_index_ = file_index;
    chunk_offset_ = offset;
    replay_.begin_chunk();
}

void PairedCounter::read(std::string_view text) { pgn::read_games(text, replay_); }

void PairedCounter::begin_game(std::size_t offset) {
    ++tally_.games_read;
    game_group_ = rules_.grouping->group_of(file_index_, chunk_offset_ + offset);
    for (auto& keys : game_keys_) keys.clear();
}

games::TagVerdict PairedCounter::reject(const std::string& reason, std::string warning) {
    ++tally_.skipped[reason];
    return {false, std::move(warning)};
}

PairingCounts& PairedCounter::pairing_of(const games::GameTags& tags) {
    const auto& file = files_[file_index_];
    auto key = games::pairing_key(tags.white, tags.black, file);
    auto [at, inserted] = pairings_.try_emplace(key, rules_.grouping->grouping().groups);
    PairingCounts& pairing = at->second;
    if (inserted) pairing.test = file.test;
    bool new_white = games::white_is_new(tags.white, tags.black, file);
    role_of_colour_ =
        new_white ? std::array{games::kNew, games::kBase} : std::array{games::kBase, games::kNew};
    const std::string& new_name = new_white ? tags.white : tags.black;
    const std::string& base_name = new_white ? tags.black : tags.white;
    std::array<std::string, 2> names = {file.new_name.empty() ? new_name : file.new_name,
                                        file.base_name.empty() ? base_name : file.base_name};
    for (int role = 0; role < 2; ++role)
        if (pairing.names[role].empty() || names[role] < pairing.names[role])
            pairing.names[role] = names[role];
    return pairing;
}

games::TagVerdict PairedCounter::accept(const games::GameTags& tags) {
    if (auto reason = tags.rejection())
        return reject(games::describe(*reason), games::rejection_warning(tags, *reason));
    // Both engines of a game are compared: the filter picks the games, as markovWDL's.
    if (!games::matched_players(rules_.engine_filter, tags.white, tags.black).any())
        return reject(kNotMatched);
    if (tags.white.empty() || tags.black.empty() || tags.white == tags.black)
        return reject(kUnknownPlayers, "players \"" + tags.white + "\" and \"" + tags.black +
                                           "\" are not two different engines");
    white_outcome_ = *tags.white_outcome;
    pairing_ = &pairing_of(tags);
    return {};
}

// An engine's eval of the position before its move is that engine's: it goes to its role.
void PairedCounter::see_position(const chess::Board& board, int eval, int,
                                 games::EvalComment comment) {
    if (comment != games::EvalComment::OfMoveFrom) {
        ++tally_.annotator_evals;
        return;
    }
    auto key = key_rules_.key_of(board, white_outcome_, eval);
    if (!key) return;
    games::Role role = role_of_colour_[board.side_to_move() == chess::Color::White ? 0 : 1];
    game_keys_[role].push_back(*key);
}

void PairedCounter::skip_game(games::GameSkipReason reason) {
    ++tally_.skipped[games::describe(reason)];
}

void PairedCounter::finish_game(const chess::Board&) {
    PairingCounts& pairing = *pairing_;
    for (games::Role role : {games::kNew, games::kBase}) {
        const auto& keys = game_keys_[role];
        if (keys.empty()) continue;
        pairing.counts.begin_game(pairing.group_of(role, game_group_));
        pairing.counts.commit_game(keys);
        pairing.positions[role] += keys.size();
    }
    ++pairing.games;
    ++tally_.games_accepted;
}

namespace {

class CountingConsumer : public games::ChunkConsumer {
  public:
    CountingConsumer(const PairedCountingRules& rules,
                     const std::vector<games::PairedGameFile>& files)
        : counter_(rules, files) {}

    games::ChunkReport consume(const games::TextChunk& chunk) override {
        std::uint64_t games_before = counter_.tally().games_read;
        counter_.begin_chunk(chunk.file_index, chunk.offset);
        counter_.read(chunk.text);
        games::ChunkReport report;
        report.games = counter_.tally().games_read - games_before;
        report.problems = counter_.problems();
        return report;
    }

    PairedCounter& counter() { return counter_; }

  private:
    PairedCounter counter_;
};

}  // namespace

PairedCollection count_pairings(const std::vector<games::PairedGameFile>& files,
                                const PairedCountingRules& rules, int threads,
                                games::ReadProgress* progress) {
    std::vector<std::unique_ptr<CountingConsumer>> workers;
    std::vector<games::ChunkConsumer*> consumers;
    for (int i = 0; i < std::max(1, threads); ++i) {
        workers.push_back(std::make_unique<CountingConsumer>(rules, files));
        consumers.push_back(workers.back().get());
    }
    std::vector<std::filesystem::path> paths;
    for (const auto& file : files) paths.push_back(file.path);
    PairedCollection result;
    result.files = games::read_in_chunks(paths, consumers, {}, progress);
    for (auto& worker : workers) {
        result.tally.add(worker->counter().tally());
        for (auto& [key, pairing] : worker->counter().pairings()) {
            auto [at, inserted] = result.pairings.try_emplace(key, std::move(pairing));
            if (!inserted) at->second.merge(std::move(pairing));
        }
    }
    return result;
}

}  // namespace wdl::scale
