#pragma once

#include <cmath>
#include <optional>

// Leela Chess Zero's reading of a W/D/L triple (lc0, src/search/classic/search.cc, WDLRescale;
// the lc0 blog post "Contempt / WDL rescale"): it takes the triple as a logistic model
// W = 1/(1+exp(-(mu-1)/s)), L = 1/(1+exp(-(-mu-1)/s)) and solves for the eval mu (its score type
// "WDL_mu" shows 100 mu) and the sharpness s. For the model W = 1/(1+exp(-(x-a)/b)) of
// docs/model.md this gives mu = x / a(mom), the eval as Stockfish displays it in pawns, and
// s = b(mom) / a(mom), which at the target mom is the normalized spread.
namespace wdl::model {

struct Lc0Wdl {
    double mu = 0;         // lc0's WDL_mu, in pawns
    double sharpness = 0;  // lc0's s
};

// lc0's mu and s of the win and loss rates: with p = ln(1/l - 1) and q = ln(1/w - 1),
// s = 2 / (p + q) and mu = (p - q) / (p + q). Nothing unless w, l and d = 1 - w - l are all
// strictly between 0 and 1, where the logistic reading has no finite solution.
inline std::optional<Lc0Wdl> lc0_wdl(double win, double loss) {
    double draw = 1 - win - loss;
    if (!(win > 0 && loss > 0 && draw > 0 && win < 1 && loss < 1)) return std::nullopt;
    double p = std::log(1 / loss - 1), q = std::log(1 / win - 1);
    if (!(p + q > 0)) return std::nullopt;
    return Lc0Wdl{(p - q) / (p + q), 2 / (p + q)};
}

}  // namespace wdl::model
