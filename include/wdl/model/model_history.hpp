#pragma once

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "wdl/model/published_models.hpp"

// The model registry read from a Stockfish clone's git history (compareWDL --history).
namespace wdl::model {

// The files the model's facts live in: as[], bs[] and the argument and eval lines in
// src/uci.cpp, NormalizeToPawnValue in src/uci.h or src/uci.cpp, PawnValueEg in src/types.h.
inline constexpr const char* kModelSourceFiles[] = {"src/uci.h", "src/uci.cpp", "src/types.h"};

// The release tags whose models a registry names: sf_12, sf_17.1 (not sf_dd or dev tags).
inline constexpr const char* kReleaseTagPattern = "sf_[0-9]*";

struct HistoryWalk {
    Registry registry;
    int commits_read = 0;               // of `revision`'s history that touch kModelSourceFiles
    std::vector<std::string> warnings;  // commits whose model could not be read, one line each
};

// Walks the history of `revision` in the clone (a checkout or a bare repository) oldest first
// and starts a registry entry at every commit whose model differs from its predecessor's: its
// as[] or bs[], its argument (type, clamp, target), its NormalizeToPawnValue, or the eval it
// takes (units and clamp). A commit that only reformats starts none. Each release tag names
// the entry its tree holds. `on_commit(done, total)` reports progress. Throws wdl::Error if the
// clone cannot be read with git.
HistoryWalk walk_model_history(const std::filesystem::path& clone,
                               const std::string& revision = "HEAD",
                               const std::function<void(int, int)>& on_commit = {});

}  // namespace wdl::model
