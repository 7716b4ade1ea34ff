#!/usr/bin/env bash
# Fitter benchmark: whole-process wall time of scoreWDL (--plot no) on count files drawn by
# synthWDL (generated once, cached in the work dir), medians of runs.
#   1. Every --modelFitting mode on plain count files of each size. With --original PATH (the
#      original scoreWDL.py, e.g. a clone of github.com/official-stockfish/WDL_model), the
#      original runs on the same files, alternating with ours run by run, and both get medians.
#   2. Loading a grouped count file of games (--validation-size positions, 64 game groups)
#      against the plain file of the same positions.
#   3. The error bars and the validation on that grouped file: its plain fit, with the
#      jackknife's 64 refits, with --crossValidate, with both, and the model selection over the
#      default 33 forms (each fitted on all the data and refitted on 10 folds).
# The original needs Debian's Python packages, which wdlfit itself does not:
#   apt-get install -y python3-numpy python3-scipy python3-matplotlib
#
# Usage: scripts/bench_fit.sh [--build DIR] [--work DIR] [--sizes "1e6 1e7 1e8"] [--runs N]
#            [--original PATH/scoreWDL.py] [--original-runs N] [--validation-size N]
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
build="$root/build"
work="$root/out/bench"
sizes="1e6 1e7 1e8"
runs=7
original=""
original_runs=3
validation_size=1e7
while [[ $# -gt 0 ]]; do
    case "$1" in
        --build) build=$2; shift 2 ;;
        --work) work=$2; shift 2 ;;
        --sizes) sizes=$2; shift 2 ;;
        --runs) runs=$2; shift 2 ;;
        --original) original=$(realpath "$2"); shift 2 ;;
        --original-runs) original_runs=$2; shift 2 ;;
        --validation-size) validation_size=$2; shift 2 ;;
        *) echo "unknown argument: $1" >&2; exit 2 ;;
    esac
done

fitter="$build/apps/scoreWDL"
sampler="$build/apps/synthWDL"
python=/usr/bin/python3  # Debian's, where apt installs numpy, scipy and matplotlib
for program in "$fitter" "$sampler"; do
    [[ -x $program ]] || { echo "missing $program: build scoreWDL and synthWDL first" >&2; exit 1; }
done
if [[ -n $original ]]; then
    [[ -f $original ]] || { echo "no original scoreWDL.py at $original" >&2; exit 1; }
    if ! "$python" -c 'import numpy, scipy, matplotlib' 2>/dev/null; then
        echo "the original needs: apt-get install -y python3-numpy python3-scipy python3-matplotlib" >&2
        exit 1
    fi
fi
mkdir -p "$work"
cd "$work"  # the programs run here: files they might write stay in the work dir

# A count file of $1 positions (extra synthWDL options after it), drawn once with a fixed seed.
input_for() {
    local size=$1 name="synth_$1"
    shift
    [[ $# -gt 0 ]] && name="${name}$(printf '_%s' "$@" | tr -d -- '-')"
    local file="$work/$name.json"
    if [[ ! -s $file ]]; then
        echo "drawing $file ..." >&2
        "$sampler" -n "$size" --seed 20240601 -o "$file" "$@" >&2
    fi
    echo "$file"
}

seconds_of() { # seconds_of COMMAND...: wall time of one run, output discarded
    local start end
    start=$(date +%s.%N)
    "$@" >/dev/null
    end=$(date +%s.%N)
    awk -v a="$start" -v b="$end" 'BEGIN { printf "%.4f\n", b - a }'
}

median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

uptime >&2
modes=(fitDensity optimizeProbability optimizeScore None)
echo "Every mode on plain count files (medians; runs alternate between the programs):"
if [[ -n $original ]]; then
    printf '%-6s %-20s %12s %10s %9s\n' input mode scoreWDL.py wdlfit speedup
else
    printf '%-6s %-20s %10s\n' input mode wdlfit
fi
for size in $sizes; do
    file=$(input_for "$size")
    for mode in "${modes[@]}"; do
        ours=() theirs=()
        for ((run = 0; run < runs; ++run)); do
            ours+=("$(seconds_of "$fitter" "$file" --plot no --modelFitting "$mode")")
            if [[ -n $original ]] && ((run < original_runs)); then
                theirs+=("$(seconds_of "$python" "$original" "$file" --plot no --modelFitting "$mode")")
            fi
        done
        ours_median=$(printf '%s\n' "${ours[@]}" | median)
        if [[ -n $original ]]; then
            theirs_median=$(printf '%s\n' "${theirs[@]}" | median)
            printf '%-6s %-20s %11.2fs %9.3fs %8.0fx\n' "$size" "$mode" "$theirs_median" \
                "$ours_median" "$(awk -v a="$theirs_median" -v b="$ours_median" 'BEGIN { print a / b }')"
        else
            printf '%-6s %-20s %9.3fs\n' "$size" "$mode" "$ours_median"
        fi
    done
done

echo
file=$(input_for "$validation_size" --games --groups 64)
plain_file=$(input_for "$validation_size" --games --groups 0)
echo "Loading $validation_size positions of games, plain against grouped (64 game groups, the" \
    "same positions), --modelFitting None, medians of $runs alternating runs:"
plain_times=() grouped_times=()
for ((run = 0; run < runs; ++run)); do
    plain_times+=("$(seconds_of "$fitter" "$plain_file" --plot no --modelFitting None)")
    grouped_times+=("$(seconds_of "$fitter" "$file" --plot no --modelFitting None --resample none)")
done
plain_median=$(printf '%s\n' "${plain_times[@]}" | median)
grouped_median=$(printf '%s\n' "${grouped_times[@]}" | median)
printf '%-28s %9.3fs  %s\n' "plain file" "$plain_median" "$(du -h "$plain_file" | cut -f1)"
printf '%-28s %9.3fs  %s  grouped/plain %.2f\n' "grouped file" "$grouped_median" \
    "$(du -h "$file" | cut -f1)" "$(awk -v a="$grouped_median" -v b="$plain_median" 'BEGIN { print a / b }')"

echo
echo "Error bars and validation on $validation_size positions of games in 64 game groups" \
    "(optimizeProbability, medians of $runs alternating runs):"
variants=("plain fit|--resample none"
          "jackknife, 64 refits|--resample jackknife"
          "crossValidate, 10 folds|--resample none --crossValidate"
          "jackknife + crossValidate|--resample jackknife --crossValidate"
          "selectModel, 33 forms|--resample none --selectModel")
declare -A times
for ((run = 0; run < runs; ++run)); do
    for variant in "${variants[@]}"; do
        read -r -a options <<<"${variant#*|}"
        times[$variant]+="$(seconds_of "$fitter" "$file" --plot no "${options[@]}") "
    done
done
printf '%-28s %10s\n' variant wdlfit
for variant in "${variants[@]}"; do
    printf '%-28s %9.3fs\n' "${variant%%|*}" "$(tr ' ' '\n' <<<"${times[$variant]}" | grep . | median)"
done
uptime >&2
