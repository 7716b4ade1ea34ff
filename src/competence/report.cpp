#include "wdl/competence/report.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <nlohmann/json.hpp>

namespace wdl::competence {
namespace {

std::string percent(std::uint64_t part, std::uint64_t whole) {
    return whole ? fmt::format("{:.1f}%", 100.0 * double(part) / double(whole)) : "-";
}

std::string_view rule_name(FiftyMoveRule rule) { return util::name_of(kFiftyMoveRuleNames, rule); }

}  // namespace

std::vector<double> group_posterior(const std::string& group, const GroupTotals& totals,
                                    const ReportContext& context) {
    static const std::vector<double> uniform;
    const std::vector<double>* prior = &uniform;
    if (context.priors)
        if (auto found = context.priors->find(group); found != context.priors->end())
            prior = &found->second;
    return posterior(*prior, totals.log_likelihood);
}

std::string format_counts(const AnalysisResult& r, const ReportContext& context) {
    std::string text;
    text +=
        fmt::format("Tables: {} ({}).\n", context.source, tablebase::metric_name(context.metric));
    text += fmt::format(
        "Files: {} read, {} unreadable. Games: {} read, {} skipped, {} with a table position.\n",
        r.files.files_read, r.files.files_unreadable, r.games_read, r.games_skipped,
        r.games_with_table_positions);
    text += fmt::format(
        "Positions of 3-4 men: {}; covered by the tables: {} (book moves: {}, all moves of one "
        "value: {}); decisions: {}.\n",
        r.small_positions, r.table_positions, r.book_positions, r.indifferent, r.decisions);
    text += fmt::format("50-move rule ({}): {} decisions affected, {} skipped.\n",
                        rule_name(context.settings->fifty_move_rule), r.fifty_move_affected,
                        r.fifty_move_skipped);
    for (const auto& [why, count] : r.uncovered)
        text += fmt::format("Not covered: {} positions ({}).\n", count, why);
    return text;
}

std::string format_groups(const AnalysisResult& r, const ReportContext& context) {
    const auto& grid = context.settings->grid;
    std::string text = fmt::format(
        "Apparent competence c (grid {:g}..{:g} step {:g}, kappa {:g}; posterior mean, sd, MAP, "
        "90% interval):\n",
        grid.min(), grid.max(), grid.step(), context.settings->kappa);
    std::size_t width = 5;
    for (const auto& entry : r.groups) width = std::max(width, entry.first.size());
    text += fmt::format("{:<{}} {:>9} {:>7} {:>7} {:>7} {:>6} {:>6} {:>15}\n", "group", width,
                        "decisions", "best", "lost", "mean c", "sd", "MAP", "90% interval");
    std::size_t piled_up = 0;
    for (const auto& [group, totals] : r.groups) {
        auto summary = summarize(grid, group_posterior(group, totals, context));
        bool piles_up = summary.piles_up_high || summary.piles_up_low;
        piled_up += piles_up;
        text += fmt::format(
            "{:<{}} {:>9} {:>7} {:>7} {:>7.2f} {:>6.2f} {:>6.1f} {:>15}{}\n", group, width,
            totals.decisions, percent(totals.best_moves, totals.decisions),
            percent(totals.value_losses, totals.decisions), summary.mean, summary.sd, summary.map,
            fmt::format("[{:g}, {:g}]", summary.low, summary.high), piles_up ? " *" : "");
    }
    text +=
        "best: the share of decisions where a metric-optimal move was played; lost: where the "
        "move played lost value (win to draw or loss, draw to loss).\n";
    text += "The interval assumes the moves are independent choices of one R_c per group.\n";
    if (piled_up)
        text += fmt::format(
            "Warning: {} posterior(s), marked *, pile up at an end of the grid: the data only "
            "bound c from one side there; widen the grid (--cmin/--cmax) to see more.\n",
            piled_up);
    return text;
}

std::string format_conversions(const AnalysisResult& r) {
    std::string text = "Conversion (first table position of each game against its result):\n";
    std::size_t width = 6;
    for (const auto& entry : r.conversions) width = std::max(width, entry.first.second.size());
    text += fmt::format("{:<8} {:<{}} {:>6} {:>14} {:>8} {:>6} {:>14}\n", "endgame", "engine",
                        width, "wins", "not converted", "50-move", "draws", "not held");
    for (const auto& [key, counts] : r.conversions) {
        text += fmt::format("{:<8} {:<{}} {:>6} {:>14} {:>8} {:>6} {:>14}\n", key.first, key.second,
                            width, counts.wins,
                            fmt::format("{} ({})", counts.wins_not_converted,
                                        percent(counts.wins_not_converted, counts.wins)),
                            counts.lost_to_fifty_moves, counts.draws,
                            fmt::format("{} ({})", counts.draws_not_held,
                                        percent(counts.draws_not_held, counts.draws)));
    }
    return text;
}

std::string report_json(const AnalysisResult& r, const ReportContext& context) {
    const auto& settings = *context.settings;
    nlohmann::ordered_json json;
    json["tables"] = context.source;
    json["metric"] = tablebase::metric_name(context.metric);
    json["grid"] = {
        {"min", settings.grid.min()}, {"max", settings.grid.max()}, {"step", settings.grid.step()}};
    json["kappa"] = settings.kappa;
    json["draw_depth"] = "n1 = n2 = 1 + the greatest depth of the endgame and its subgames";
    json["fifty_move_rule"] = rule_name(settings.fifty_move_rule);
    json["prior"] = context.priors ? "from an earlier run" : "uniform";
    json["counts"] = {{"files_read", r.files.files_read},
                      {"files_unreadable", r.files.files_unreadable},
                      {"games_read", r.games_read},
                      {"games_skipped", r.games_skipped},
                      {"games_with_table_positions", r.games_with_table_positions},
                      {"positions_3_4_men", r.small_positions},
                      {"table_positions", r.table_positions},
                      {"book_positions", r.book_positions},
                      {"indifferent_positions", r.indifferent},
                      {"decisions", r.decisions},
                      {"fifty_move_affected", r.fifty_move_affected},
                      {"fifty_move_skipped", r.fifty_move_skipped},
                      {"not_covered", r.uncovered}};
    nlohmann::ordered_json groups = nlohmann::ordered_json::array();
    for (const auto& [group, totals] : r.groups) {
        auto probabilities = group_posterior(group, totals, context);
        auto summary = summarize(settings.grid, probabilities);
        groups.push_back({{"group", group},
                          {"decisions", totals.decisions},
                          {"best_moves", totals.best_moves},
                          {"value_losses", totals.value_losses},
                          {"mean", summary.mean},
                          {"sd", summary.sd},
                          {"map", summary.map},
                          {"interval90", {summary.low, summary.high}},
                          {"piles_up", summary.piles_up_high || summary.piles_up_low},
                          {"log_likelihood", totals.log_likelihood},
                          {"posterior", probabilities}});
    }
    json["groups"] = std::move(groups);
    nlohmann::ordered_json conversions = nlohmann::ordered_json::array();
    for (const auto& [key, counts] : r.conversions)
        conversions.push_back({{"endgame", key.first},
                               {"engine", key.second},
                               {"wins", counts.wins},
                               {"wins_not_converted", counts.wins_not_converted},
                               {"lost_to_fifty_move_rule", counts.lost_to_fifty_moves},
                               {"draws", counts.draws},
                               {"draws_not_held", counts.draws_not_held}});
    json["conversions"] = std::move(conversions);
    nlohmann::ordered_json failures = nlohmann::ordered_json::array();
    for (const auto& f : r.failures)
        failures.push_back({{"file", f.file},
                            {"game", f.game},
                            {"white", f.white},
                            {"black", f.black},
                            {"endgame", f.endgame},
                            {"fen", f.fen},
                            {"engine", f.engine},
                            {"table", f.table},
                            {"result", f.result},
                            {"how", f.how}});
    json["conversion_failures"] = std::move(failures);
    // Engine names come from the games' tags, which need not be UTF-8: replaced, not thrown.
    return json.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

}  // namespace wdl::competence
