#!/usr/bin/env bash
# The binpack reader against Stockfish's own, side by side in one run: scoreWDLstat counting a
# binpack against `stockfish gather_statistics position_count` reading the same file (the
# tools branch's reader, which only counts), alternating, medians of the rounds:
#   1 thread    scoreWDLstat --concurrency 1 against one Stockfish process
#   2 threads   scoreWDLstat --concurrency 2 against two Stockfish processes at once, each on
#               half of the blocks (the oracle reads one file on one thread)
# Then the wall time and peak memory of one scan of --large positions (at 2 threads).
# The data: random games written as .plain by the tests' fixture writer, converted by Stockfish
# to a binpack, repeated until it holds --positions positions (blocks are independent).
#
# Stockfish's tools branch is not part of wdlfit: build it once (no network needed),
#   git clone -b tools https://github.com/official-stockfish/Stockfish && cd Stockfish/src
#   make -j2 ARCH=x86-64-modern EXTRACXXFLAGS=-DNNUE_EMBEDDING_OFF all
#
# Usage: scripts/bench_binpack.sh --stockfish PATH [--positions N] [--large N] [--rounds N]
#                                 [--work DIR]
#   --positions N  positions of the side-by-side file (default 10000000)
#   --large N      positions of the large file (default 100000000; 0 skips it)
#   --rounds N     rounds (default 7)
#   --work DIR     where the files are made once (default ../bench-binpack beside this checkout)
set -euo pipefail
cd "$(dirname "$0")/.."
stockfish="" positions=10000000 large=100000000 rounds=7 work=../bench-binpack
while [ $# -gt 0 ]; do
    case $1 in
        --stockfish) stockfish=$2; shift 2 ;;
        --positions) positions=$2; shift 2 ;;
        --large) large=$2; shift 2 ;;
        --rounds) rounds=$2; shift 2 ;;
        --work) work=$2; shift 2 ;;
        *) echo "Error: unknown option $1 (see the header of $0)" >&2; exit 2 ;;
    esac
done
[ -x "$stockfish" ] || { echo "Error: give --stockfish PATH (see the header of $0)" >&2; exit 2; }
scanner=${SCANNER:-build/apps/scoreWDLstat}
writer=build/tests/training/random_plain
[ -x "$scanner" ] && [ -x "$writer" ] || TARGETS="scoreWDLstat random_plain" bash scripts/build.sh
scanner=$(realpath "$scanner") writer=$(realpath "$writer") stockfish=$(realpath "$stockfish")
mkdir -p "$work"
work=$(realpath "$work")
cd "$work"

# One binpack of 2,500 random games (about 387,000 positions), repeated to a file of at least
# `count` positions; echoes its name.
repeated_binpack() {
    local count=$1 name=repeated_$1.binpack
    if [ ! -s unit.binpack ]; then
        "$writer" 2500 20261128 >unit.plain
        "$stockfish" convert unit.plain unit.binpack >/dev/null
        rm unit.plain
    fi
    if [ ! -s "$name" ]; then
        local per_unit copies
        per_unit=$("$stockfish" gather_statistics position_count input_file unit.binpack |
            awk '/Number of positions/ { print $4 }')
        copies=$(((count + per_unit - 1) / per_unit))
        for _ in $(seq "$copies"); do cat unit.binpack; done >"$name.tmp"
        mv "$name.tmp" "$name"
        echo "$copies" >"$name.copies"
    fi
    echo "$name"
}

seconds_of() {
    local start end
    start=$(date +%s.%N)
    "$@" >/dev/null
    end=$(date +%s.%N)
    awk -v a="$start" -v b="$end" 'BEGIN { printf "%.4f\n", b - a }'
}
median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

file=$(repeated_binpack "$positions")
copies=$(cat "$file.copies")
half=half_$positions.binpack
[ -s "$half" ] || { for _ in $(seq $((copies / 2))); do cat unit.binpack; done >"$half"; }
other=other_$positions.binpack
[ -s "$other" ] || { for _ in $(seq $((copies - copies / 2))); do cat unit.binpack; done >"$other"; }

# The same positions read first: a faster reader that reads fewer is no result.
oracle_count=$("$stockfish" gather_statistics position_count input_file "$file" |
    awk '/Number of positions/ { print $4 }')
ours_count=$("$scanner" --file "$file" --concurrency 1 --NormalizeToPawnValue 100 -o counts.json |
    awk '/^Positions:/ { print $2 }')
[ "$oracle_count" = "$ours_count" ] ||
    { echo "Error: Stockfish reads $oracle_count positions, scoreWDLstat $ours_count" >&2; exit 1; }
echo "File: $file, $oracle_count positions, $(du -h "$file" | cut -f1)"

oracle_one() { "$stockfish" gather_statistics position_count input_file "$file"; }
ours_one() { "$scanner" --file "$file" --concurrency 1 --NormalizeToPawnValue 100 -o counts.json; }
oracle_two() {
    "$stockfish" gather_statistics position_count input_file "$half" >/dev/null &
    "$stockfish" gather_statistics position_count input_file "$other" >/dev/null
    wait
}
ours_two() { "$scanner" --file "$file" --concurrency 2 --NormalizeToPawnValue 100 -o counts.json; }

: >times.txt
for round in $(seq "$rounds"); do
    # The order alternates from round to round, so that drift of the machine's speed is shared.
    if [ $((round % 2)) -eq 1 ]; then order="oracle_one ours_one oracle_two ours_two"
    else order="ours_two oracle_two ours_one oracle_one"; fi
    for run in $order; do echo "$run $(seconds_of "$run")" >>times.txt; done
done
for run in oracle_one ours_one oracle_two ours_two; do
    echo "$run $(awk -v r="$run" '$1 == r { print $2 }' times.txt | median)"
done | awk '{ m[$1] = $2; printf "%-11s median %.3f s\n", $1, $2 }
    END { printf "1 thread:  Stockfish / wdlfit = %.2f\n2 threads: Stockfish (2 processes) / wdlfit = %.2f\n",
                 m["oracle_one"] / m["ours_one"], m["oracle_two"] / m["ours_two"] }'

if [ "$large" != 0 ]; then
    big=$(repeated_binpack "$large")
    echo "Large: $big, $(du -h "$big" | cut -f1)"
    /usr/bin/time -f "wall %e s, peak memory %M KB" -o time_large.txt "$scanner" --file "$big" \
        --concurrency 2 --NormalizeToPawnValue 100 -o counts_large.json >scan_large.txt 2>/dev/null
    grep -E "^Positions|^Speed" scan_large.txt
    cat time_large.txt
fi
