#include "wdl/tablebase/move_values.hpp"

#include "rules.hpp"
#include "wdl/tablebase/gaviota.hpp"
#include "wdl/tablebase/table_set.hpp"

namespace wdl::tablebase {
namespace {

using chess::PieceType;

int preference(Value value) {
    if (value.outcome == Outcome::Win) return 1000 - value.plies;
    if (value.outcome == Outcome::Loss) return -1000 + value.plies;
    return 0;
}

// The shared walk over the legal moves; subclasses value one successor position.
class PositionSource : public TableSource {
  public:
    MoveValuesResult move_values(const chess::Board& board) override {
        MoveValuesResult result;
        auto position = position_from_fen(board.fen());
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
            auto successor = position_from_fen(after.fen());
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
};

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
