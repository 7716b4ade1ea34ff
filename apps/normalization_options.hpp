#pragma once
// --NormalizeToPawnValue and --NormalizeData as the programs that read displayed evals take
// them (scoreWDL keeps its own: the original's message when both are given).

#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <optional>
#include <string>

#include "number_checks.hpp"
#include "wdl/model/normalization.hpp"

// `whose`: whose displayed evals these are, e.g. "the engine that played the counted games";
// `fallback`: what reads them when neither option is given (by default Stockfish's JSON).
inline void add_normalization_options(CLI::App& app, std::optional<int>& pawn_value,
                                      std::optional<std::string>& data, const std::string& whose,
                                      const std::string& fallback = "") {
    auto* static_option =
        app.add_option("--NormalizeToPawnValue", pawn_value,
                       "How " + whose +
                           " displayed its evals: static, the p_a that converted internal evals "
                           "to cp (as scoreWDL takes it)")
            ->check(number_checks::positive());
    app.add_option("--NormalizeData", data,
                   fmt::format("... or dynamic: a model (registry name, scoreWDL --json file, "
                               "Stockfish source) or JSON (default: {})",
                               fallback.empty() ? fmt::format("{}, Stockfish's",
                                                              wdl::model::kDefaultNormalizeData)
                                                : fallback))
        ->excludes(static_option);
}
