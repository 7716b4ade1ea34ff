#pragma once
// --model for every program that takes one WDL model, and what may name a model for any option
// that takes one: said once, as model::load_model accepts it in every program.

#include <CLI/CLI.hpp>
#include <string>

#include "wdl/model/published_models.hpp"

inline std::string model_spec_help() {
    return "a registry name (" + wdl::model::published_model_names() +
           "), a scoreWDL --json file (or any JSON file with as and bs), a Stockfish source tree "
           "DIR or a revision DIR@REV of a Stockfish git checkout";
}

// --model MODEL: `purpose` says what the model is for, `details` (a default, ...) follows the
// list of what names one.
template <typename Target>
CLI::Option* add_model_option(CLI::App& app, Target& model, const std::string& purpose,
                              const std::string& details = "") {
    return app.add_option("--model", model, purpose + ": " + model_spec_help() + details);
}
