#!/usr/bin/env bash
# Benchmarks scoreWDL against the original scoreWDL.py's timings (reference/README.md):
# whole-process wall time, median of 7 runs (runs take a tenth of a second: 3 are too noisy
# on a shared machine), --plot no, on synthetic inputs of 1e6, 1e7 and
# 1e8 positions made by the shared synth.py (generated once, cached in the work dir).
#
# Usage: scripts/bench_fit.sh [--build DIR] [--work DIR] [--sizes "1e6 1e7 1e8"] [--runs N]
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
build="$root/build"
work="$root/out/bench"
sizes="1e6 1e7 1e8"
runs=7
while [[ $# -gt 0 ]]; do
    case "$1" in
        --build) build=$2; shift 2 ;;
        --work) work=$2; shift 2 ;;
        --sizes) sizes=$2; shift 2 ;;
        --runs) runs=$2; shift 2 ;;
        *) echo "unknown argument: $1" >&2; exit 2 ;;
    esac
done

program="$build/apps/scoreWDL"
synth="$root/../shared/tools/synth.py"
python=/usr/bin/python3  # Debian's, with numpy
[[ -x "$program" ]] || { echo "missing $program: build the scoreWDL target first" >&2; exit 1; }
mkdir -p "$work"

# The original's medians in seconds: fitDensity optimizeProbability optimizeScore None.
original_times() {
    case "$1" in
        1e6) echo "4.95 9.21 9.98 4.3" ;;
        1e7) echo "10.71 15.85 21.05 11.4" ;;
        1e8) echo "25.39 33.25 33.14 26.4" ;;
    esac
}

input_for() {
    local file="$work/synth_$1.json"
    if [[ ! -s "$file" ]]; then
        echo "generating $file ..." >&2
        "$python" "$synth" -n "$1" -o "$file.tmp" >&2
        mv "$file.tmp" "$file"
    fi
    echo "$file"
}

# Median wall time of $runs runs of the program on the given arguments.
median_time() {
    local times=()
    for ((i = 0; i < runs; ++i)); do
        local start end
        start=$(date +%s.%N)
        "$program" "$@" >/dev/null
        end=$(date +%s.%N)
        times+=("$(awk -v a="$start" -v b="$end" 'BEGIN { print b - a }')")
    done
    printf '%s\n' "${times[@]}" | sort -g | sed -n "$(((runs + 1) / 2))p"
}

modes=(fitDensity optimizeProbability optimizeScore None)
printf '%-6s %-20s %10s %10s %9s\n' input mode original wdlfit speedup
for size in $sizes; do
    file=$(input_for "$size")
    read -r -a originals <<<"$(original_times "$size")"
    for k in "${!modes[@]}"; do
        ours=$(median_time "$file" --plot no --modelFitting "${modes[$k]}")
        printf '%-6s %-20s %9.2fs %9.3fs %8.0fx\n' "$size" "${modes[$k]}" "${originals[$k]}" \
            "$ours" "$(awk -v a="${originals[$k]}" -v b="$ours" 'BEGIN { print a / b }')"
    done
done
