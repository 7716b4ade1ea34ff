#!/usr/bin/env bash
# The main job on the bundled sample: install, build the two programs, scan data/ (real
# fishtest games), fit Stockfish's WDL model, print the constants and write the plots into out/.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
TARGETS="scoreWDLstat scoreWDL" bash scripts/build.sh
mkdir -p out
# --groups 64: the counts also record 64 groups of games, so the fit prints honest error bars.
build/apps/scoreWDLstat --dir data -r --groups 64 -o out/data_counts.json
build/apps/scoreWDL out/data_counts.json --plot save --pngName out/scoreWDL.png \
    --pngNameDistro out/scoreWDL_distro.png --json out/model.json
echo "Plots: out/scoreWDL.png, out/scoreWDL_distro.png; model: out/model.json"
