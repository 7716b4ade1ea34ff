#include "wdl/tablebase/generator.hpp"

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <exception>
#include <memory>
#include <stdexcept>

#include "rules.hpp"
#include "wdl/tablebase/table_index.hpp"
#include "wdl/util/error.hpp"

namespace wdl::tablebase {
namespace {

using chess::Color;
using rules::MoveKind;

// Codes used only while generating (code::loss of these plies is beyond code::max_plies).
constexpr std::uint8_t kUnknown = code::draw;
constexpr std::uint8_t kFinalDraw = 254;     // stalemate, or only drawing conversions
constexpr std::uint8_t kNoConversion = 253;  // in the conversion array: no capture/promotion

// The first exception of an OpenMP region's iterations, kept for the thread that started the
// region: an exception leaving a worker would end the process (std::terminate).
class RegionFailure {
  public:
    // Runs one iteration's body unless an earlier one failed (the rest are skipped).
    template <typename Body>
    void run(Body&& body) noexcept {
        if (failed_.load(std::memory_order_relaxed)) return;
        try {
            body();
        } catch (...) {
#pragma omp critical(wdl_tablebase_region_failure)
            if (!failure_) failure_ = std::current_exception();
            failed_.store(true, std::memory_order_relaxed);
        }
    }
    // After the region: rethrows the exception, if any.
    void rethrow_if_failed() const {
        if (failure_) std::rethrow_exception(failure_);
    }

  private:
    std::atomic<bool> failed_{false};
    std::exception_ptr failure_;
};

// Higher is better for the side to move: short wins, draws, long losses.
int preference(Value value) {
    if (value.outcome == Outcome::Win) return 1000 - value.plies;
    if (value.outcome == Outcome::Loss) return -1000 + value.plies;
    return 0;
}

class Generator {
  public:
    Generator(const Material& material, Metric metric, const SubtableLookup& subtables)
        : material_(material), metric_(metric), index_(material) {
        for (int side = 0; side < 2; ++side) {
            codes_[std::size_t(side)] =
                std::make_unique<std::atomic<std::uint8_t>[]>(index_.size());
            conversion_[std::size_t(side)] =
                std::make_unique<std::atomic<std::uint8_t>[]>(index_.size());
        }
        for (const Material& successor : successor_endgames(material)) {
            if (successor == material) continue;
            const Table* table = subtables(successor);
            if (!table) {
                throw wdl::Error("the " + std::string(metric_name(metric)) + " table " +
                                 successor.name() + " is needed to generate " + material.name());
            }
            if (!(table->material() == successor) || table->metric() != metric)
                throw wdl::Error("the table given for " + successor.name() + " " +
                                 metric_name(metric) + " is the " + metric_name(table->metric()) +
                                 " table of " + table->material().name());
            subtables_.emplace_back(successor, table);
        }
    }

    Table run(GenerationStats* stats);

  private:
    std::atomic<std::uint8_t>& code_at(Color side, std::uint64_t index) {
        return codes_[std::size_t(side)][index];
    }
    std::uint8_t load(Color side, std::uint64_t index) {
        return code_at(side, index).load(std::memory_order_relaxed);
    }
    void store(Color side, std::uint64_t index, std::uint8_t c) {
        code_at(side, index).store(c, std::memory_order_relaxed);
    }

    std::uint64_t initialize(Color side);
    // The value of a capture or promotion for the side that makes it.
    Value conversion_value(const Position& successor) const;
    // The best value of the en-passant captures for the side to move of `successor`.
    std::optional<Value> en_passant_value(const Position& successor) const;
    // The value of an in-table successor for its side to move, if final by level `level`:
    // losses once set, wins of at most level + 1 plies, final draws.
    std::optional<Value> known_value(const Position& successor, MoveKind kind, int level);
    // Sets the position lost if every move is known to lose by now; returns the plies set or -1.
    int verify_loss(Color side, std::uint64_t index, int level);
    // For positions with a double push into an en-passant capture: both directions forward.
    int evaluate_forward(Color side, std::uint64_t index, int level);
    int propagate_losses(int level);
    int propagate_wins(int level);
    int evaluate_special(int level);

