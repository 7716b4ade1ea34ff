#!/usr/bin/env bash
# Did a change move the scanner's speed? Two scoreWDLstat binaries, side by side in one run, on
# the benchmark corpus (scripts/make_bench_corpus.py): every round scans the corpus once with
# each binary at each thread count, in an order that rotates from round to round, so that the
# machine's drift hits them alike; each configuration gets the median of its rounds, and the
# ratio after/before is printed with the spread of the per-round ratios. Both binaries must
# write the same counts, which is checked first.
#
# Usage: scripts/bench_scan_change.sh BEFORE AFTER [--corpus DIR] [--rounds N] [--threads "1 2"]
#   BEFORE, AFTER  the two scoreWDLstat binaries (e.g. a worktree of the old commit built with
#                  scripts/build.sh, and build/apps/scoreWDLstat)
#   --corpus DIR   where the corpus is generated once (env BENCH_CORPUS; default
#                  ../bench-corpus beside this checkout); its many/ folder is scanned
#   --rounds N     rounds (default 11)
#   --threads LIST thread counts (default "1 2")
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -ge 2 ] || { sed -n '2,16p' "$0" >&2; exit 2; }
before=$(realpath "$1") after=$(realpath "$2")
shift 2
corpus=${BENCH_CORPUS:-../bench-corpus}
rounds=11
threads="1 2"
while [ $# -gt 0 ]; do
    case $1 in
        --corpus) corpus=$2; shift 2 ;;
        --rounds) rounds=$2; shift 2 ;;
        --threads) threads=$2; shift 2 ;;
        *) echo "Error: unknown option $1 (see the header of $0)" >&2; exit 2 ;;
    esac
done
for binary in "$before" "$after"; do
    [ -x "$binary" ] || { echo "Error: no scanner at $binary" >&2; exit 2; }
done
if [ ! -f "$corpus/many/.complete" ]; then
    rm -rf "$corpus/many"
    python3 scripts/make_bench_corpus.py "$corpus/many" >&2
    touch "$corpus/many/.complete"
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

scan() {  # $1 = binary, $2 = threads, $3 = output file; prints the wall seconds
    local start end
    start=$(date +%s.%N)
    "$1" --dir "$corpus/many" -r --concurrency "$2" -o "$3" >/dev/null 2>&1
    end=$(date +%s.%N)
    echo "$start $end" | awk '{printf "%.4f\n", $2 - $1}'
}

# The same counts first: a faster scanner that counts differently is no result.
scan "$before" 1 "$work/before.json" >/dev/null
scan "$after" 1 "$work/after.json" >/dev/null
cmp -s "$work/before.json" "$work/after.json" ||
    { echo "Error: the two scanners' counts differ on $corpus/many" >&2; exit 1; }

configs=()
for t in $threads; do configs+=("before $t" "after $t"); done
for ((round = 0; round < rounds; ++round)); do
    count=${#configs[@]}
    for ((k = 0; k < count; ++k)); do
        config=${configs[$(((k + round) % count))]}
        set -- $config
        binary=$before
        [ "$1" = after ] && binary=$after
        echo "$round $1 $2 $(scan "$binary" "$2" "$work/out.json")" >>"$work/times"
    done
done

median() { sort -g | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
echo "Scanner before/after, $rounds rounds, medians (s); $corpus/many"
printf '%-8s %10s %10s %12s %22s\n' threads before after after/before "per-round ratio range"
for t in $threads; do
    b=$(awk -v t="$t" '$2 == "before" && $3 == t {print $4}' "$work/times" | median)
    a=$(awk -v t="$t" '$2 == "after" && $3 == t {print $4}' "$work/times" | median)
    ratios=$(awk -v t="$t" '$3 == t {x[$1 " " $2] = $4} END {for (k in x) {split(k, p, " "); if (p[2] == "after") print x[k] / x[p[1] " before"]}}' "$work/times" | sort -g)
    low=$(echo "$ratios" | head -1) high=$(echo "$ratios" | tail -1)
    printf '%-8s %10.3f %10.3f %12.3f %10.3f .. %.3f\n' "$t" "$b" "$a" "$(echo "$a $b" | awk '{print $1 / $2}')" "$low" "$high"
done
