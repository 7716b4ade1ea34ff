#!/usr/bin/env bash
# All benchmarks: the scanner against bare decompression, the fitter against the original's
# timings. Figures go to stdout as Markdown tables. Run on an otherwise idle machine.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
bash scripts/build.sh
echo "## Scanner"
bash scripts/bench_scan.sh "$@"
echo
echo "## Fitter"
bash scripts/bench_fit.sh
