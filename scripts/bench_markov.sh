#!/usr/bin/env bash
# markovWDL against the scanner (scoreWDLstat) on the same files: both read every game, the
# scanner to count positions, markovWDL to build its chains (and fit its models). Runs are
# interleaved (each round runs every configuration once) and each gets the median of its
# rounds, wall and CPU seconds. Usage: scripts/bench_markov.sh [copies of data/ (default 50)]
# [rounds (default 5)]; work files go to out/bench/markov.
set -euo pipefail
cd "$(dirname "$0")/.."
copies=${1:-50}
rounds=${2:-5}
work=out/bench/markov
bin=${WDL_BIN_DIR:-build/apps}
[ -x "$bin/markovWDL" ] && [ -x "$bin/scoreWDLstat" ] || TARGETS="markovWDL scoreWDLstat" bash scripts/build.sh

corpus=$work/corpus-$copies
if [ ! -f "$corpus/.complete" ]; then
    rm -rf "$corpus" && mkdir -p "$corpus"
    for ((i = 0; i < copies; i++)); do
        for f in data/*/*/*.pgn.gz data/*/*/*.json; do
            test_dir=$corpus/$(printf 'c%04d' "$i")/$(basename "$(dirname "$f")")
            mkdir -p "$test_dir" && cp "$f" "$test_dir/"
        done
    done
    touch "$corpus/.complete"
fi
text_mb=$(( $(find "$corpus" -name '*.pgn.gz' -print0 | xargs -0 cat | zcat | wc -c) / 1000000 ))
echo "Corpus: $copies copies of data/ ($(find "$corpus" -name '*.pgn.gz' | wc -l) files, $text_mb MB of PGN text); load before: $(cut -d' ' -f1-3 /proc/loadavg)"

# The copies repeat the sample's test ids in other folders: --allowDuplicates.
scan_1() { "$bin/scoreWDLstat" --dir "$corpus" -r --allowDuplicates --concurrency 1 -o "$work/counts.json"; }
scan_2() { "$bin/scoreWDLstat" --dir "$corpus" -r --allowDuplicates --concurrency 2 -o "$work/counts.json"; }
markov_1() { "$bin/markovWDL" --dir "$corpus" -r --allowDuplicates --concurrency 1; }
markov_2() { "$bin/markovWDL" --dir "$corpus" -r --allowDuplicates --concurrency 2; }
configurations=(scan_1 markov_1 scan_2 markov_2)

declare -A wall cpu
TIMEFORMAT='%R %U %S'  # bash's time: wall, user and system seconds of the whole function
for ((round = 0; round < rounds; round++)); do
    for name in "${configurations[@]}"; do
        { time "$name" >/dev/null 2>&1; } 2>"$work/time.log" || { echo "failed: $name" >&2; exit 1; }
        read -r elapsed user system <"$work/time.log"
        wall[$name]+="$elapsed "
        cpu[$name]+="$(echo "$user + $system" | bc -l) "
    done
done
median() { printf '%s\n' $1 | sort -n | sed -n "$(( (rounds + 1) / 2 ))p"; }
echo "Load after: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '\n| threads | scoreWDLstat wall | markovWDL wall | speed vs scanner | scoreWDLstat CPU | markovWDL CPU | CPU ratio |\n'
printf '|---|---|---|---|---|---|---|\n'
for threads in 1 2; do
    sw=$(median "${wall[scan_$threads]}") mw=$(median "${wall[markov_$threads]}")
    sc=$(median "${cpu[scan_$threads]}") mc=$(median "${cpu[markov_$threads]}")
    printf '| %s | %.2f s | %.2f s | %.2f | %.2f s | %.2f s | %.2f |\n' "$threads" "$sw" "$mw" \
        "$(echo "$sw / $mw" | bc -l)" "$sc" "$mc" "$(echo "$sc / $mc" | bc -l)"
done
echo
echo "speed vs scanner = scanner's time / markovWDL's time (1 = as fast; the aim is >= 0.5);"
echo "medians of $rounds interleaved rounds."
