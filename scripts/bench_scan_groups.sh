#!/usr/bin/env bash
# What --groups costs the scanner: scan time without and with --groups 64, at 1 and 2 threads
# (interleaved rounds, medians), peak memory and output size. The corpus is copies of the
# bundled sample, each in its own folder so that its games fall into other groups than the
# original's, or any folder of games (--corpus, e.g. the scanner benchmark's bench-corpus/many).
# Usage: scripts/bench_scan_groups.sh [--copies N (default 100)] [--corpus DIR] [--rounds N (5)]
set -euo pipefail
cd "$(dirname "$0")/.."
copies=100
rounds=5
corpus=
while [ $# -gt 0 ]; do
    case $1 in
        --copies) copies=$2; shift 2 ;;
        --corpus) corpus=$2; shift 2 ;;
        --rounds) rounds=$2; shift 2 ;;
        *) echo "usage: $0 [--copies N] [--corpus DIR] [--rounds N]" >&2; exit 2 ;;
    esac
done
work=out/bench/scan_groups
scanner=${SCANNER:-build/apps/scoreWDLstat}
[ -x "$scanner" ] || TARGETS=scoreWDLstat bash scripts/build.sh
command -v /usr/bin/time >/dev/null || { apt-get update -q && apt-get install -y -q time; }
mkdir -p "$work"

if [ -n "$corpus" ]; then
    description="$corpus"
else
    corpus=$work/corpus
    description="$copies copies of data/ ($((copies * 800)) games)"
fi
if [ ! -f "$corpus/.complete" ] && [ "$description" != "$corpus" ]; then
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

printf '\n%s, medians of %s interleaved rounds:\n\n' "$description" "$rounds"
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
