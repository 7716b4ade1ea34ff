#pragma once
// --registry FILE (or WDLFIT_REGISTRY) for every program that takes a model by registry name, so
// that sf, sf19 or sf@DATE name the models of the user's own Stockfish clone.

#include <CLI/CLI.hpp>
#include <cstdlib>
#include <string>

#include "wdl/model/published_models.hpp"
#include "wdl/util/error.hpp"

// A registry file that cannot be used is an error of input (exit 1, parse_command_line), named by
// where it came from: the environment's WDLFIT_REGISTRY when that names the file.
inline void add_registry_option(CLI::App& app) {
    app.add_option_function<std::string>(
           "--registry",
           [](const std::string& file) {
               try {
                   wdl::model::use_registry_file(file);
               } catch (const wdl::Error& error) {
                   const char* variable = std::getenv("WDLFIT_REGISTRY");
                   if (variable && file == variable) {
                       throw wdl::Error(std::string("WDLFIT_REGISTRY: ") + error.what() +
                                        " (unset it, or name a registry file)");
                   }
                   throw wdl::Error(std::string("--registry: ") + error.what());
               }
           },
           "A model registry file (compareWDL --history CLONE -o FILE) whose models the registry "
           "names (sf, sf18, sf@DATE) mean instead of the bundled ones")
        ->envname("WDLFIT_REGISTRY")
        ->type_name("FILE");
}
