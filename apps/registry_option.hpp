#pragma once
// --registry FILE (or WDLFIT_REGISTRY) for every program that takes a model by registry name, so
// that sf, sf19 or sf@DATE name the models of the user's own Stockfish clone.

#include <CLI/CLI.hpp>
#include <string>

#include "wdl/model/published_models.hpp"
#include "wdl/util/error.hpp"

inline void add_registry_option(CLI::App& app) {
    app.add_option_function<std::string>(
           "--registry",
           [](const std::string& file) {
               try {
                   wdl::model::use_registry_file(file);
               } catch (const wdl::Error& error) {
                   throw CLI::ValidationError("--registry", error.what());
               }
           },
           "A model registry file (compareWDL --history CLONE -o FILE) whose models the registry "
           "names (sf, sf18, sf@DATE) mean instead of the bundled ones")
        ->envname("WDLFIT_REGISTRY")
        ->type_name("FILE");
}
