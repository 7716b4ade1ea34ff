#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "wdl/model/wdl_model.hpp"

// The registry of every WDL model Stockfish has shipped (data/models/stockfish_wdl_history.json,
// facts read from Stockfish's history), under the names users give them.
namespace wdl::model {

struct PublishedModel {
    std::string name;                   // "sf17.1", or "sf@2024-05-30" for an unreleased model
    std::vector<std::string> releases;  // "sf17", "sf17.1": every release that shipped it
    std::string commit, date, subject;  // the Stockfish commit that introduced it
    WdlModel model;
    // The NormalizeToPawnValue constant in the source, where there was one (2022-11 to 16.1).
    std::optional<int> stated_pawn_value;
    std::string mom_expression;  // the source line computing the polynomials' argument
    std::string eval_units;      // what eval the model takes, as the facts describe it
};

// Oldest first.
const std::vector<PublishedModel>& published_models();

// A model by name: a release ("sf18", "sf17.1", "sf12"), "sf" for the newest model,
// "sf@YYYY-MM-DD" for the model of a commit date, or "sf@<commit prefix>" (4 or more hex digits).
const PublishedModel* find_published_model(std::string_view name);

// The names find_published_model accepts, for messages and --help: "sf12, sf13, ..., sf".
std::string published_model_names();

}  // namespace wdl::model
