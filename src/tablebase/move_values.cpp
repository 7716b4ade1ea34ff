#include "wdl/tablebase/move_values.hpp"

#include <map>
#include <mutex>

#include "rules.hpp"
#include "wdl/tablebase/gaviota.hpp"
#include "wdl/tablebase/table_set.hpp"

namespace wdl::tablebase {
namespace {

using chess::Color;
using chess::PieceType;

int preference(Value value) {
    if (value.outcome == Outcome::Win) return 1000 - value.plies;
    if (value.outcome == Outcome::Loss) return -1000 + value.plies;
    return 0;
}

// The shared walk over the legal moves; subclasses value one successor position.
class PositionSource : public TableSource {
  public:
    int max_depth(const Material& material) override {
        std::lock_guard lock(depth_mutex_);
        Material canonical = material.canonical();
        if (auto found = depths_.find(canonical); found != depths_.end()) return found->second;
        int deepest = own_max_depth(canonical);
        for (const Material& successor : successor_endgames(canonical)) {
            if (successor == canonical || deepest < 0) continue;
            int depth = own_max_depth(successor);
            deepest = depth < 0 ? -1 : std::max(deepest, depth);
        }
        return depths_[canonical] = deepest;
    }

    MoveValuesResult move_values(const chess::Board& board) override {
        MoveValuesResult result;
        auto position = position_from_board(board);
        if (!position) {
            result.uncovered = "not a table position";
            return result;
        }
        if (position->count > max_men()) {
            result.uncovered = "more than " + std::to_string(max_men()) + " men";
            return result;
        }
        chess::MoveList moves;
        board.legal_moves(moves);
        std::vector<MoveValue> values;
        for (const chess::Move& move : moves) {
            bool capture = move.kind == chess::MoveKind::EnPassant ||
                           (move.kind != chess::MoveKind::Castling && board.piece_type_on(move.to));
            bool pawn = board.piece_type_on(move.from) == PieceType::Pawn;
            chess::Board after = board;
            after.play(move);
            auto successor = position_from_board(after);
            auto value = successor ? successor_value(*successor, capture,
                                                     move.kind == chess::MoveKind::Promotion,
                                                     result.uncovered)
                                   : std::nullopt;
            if (!value) {
                if (result.uncovered.empty()) result.uncovered = "not a table position";
                return result;
            }
            values.push_back({move, *value, capture || pawn});
        }
        result.moves = std::move(values);
        return result;
    }

  protected:
    // The value of a successor for its side to move, or std::nullopt with `uncovered` set.
    virtual std::optional<Value> successor_value(const Position& successor, bool capture,
                                                 bool promotion, std::string& uncovered) = 0;
    // The greatest depth of one canonical endgame's own positions, -1 if not available.
    virtual int own_max_depth(const Material& canonical) = 0;

  private:
    std::mutex depth_mutex_;
    std::map<Material, int> depths_;
};

int deepest_code(const Table& table) {
    int deepest = 0;
    for (Color side : {Color::White, Color::Black})
        for (std::uint8_t c : table.codes(side))
            if (c != code::none) deepest = std::max(deepest, code::value_of(c).winner_moves());
    return deepest;
}

class OwnSource : public PositionSource {
  public:
    explicit OwnSource(TableSet& tables) : tables_(tables) {}
    Metric metric() const override { return tables_.metric(); }
    std::string description() const override {
        return std::string("own ") + metric_name(metric()) + " tables in " +
               tables_.directory().string();
    }
    int max_men() const override { return kMaxMen; }

  protected:
    int own_max_depth(const Material& canonical) override {
        const Table* table = tables_.find(canonical);
        return table ? deepest_code(*table) : -1;
    }

    std::optional<Value> successor_value(const Position& successor, bool capture, bool promotion,
                                         std::string& uncovered) override {
        auto value = position_value(successor, uncovered);
        if (value && (capture || promotion) && metric() == Metric::DTC &&
            value->outcome != Outcome::Draw)
            value->plies = 0;  // converted: the goal of DTC is reached
        return value;
    }

