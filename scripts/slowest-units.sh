#!/usr/bin/env bash
# Lists the slowest compile and link steps of a build from Ninja's log, and their sum: what to
# look at before making a build faster. Usage: scripts/slowest-units.sh [BUILD_DIR] [COUNT]
# (defaults: build, 15). Times are wall seconds of each step as Ninja ran it (with -j2, two steps
# share the machine); a step rebuilt several times counts once, its last time.
set -euo pipefail
build_dir=${1:-build}
count=${2:-15}
log=$build_dir/.ninja_log
[[ -f $log ]] || { echo "Error: $log not found (build $build_dir with Ninja first)." >&2; exit 1; }
# Each line: start ms, end ms, mtime, output, command hash; the last entry of an output wins.
awk -F'\t' '!/^#/ { took[$4] = ($2 - $1) / 1000 }
    END { for (output in took) printf "%8.1f s  %s\n", took[output], output }' "$log" |
    sort -rn >"$build_dir/.step_times"
head -n "$count" "$build_dir/.step_times"
awk '{ sum += $1; n++ } END { printf "%8.1f s  in %d steps (the sum over both cores)\n", sum, n }' \
    "$build_dir/.step_times"
rm -f "$build_dir/.step_times"
