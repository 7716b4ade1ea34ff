#!/usr/bin/env bash
# What --groups costs the scanner: scan time of copies of the bundled sample without and with
# --groups 64, at 1 and 2 threads (interleaved rounds, medians), peak memory and output size.
# Each copy lies in its own folder, so its games fall into other groups than the original's.
# Usage: scripts/bench_scan_groups.sh [copies (default 100)] [rounds (default 5)]
set -euo pipefail
cd "$(dirname "$0")/.."
copies=${1:-100}
rounds=${2:-5}
work=out/bench/scan_groups
scanner=${SCANNER:-build/apps/scoreWDLstat}
[ -x "$scanner" ] || TARGETS=scoreWDLstat bash scripts/build.sh
command -v /usr/bin/time >/dev/null || { apt-get update -q && apt-get install -y -q time; }

corpus=$work/corpus
if [ ! -f "$corpus/.complete" ]; then
    rm -rf "$corpus" && mkdir -p "$corpus"
    for ((i = 0; i < copies; i++)); do
        for f in data/*/*/*.pgn.gz; do
            test_dir=$corpus/$(printf 'c%04d' "$i")/$(basename "$(dirname "$f")")
            mkdir -p "$test_dir" && cp "$f" "$test_dir/"
        done
    done
    touch "$corpus/.complete"
fi

run() {  # run THREADS [--groups K]: one scan
    local threads=$1
    shift
    "$scanner" --dir "$corpus" -r --allowDuplicates --concurrency "$threads" \
        -o "$work/out_${threads}_$#.json" "$@" >/dev/null 2>&1
}
configurations=("1" "1 --groups 64" "2" "2 --groups 64")
declare -A times
uptime
for ((round = 0; round < rounds; ++round)); do
    for configuration in "${configurations[@]}"; do
        start=$(date +%s.%N)
        # shellcheck disable=SC2086
        run $configuration
        end=$(date +%s.%N)
        times[$configuration]+="$(echo "$end - $start" | bc -l) "
    done
done
uptime
median() { tr ' ' '\n' | grep . | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
peak_mib() {  # peak resident memory in MiB of one scan
    /usr/bin/time -o "$work/time.log" -f %M "$scanner" --dir "$corpus" -r --allowDuplicates \
        --concurrency 2 -o "$work/mem.json" "$@" >/dev/null 2>&1
    echo $(($(tail -1 "$work/time.log") / 1024))
}

printf '\n%s copies of data/ (%s games), medians of %s interleaved rounds:\n\n' "$copies" \
    "$((copies * 800))" "$rounds"
printf '| threads | plain | --groups 64 | ratio |\n|---|---|---|---|\n'
for threads in 1 2; do
    plain=$(median <<<"${times[$threads]}")
    grouped=$(median <<<"${times[$threads --groups 64]}")
    printf '| %s | %.2f s | %.2f s | %.3f |\n' "$threads" "$plain" "$grouped" \
        "$(echo "$grouped / $plain" | bc -l)"
done
printf '\nPeak memory at 2 threads: %s MiB plain, %s MiB with --groups 64.\n' "$(peak_mib)" \
    "$(peak_mib --groups 64)"
printf 'Output: %s MB plain, %s MB grouped.\n' "$(du -m "$work/out_2_0.json" | cut -f1)" \
    "$(du -m "$work/out_2_2.json" | cut -f1)"
