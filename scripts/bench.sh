#!/usr/bin/env bash
# All benchmarks: the scanner against bare decompression, and with --groups; the fitter, its
# error bars and its cross-validation, side by side with the original scoreWDL.py when
# ORIGINAL=path/scoreWDL.py is given (see scripts/bench_fit.sh). Run on an otherwise idle machine.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
bash scripts/build.sh
echo "## Scanner"
bash scripts/bench_scan.sh "$@"
echo
echo "## Scanner with --groups 64"
bash scripts/bench_scan_groups.sh
echo
echo "## Fitter"
bash scripts/bench_fit.sh ${ORIGINAL:+--original "$ORIGINAL"}
