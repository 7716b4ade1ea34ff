#pragma once

#include <map>
#include <string>
#include <vector>

#include "wdl/competence/analysis.hpp"
#include "wdl/competence/posterior.hpp"

namespace wdl::competence {

// What a report states besides the analysis itself.
struct ReportContext {
    std::string source;  // the tables' description
    tablebase::Metric metric = tablebase::Metric::DTC;
    const AnalysisSettings* settings = nullptr;
    // Log priors by group (from --prior); groups without one have a uniform prior.
    const std::map<std::string, std::vector<double>>* priors = nullptr;
};

// The posterior of one group under its prior.
std::vector<double> group_posterior(const std::string& group, const GroupTotals& totals,
                                    const ReportContext& context);

// Counts of games, positions and decisions, and of what was skipped.
std::string format_counts(const AnalysisResult& result, const ReportContext& context);
// One table of groups: decisions, best moves, value losses, and the posterior of c.
std::string format_groups(const AnalysisResult& result, const ReportContext& context);
// Wins not converted and draws not held, by endgame and engine.
std::string format_conversions(const AnalysisResult& result);

// The --json twin of the printed report: parameters, counts, per group the summary and the
// log-likelihood and posterior on the grid (log-likelihoods of runs on the same grid add),
// and the conversion summary with the games listed.
std::string report_json(const AnalysisResult& result, const ReportContext& context);

}  // namespace wdl::competence
