#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "wdl/model/wdl_model.hpp"

// synthWDL: draws a count file from a known model (docs/programs.md).
namespace wdl::commands {

struct SynthWdlOptions {
    std::uint64_t positions = 1000000;
    std::filesystem::path output = "synthWDL.json";
    std::uint64_t seed = 1;
    // The truth: a model (a registry name, a model file, a Stockfish source; model::load_model),
    // or as and bs (polynomials, highest power first) with the mom type and target, or by
    // default Stockfish 18's model.
    std::optional<std::string> model;
    std::optional<model::Coefficients> as, bs;
    model::MomType mom_type = model::MomType::Material;
    int mom_target = 58;
    // How the engine displays evals, as scoreWDL takes it.
    std::optional<int> normalize_to_pawn_value;
    std::optional<std::string> normalize_data;
    std::optional<std::filesystem::path> from;  // positions' (move, material, eval) from here
    int bin_width = 5;
    bool games = false;
    int positions_per_game = 100;
    std::optional<int> groups;  // default: 64 with games, none without
    int threads = 1;
    std::optional<std::filesystem::path> json;
    // --label FIELD=VALUE ...: the output is a labelled grouped file of one unit (a synthetic
    // test), labelled so (counts::set_label_field names the fields).
    std::vector<std::string> label;
};

// Draws the counts, writes them (atomically) and prints what was drawn. Throws wdl::Error for
// bad options and inputs.
void synth_wdl(const SynthWdlOptions& options);

}  // namespace wdl::commands
