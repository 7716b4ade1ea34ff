#!/usr/bin/env bash
# Scanner benchmark: scan time of a >= 1 GB (uncompressed) corpus made of copies of the
# bundled sample, at 1 and 2 threads, against bare decompression (zcat), for many files and
# for one big multi-member file; plus peak memory at 1x and 10x corpus size.
# Usage: scripts/bench_scan.sh [copies (default 400)] ; work files go to out/bench/scan.
set -euo pipefail
cd "$(dirname "$0")/.."
copies=${1:-400}
work=out/bench/scan
scanner=${SCANNER:-build/apps/scoreWDLstat}
# The copies repeat the sample's test ids in other directories, which the scanner refuses
# without --allowDuplicates.
scan_options=(--allowDuplicates -o "$work/out.json")
[ -x "$scanner" ] || bash scripts/build.sh
command -v /usr/bin/time >/dev/null || { apt-get update -q && apt-get install -y -q time; }

make_corpus() {  # $1 = directory, $2 = copies: many files, fishtest layout
    local dir=$1 n=$2
    [ -f "$dir/.complete" ] && return
    rm -rf "$dir" && mkdir -p "$dir"
    for ((i = 0; i < n; i++)); do
        for f in data/*/*/*.pgn.gz; do
            local test_dir=$dir/$(printf 'c%04d' "$i")/$(basename "$(dirname "$f")")
            mkdir -p "$test_dir"
            cp "$f" "$test_dir/"
        done
    done
    touch "$dir/.complete"
}

make_big_file() {  # $1 = many-file corpus, $2 = output: all members concatenated in one file
    [ -f "$2" ] || find "$1" -name '*.pgn.gz' -print0 | sort -z | xargs -0 cat >"$2"
}

# The machine's speed drifts over minutes, so the runs are interleaved: each round runs every
# configuration once, and each gets the median of its rounds.
declare -A median
time_interleaved() {  # time_interleaved NAME...: runs function NAME for 3 rounds each
    declare -A times
    for _ in 1 2 3; do
        for name in "$@"; do
            local start end
            start=$(date +%s.%N)
            "$name" >/dev/null 2>&1 || { echo "failed: $name" >&2; exit 1; }
            end=$(date +%s.%N)
            times[$name]+="$(echo "$end - $start" | bc -l) "
        done
    done
    for name in "$@"; do
        median[$name]=$(printf '%s\n' ${times[$name]} | sort -n | sed -n 2p)
    done
}

peak_kib() {  # peak resident memory in KiB of "$@"
    local log=$work/time.log
    /usr/bin/time -o "$log" -f %M "$@" >/dev/null 2>&1 || { echo "failed: $*" >&2; exit 1; }
    tail -1 "$log"
}

make_corpus "$work/many" "$copies"
make_big_file "$work/many" "$work/big.pgn.gz"
make_corpus "$work/tenth" $((copies / 10))
text_mb=$(( $(find "$work/many" -name '*.pgn.gz' -print0 | xargs -0 cat | zcat | wc -c) / 1000000 ))
files=$(find "$work/many" -name '*.pgn.gz' | wc -l)
echo "Corpus: $copies copies of data/: $files files, $text_mb MB of PGN text, $(du -sm "$work/many" | cut -f1) MB gzip"

zcat_many() { find "$work/many" -name '*.pgn.gz' -print0 | xargs -0 cat | zcat; }
zcat_big() { zcat "$work/big.pgn.gz"; }
scan_many_1() { "$scanner" --dir "$work/many" -r --concurrency 1 "${scan_options[@]}"; }
scan_many_2() { "$scanner" --dir "$work/many" -r --concurrency 2 "${scan_options[@]}"; }
scan_big_1() { "$scanner" --file "$work/big.pgn.gz" --concurrency 1 "${scan_options[@]}"; }
scan_big_2() { "$scanner" --file "$work/big.pgn.gz" --concurrency 2 "${scan_options[@]}"; }
time_interleaved zcat_many scan_many_1 scan_many_2 zcat_big scan_big_1 scan_big_2
zcat_many=${median[zcat_many]} many_1=${median[scan_many_1]} many_2=${median[scan_many_2]}
zcat_big=${median[zcat_big]} big_1=${median[scan_big_1]} big_2=${median[scan_big_2]}
mem_tenth=$(peak_kib "$scanner" --dir "$work/tenth" -r --concurrency 2 "${scan_options[@]}")
mem_full=$(peak_kib "$scanner" --dir "$work/many" -r --concurrency 2 "${scan_options[@]}")

ratio() { echo "scale=2; $1 / $2" | bc -l; }
printf '\n| input | zcat | scan 1 thread | vs zcat | scan 2 threads | speed-up 1->2 |\n'
printf '|---|---|---|---|---|---|\n'
printf '| %s files | %.2f s | %.2f s | %sx | %.2f s | %sx |\n' "$files" "$zcat_many" "$many_1" \
    "$(ratio "$many_1" "$zcat_many")" "$many_2" "$(ratio "$many_1" "$many_2")"
printf '| 1 file | %.2f s | %.2f s | %sx | %.2f s | %sx |\n' "$zcat_big" "$big_1" \
    "$(ratio "$big_1" "$zcat_big")" "$big_2" "$(ratio "$big_1" "$big_2")"
printf '\nThroughput at 2 threads: %s MB/s of PGN text (many files).\n' "$(echo "$text_mb / $many_2" | bc)"
printf 'Peak memory, 2 threads: %s MiB at %s copies, %s MiB at %s copies.\n' \
    $((mem_tenth / 1024)) $((copies / 10)) $((mem_full / 1024)) "$copies"
