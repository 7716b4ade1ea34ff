#!/usr/bin/env bash
# Regenerates the bundled model registry, data/models/stockfish_wdl_history.json, from
# Stockfish's git history with `compareWDL --history` (docs/comparison.md), so that the registry
# is read from the source, never typed. Review the change with `git diff data/models`.
#
# Usage: scripts/update-registry.sh [CLONE]
#   CLONE  a Stockfish clone (checkout or bare) whose HEAD is the history to read; without it,
#          ./Stockfish is cloned from GitHub (or updated, if it is there).
# Builds compareWDL with scripts/build.sh if needed (BUILD_DIR as there).
set -euo pipefail
cd "$(dirname "$0")/.."
clone=${1:-}
if [[ -z $clone ]]; then
    clone=Stockfish
    if [[ -d $clone ]]; then
        git -C "$clone" pull --quiet
    else
        git clone --quiet https://github.com/official-stockfish/Stockfish.git "$clone"
    fi
fi
TARGETS=compareWDL bash scripts/build.sh >&2
"${BUILD_DIR:-build}/apps/compareWDL" --history "$clone" -o data/models/stockfish_wdl_history.json
