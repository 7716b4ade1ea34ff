#include "wdl/competence/posterior.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "wdl/util/error.hpp"

namespace wdl::competence {

std::vector<double> posterior(const std::vector<double>& log_prior,
                              const std::vector<double>& log_likelihood) {
    std::vector<double> log_posterior = log_likelihood;
    for (std::size_t i = 0; i < log_prior.size() && i < log_posterior.size(); ++i)
        log_posterior[i] += log_prior[i];
    double largest = -INFINITY;
    for (double value : log_posterior) largest = std::max(largest, value);
    std::vector<double> probabilities;
    double sum = 0;
    for (double value : log_posterior) {
        double p = std::isfinite(largest) ? std::exp(value - largest) : 1.0;
        sum += probabilities.emplace_back(p);
    }
    for (double& p : probabilities) p /= sum;
    return probabilities;
}

// An end of the grid whose probability is this fraction of the peak's or more cuts off a
// noticeable part of the posterior.
constexpr double kPileUp = 0.1;

PosteriorSummary summarize(const CompetenceGrid& grid, const std::vector<double>& posterior) {
    PosteriorSummary summary;
    double square = 0, cumulative = 0, best = -1;
    bool low_found = false, high_found = false;
    for (std::size_t i = 0; i < posterior.size(); ++i) {
        double c = grid.at(i), p = posterior[i];
        summary.mean += p * c;
        square += p * c * c;
        if (p > best) best = p, summary.map = c;
        cumulative += p;
        if (!low_found && cumulative >= 0.05) low_found = true, summary.low = c;
        if (!high_found && cumulative >= 0.95 - 1e-12) high_found = true, summary.high = c;
    }
    if (!high_found) summary.high = grid.max();
    summary.sd = std::sqrt(std::max(0.0, square - summary.mean * summary.mean));
    if (!posterior.empty()) {
        summary.piles_up_high = posterior.back() >= kPileUp * best;
        summary.piles_up_low = posterior.front() >= kPileUp * best;
    }
    return summary;
}

std::map<std::string, std::vector<double>> read_prior_file(const std::filesystem::path& path,
                                                           const CompetenceGrid& grid) {
    std::ifstream in(path);
    if (!in) throw wdl::Error("cannot read the prior file " + path.string());
    nlohmann::json json = nlohmann::json::parse(in, nullptr, false);
    if (json.is_discarded() || !json.is_object() || !json.contains("grid") ||
        !json.contains("groups"))
        throw wdl::Error(path.string() + " is not a scoreCompetence --json file");
    try {
        const auto& g = json["grid"];
        CompetenceGrid theirs(g.at("min").get<double>(), g.at("max").get<double>(),
                              g.at("step").get<double>());
        if (theirs.size() != grid.size() || std::abs(theirs.min() - grid.min()) > 1e-9 ||
            std::abs(theirs.step() - grid.step()) > 1e-9)
            throw wdl::Error(path.string() + " was made on another c grid (" +
                             std::to_string(theirs.min()) + ".." + std::to_string(theirs.max()) +
                             " step " + std::to_string(theirs.step()) + ")");
        std::map<std::string, std::vector<double>> priors;
        for (const auto& group : json["groups"]) {
            std::vector<double> log_prior;
            for (double p : group.at("posterior").get<std::vector<double>>())
                log_prior.push_back(std::log(std::max(p, 1e-300)));
            if (log_prior.size() != grid.size())
                throw wdl::Error(path.string() + ": a posterior of the wrong length");
            priors[group.at("group").get<std::string>()] = std::move(log_prior);
        }
        return priors;
    } catch (const nlohmann::json::exception& error) {
        throw wdl::Error(path.string() + " is not a scoreCompetence --json file (" + error.what() +
                         ")");
    }
}

}  // namespace wdl::competence