  private:
    std::optional<Value> position_value(const Position& position, std::string& uncovered) {
        if (position.count == 2) return Value{};
        const Table* table = tables_.find(Material::of(position));
        if (!table) {
            uncovered = "no " + std::string(metric_name(metric())) + " table for " +
                        Material::of(position).canonical().name();
            return std::nullopt;
        }
        auto value = table->probe(position);
        if (!value || !rules::can_capture_en_passant(position)) return value;
        // The table does not store en-passant rights: the captures compete with the rest.
        std::optional<Value> best = value;
        bool covered = true;
        rules::for_each_move(position, [&](const Position& after, rules::MoveKind kind) {
            if (kind != rules::MoveKind::Capture || after.count != position.count - 1) return;
            bool en_passant = false;
            for (int i = 0; i < after.count; ++i)
                en_passant |= after.men[std::size_t(i)].square == position.en_passant &&
                              after.men[std::size_t(i)].color == position.side_to_move;
            if (!en_passant) return;
            auto captured = position_value(after, uncovered);
            if (!captured) {
                covered = false;
                return;
            }
            if (metric() == Metric::DTC && captured->outcome != Outcome::Draw) captured->plies = 0;
            Value mine = captured->before_move();
            if (preference(mine) > preference(*best)) best = mine;
        });
        if (!covered) return std::nullopt;
        return best;
    }

    TableSet& tables_;
};

class GaviotaSource : public PositionSource {
  public:
    explicit GaviotaSource(GaviotaTables& tables) : tables_(tables) {}
    Metric metric() const override { return Metric::DTM; }
    std::string description() const override { return "Gaviota DTM tables"; }
    int max_men() const override { return 3; }

  protected:
    // Every placement of the (3) men with either side to move, probed.
    int own_max_depth(const Material& canonical) override {
        Position position;
        for (int color = 0; color < 2; ++color)
            for (int type = 0; type < 6; ++type)
                for (int n = 0; n < canonical.count(Color(color), PieceType(type)); ++n)
                    position.add(Color(color), PieceType(type), 0);
        if (position.count != 3) return -1;
        int deepest = 0;
        for (int a = 0; a < 64; ++a)
            for (int b = 0; b < 64; ++b)
                for (int c = 0; c < 64; ++c) {
                    if (a == b || a == c || b == c) continue;
                    position.men[0].square = chess::Square(a);
                    position.men[1].square = chess::Square(b);
                    position.men[2].square = chess::Square(c);
                    for (Color side : {Color::White, Color::Black}) {
                        position.side_to_move = side;
                        if (!rules::is_legal(position)) continue;
                        if (auto value = tables_.probe(position))
                            deepest = std::max(deepest, value->winner_moves());
                    }
                }
        return deepest;
    }

    std::optional<Value> successor_value(const Position& successor, bool, bool,
                                         std::string& uncovered) override {
        if (successor.count == 2) return Value{};
        auto value = tables_.probe(successor);
        if (!value)
            uncovered = "no Gaviota table for " + Material::of(successor).canonical().name();
        return value;
    }

  private:
    GaviotaTables& tables_;
};

}  // namespace

Value best_value(const std::vector<MoveValue>& moves) {
    Value best{Outcome::Loss, 0};
    bool first = true;
    for (const MoveValue& move : moves) {
        Value value = move.for_mover();
        if (first || preference(value) > preference(best)) best = value;
        first = false;
    }
    return best;
}

std::unique_ptr<TableSource> make_own_source(TableSet& tables) {
    return std::make_unique<OwnSource>(tables);
}

std::unique_ptr<TableSource> make_gaviota_source(GaviotaTables& tables) {
    return std::make_unique<GaviotaSource>(tables);
}

}  // namespace wdl::tablebase