    Material material_;
    Metric metric_;
    TableIndex index_;
    // Looked up once, before the parallel regions: the OpenMP workers read the tables without
    // calling the lookup, which may take a lock (TableSet's) and must never stall a region.
    std::vector<std::pair<Material, const Table*>> subtables_;
    std::array<std::unique_ptr<std::atomic<std::uint8_t>[]>, 2> codes_;
    std::array<std::unique_ptr<std::atomic<std::uint8_t>[]>, 2> conversion_;
    // Positions with a double push after which en passant can be captured: the retrograde
    // step does not see the capture, so they are evaluated forwards at every level.
    std::vector<std::pair<Color, std::uint64_t>> special_;
};

Value Generator::conversion_value(const Position& successor) const {
    Value value;  // two bare kings: a draw
    if (successor.count > 2) {
        Material material = Material::of(successor).canonical();
        auto table = std::find_if(subtables_.begin(), subtables_.end(),
                                  [&](const auto& subtable) { return subtable.first == material; });
        if (table == subtables_.end())
            throw std::logic_error("a conversion into " + material.name() +
                                   ", which is not among its subgames");
        auto probed = table->second->probe(successor);
        if (!probed)
            throw wdl::Error("the " + std::string(metric_name(metric_)) + " table of " +
                             material.name() + " has no value for " + to_fen(successor));
        value = *probed;
    }
    if (metric_ == Metric::DTC && value.outcome != Outcome::Draw) value.plies = 0;
    return value.before_move();
}

std::optional<Value> Generator::en_passant_value(const Position& successor) const {
    if (!rules::can_capture_en_passant(successor)) return std::nullopt;
    std::optional<Value> best;
    rules::for_each_move(successor, [&](const Position& after, MoveKind kind) {
        // The only capture landing on the en-passant square is the en-passant capture.
        bool lands = false;
        for (int i = 0; i < after.count; ++i)
            lands |= after.men[std::size_t(i)].square == successor.en_passant &&
                     after.men[std::size_t(i)].color == successor.side_to_move;
        if (kind != MoveKind::Capture || !lands || after.count != successor.count - 1) return;
        Value value = conversion_value(after);
        if (!best || preference(value) > preference(*best)) best = value;
    });
    return best;
}

std::optional<Value> Generator::known_value(const Position& successor, MoveKind kind, int level) {
    std::uint8_t c = load(successor.side_to_move, index_.index_of(successor));
    std::optional<Value> table;
    if (code::is_loss(c) || c == kFinalDraw || (code::is_win(c) && code::plies_of(c) <= level + 1))
        table = code::value_of(c == kFinalDraw ? code::draw : c);
    if (kind != MoveKind::DoublePush) return table;
    auto capture = en_passant_value(successor);
    if (!capture) return table;
    if (table) return preference(*capture) > preference(*table) ? *capture : *table;
    // The table value is a win beyond level + 1 or not yet known: only a capture winning
    // sooner decides.
    if (capture->outcome == Outcome::Win && capture->plies <= level + 1) return capture;
    return std::nullopt;
}

std::uint64_t Generator::initialize(Color side) {
    std::uint64_t legal = 0;
    std::vector<std::pair<Color, std::uint64_t>> special;
    RegionFailure failure;
#pragma omp parallel for schedule(dynamic, 4096) reduction(+ : legal)
    for (std::uint64_t index = 0; index < index_.size(); ++index) {
        failure.run([&] {
            Position position = index_.position_at(index, side);
            conversion_[std::size_t(side)][index].store(kNoConversion, std::memory_order_relaxed);
            if (!rules::is_legal(position) || index_.index_of(position) != index) {
                store(side, index, code::none);
                return;
            }
            ++legal;
            bool any_move = false, in_table = false, has_special = false;
            std::optional<Value> best;
            rules::for_each_move(position, [&](const Position& successor, MoveKind kind) {
                any_move = true;
                if (!rules::is_conversion(kind)) {
                    in_table = true;
                    if (kind == MoveKind::DoublePush && rules::can_capture_en_passant(successor))
                        has_special = true;
                    return;
                }
                Value value = conversion_value(successor);
                if (!best || preference(value) > preference(*best)) best = value;
            });
            if (has_special) {
#pragma omp critical
                special.emplace_back(side, index);
            }
            std::uint8_t c = kUnknown;
            if (!any_move) {
                c = rules::in_check(position, side) ? code::loss(0) : kFinalDraw;
            } else if (!in_table) {
                c = best->outcome == Outcome::Draw ? kFinalDraw : code::of(*best);
            } else if (best) {
                conversion_[std::size_t(side)][index].store(code::of(*best),
                                                            std::memory_order_relaxed);
                if (best->outcome == Outcome::Win) c = code::of(*best);
            }
            store(side, index, c);
        });
    }
    failure.rethrow_if_failed();
    special_.insert(special_.end(), special.begin(), special.end());
    return legal;
}

int Generator::verify_loss(Color side, std::uint64_t index, int level) {
    std::uint8_t conversion = conversion_[std::size_t(side)][index].load(std::memory_order_relaxed);
    if (conversion != kNoConversion && !code::is_loss(conversion)) return -1;
    int plies = conversion == kNoConversion ? 0 : code::plies_of(conversion);
    bool lost = true;
    Position position = index_.position_at(index, side);
    rules::for_each_move(position, [&](const Position& successor, MoveKind kind) {
        if (!lost || rules::is_conversion(kind)) return;
        auto value = known_value(successor, kind, level);
        if (!value || value->outcome != Outcome::Win) {
            lost = false;
            return;
        }
        plies = std::max(plies, value->plies + 1);
    });
    if (!lost) return -1;
    store(side, index, code::loss(plies));
    return plies;
}

int Generator::evaluate_forward(Color side, std::uint64_t index, int level) {
    std::uint8_t current = load(side, index);
    if (code::is_loss(current) || current == kFinalDraw ||
        (code::is_win(current) && code::plies_of(current) <= level + 1))
        return -1;
    std::optional<int> win;
    Position position = index_.position_at(index, side);
    rules::for_each_move(position, [&](const Position& successor, MoveKind kind) {
        if (rules::is_conversion(kind)) return;
        auto value = known_value(successor, kind, level);
        if (value && value->outcome == Outcome::Loss && value->plies <= level)
            win = std::min(win.value_or(value->plies + 1), value->plies + 1);
    });
    if (win) {
        if (current == kUnknown || code::plies_of(current) > *win)
            store(side, index, code::win(*win));
        return *win;
    }
    return current == kUnknown ? verify_loss(side, index, level) : -1;
}

int Generator::propagate_losses(int level) {
    int highest = -1;
    for (Color side : {Color::White, Color::Black}) {
        const Color mover = chess::opposite(side);
        RegionFailure failure;
#pragma omp parallel for schedule(dynamic, 4096) reduction(max : highest)
        for (std::uint64_t index = 0; index < index_.size(); ++index) {
            failure.run([&] {
                if (load(side, index) != code::loss(level)) return;
                Position position = index_.position_at(index, side);
                rules::for_each_unmove(
                    position, [&](const Position& predecessor, chess::Square passed) {
                        if (passed != chess::no_square) {
                            Position pushed = position;
                            pushed.en_passant = passed;
                            if (rules::can_capture_en_passant(pushed))
                                return;  // a special position
                        }
                        std::uint64_t target = index_.index_of(predecessor);
                        std::uint8_t c = load(mover, target);
                        if (c == kUnknown || (code::is_win(c) && code::plies_of(c) > level + 1)) {
                            store(mover, target, code::win(level + 1));
                            highest = std::max(highest, level + 1);
                        }
                    });
            });
        }
        failure.rethrow_if_failed();
    }
    return highest;
}

int Generator::propagate_wins(int level) {
    int highest = -1;
    for (Color side : {Color::White, Color::Black}) {
        const Color mover = chess::opposite(side);
        RegionFailure failure;
#pragma omp parallel for schedule(dynamic, 4096) reduction(max : highest)
        for (std::uint64_t index = 0; index < index_.size(); ++index) {
            failure.run([&] {
                if (load(side, index) != code::win(level + 1)) return;
                Position position = index_.position_at(index, side);
                rules::for_each_unmove(position, [&](const Position& predecessor, chess::Square) {
                    std::uint64_t target = index_.index_of(predecessor);
                    if (load(mover, target) != kUnknown) return;
                    highest = std::max(highest, verify_loss(mover, target, level));
                });
            });
        }
        failure.rethrow_if_failed();
    }
    return highest;
}

int Generator::evaluate_special(int level) {
    int highest = -1;
    for (auto [side, index] : special_)
        highest = std::max(highest, evaluate_forward(side, index, level));
    return highest;
}

Table Generator::run(GenerationStats* stats) {
    std::uint64_t legal = initialize(Color::White) + initialize(Color::Black);
    int highest = 0;
    for (Color side : {Color::White, Color::Black})
        for (std::uint64_t index = 0; index < index_.size(); ++index) {
            std::uint8_t c = load(side, index);
            if (c != code::none && c != kFinalDraw && c != kUnknown)
                highest = std::max(highest, code::plies_of(c));
        }
    int level = 0;
    for (; level <= highest + 1; ++level) {
        highest = std::max(highest, propagate_losses(level));
        highest = std::max(highest, evaluate_special(level));
        highest = std::max(highest, propagate_wins(level));
        if (highest > code::max_plies)
            throw std::logic_error(material_.name() + ": depth beyond the table format");
    }
    std::array<std::vector<std::uint8_t>, 2> codes;
    for (int side = 0; side < 2; ++side) {
        codes[std::size_t(side)].resize(index_.size());
        for (std::uint64_t index = 0; index < index_.size(); ++index) {
            std::uint8_t c = codes_[std::size_t(side)][index].load(std::memory_order_relaxed);
            codes[std::size_t(side)][index] = c == kFinalDraw ? code::draw : c;
        }
    }
    if (stats) *stats = {level, legal};
    return Table(material_, metric_, std::move(codes[0]), std::move(codes[1]));
}

}  // namespace

Table generate_table(const Material& material, Metric metric, const SubtableLookup& subtables,
                     int threads, GenerationStats* stats) {
    if (!material.is_canonical() || material.men() > kMaxMen || material.men() < 3)
        throw std::invalid_argument("cannot generate a " + std::string(metric_name(metric)) +
                                    " table for " + material.name());
    // OpenMP's thread count is the process's: restored however the generation ends.
    struct ThreadCount {
        int previous = omp_get_max_threads();
        ~ThreadCount() { omp_set_num_threads(previous); }
    } restore;
    if (threads > 0) omp_set_num_threads(threads);
    Generator generator(material, metric, subtables);  // its errors name the table
    try {
        return generator.run(stats);
    } catch (const std::exception& failure) {
        throw wdl::Error("cannot generate the " + std::string(metric_name(metric)) + " table of " +
                         material.name() + ": " + failure.what());
    }
}

}  // namespace wdl::tablebase
