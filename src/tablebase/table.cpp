#include "wdl/tablebase/table.hpp"

#include "wdl/tablebase/table_index.hpp"

namespace wdl::tablebase {

const char* metric_name(Metric metric) {
    std::string_view name = util::name_of(kMetricNames, metric);
    return name.empty() ? "?" : name.data();
}

std::optional<Metric> parse_metric(std::string_view name) {
    return util::value_named_ignoring_case(kMetricNames, name);
}

int Value::winner_moves() const {
    if (outcome == Outcome::Win) return (plies + 1) / 2;
    if (outcome == Outcome::Loss) return plies / 2;
    return 0;
}

Value Value::before_move() const {
    if (outcome == Outcome::Win) return {Outcome::Loss, plies + 1};
    if (outcome == Outcome::Loss) return {Outcome::Win, plies + 1};
    return {};
}

namespace code {

Value value_of(std::uint8_t c) {
    if (is_win(c)) return {Outcome::Win, plies_of(c)};
    if (is_loss(c)) return {Outcome::Loss, (c - 2) / 2};
    return {};
}

std::uint8_t of(Value value) {
    if (value.outcome == Outcome::Win) return win(value.plies);
    if (value.outcome == Outcome::Loss) return loss(value.plies);
    return draw;
}

}  // namespace code

Table::Table(Material material, Metric metric, std::vector<std::uint8_t> white_to_move,
             std::vector<std::uint8_t> black_to_move)
    : material_(material),
      metric_(metric),
      index_(std::make_unique<TableIndex>(material)),
      codes_{std::move(white_to_move), std::move(black_to_move)} {}

Table::~Table() = default;
Table::Table(Table&&) noexcept = default;
Table& Table::operator=(Table&&) noexcept = default;

std::optional<Value> Table::probe(const Position& position) const {
    Material of = Material::of(position);
    if (!(of == material_) && !(of.flipped() == material_)) return std::nullopt;
    Position oriented = index_->oriented(position);
    std::uint8_t c = codes_[std::size_t(oriented.side_to_move)][index_->index_of(oriented)];
    if (c == code::none) return std::nullopt;
    return code::value_of(c);
}

}  // namespace wdl::tablebase
