#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "wdl/competence/model.hpp"

namespace wdl::competence {

// What a posterior on the grid says about c. The interval is the central 90 % of the
// discrete posterior (its 5 % and 95 % quantiles on the grid).
struct PosteriorSummary {
    double mean = 0;
    double sd = 0;
    double map = 0;  // the grid point of highest posterior probability
    double low = 0;
    double high = 0;
    // The posterior is cut by the grid: its probability at the grid's last (first) point is
    // 10 % of the peak's or more, so a wider grid would move the estimates.
    bool piles_up_high = false;
    bool piles_up_low = false;
};

// Normalised posterior probabilities from a log prior and a log-likelihood on one grid
// (an empty log prior is uniform).
std::vector<double> posterior(const std::vector<double>& log_prior,
                              const std::vector<double>& log_likelihood);

PosteriorSummary summarize(const CompetenceGrid& grid, const std::vector<double>& posterior);

// Priors from an earlier run's --json (Haworth & Andrist's continuing analyser): each group's
// posterior becomes its prior. Throws wdl::Error naming the file if it is unreadable, not such a
// file, or made on another grid.
std::map<std::string, std::vector<double>> read_prior_file(const std::filesystem::path& path,
                                                           const CompetenceGrid& grid);

}  // namespace wdl::competence
