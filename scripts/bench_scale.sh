#!/usr/bin/env bash
# scaleWDL against what answering its question costs without it: two scans of the same games
# (scoreWDLstat --matchEngine 'New-.*' and 'Base-.*', each --groups 64) and two fits with their
# jackknife error bars (scoreWDL on each, on all cores: it has no thread option). The corpus is one test of about 60,000 games: copies
# of the bundled test 716838bf (180 games, three task files) under one test id. Runs are
# interleaved (each round runs every configuration once); each gets the median of its rounds,
# wall and CPU seconds. Usage: scripts/bench_scale.sh [copies (default 334)] [rounds (default 3)]
# [threads (default 2)]; work files go to out/bench/scale.
set -euo pipefail
cd "$(dirname "$0")/.."
copies=${1:-334}
rounds=${2:-3}
threads=${3:-2}
work=out/bench/scale
bin=${WDL_BIN_DIR:-build/apps}
for program in scaleWDL scoreWDLstat scoreWDL; do
    [ -x "$bin/$program" ] || { TARGETS="scaleWDL scoreWDLstat scoreWDL" bash scripts/build.sh; break; }
done

test_dir=data/24-07-21/716838bf67ed35143299f7d3
corpus=$work/corpus-$copies
if [ ! -f "$corpus/.complete" ]; then
    rm -rf "$corpus" && mkdir -p "$corpus"
    for ((i = 0; i < copies; i++)); do
        copy=$corpus/$(printf 'c%04d' "$i")/716838bf67ed35143299f7d3
        mkdir -p "$copy" && cp "$test_dir"/* "$copy/"
    done
    touch "$corpus/.complete"
fi
games=$(find "$corpus" -name '*.pgn.gz' -print0 | xargs -0 zcat | grep -c '^\[Result ')
echo "Corpus: $copies copies of test 716838bf under one id: $games games; $threads threads; load before: $(cut -d' ' -f1-3 /proc/loadavg)"

# The copies repeat the test id in other folders: --allowDuplicates.
scale_default() {
    "$bin/scaleWDL" --dir "$corpus" -r --allowDuplicates --concurrency "$threads" \
        --json "$work/scale.json"
}
scale_ratio_only() {
    "$bin/scaleWDL" --dir "$corpus" -r --allowDuplicates --concurrency "$threads" --noAsymmetry \
        --json "$work/scale_ratio.json"
}
two_scans_two_fits() {
    for engine in New Base; do
        "$bin/scoreWDLstat" --dir "$corpus" -r --allowDuplicates --concurrency "$threads" \
            --matchEngine "$engine-.*" --groups 64 -o "$work/$engine.json"
        "$bin/scoreWDL" "$work/$engine.json" --plot no \
            --json "$work/$engine.fit.json"
    done
}
configurations=(two_scans_two_fits scale_ratio_only scale_default)

declare -A wall cpu
TIMEFORMAT='%R %U %S'  # bash's time: wall, user and system seconds of the whole function
for ((round = 0; round < rounds; round++)); do
    for name in "${configurations[@]}"; do
        { time "$name" >"$work/$name.log" 2>&1; } 2>"$work/time.log" ||
            { echo "failed: $name (see $work/$name.log)" >&2; exit 1; }
        read -r elapsed user system <"$work/time.log"
        wall[$name]+="$elapsed "
        cpu[$name]+="$(echo "$user + $system" | bc -l) "
    done
done
median() { printf '%s\n' $1 | sort -n | sed -n "$(( (rounds + 1) / 2 ))p"; }
echo "Load after: $(cut -d' ' -f1-3 /proc/loadavg)"
base_wall=$(median "${wall[two_scans_two_fits]}")
printf '\n| configuration | wall | CPU | wall vs two scans + two fits |\n|---|---|---|---|\n'
for name in "${configurations[@]}"; do
    w=$(median "${wall[$name]}") c=$(median "${cpu[$name]}")
    printf '| %s | %.2f s | %.2f s | %.2f |\n' "$name" "$w" "$c" "$(echo "$w / $base_wall" | bc -l)"
done
echo
echo "two_scans_two_fits: scoreWDLstat --matchEngine per engine with --groups 64, then scoreWDL"
echo "with its jackknife, per engine; scale_ratio_only: scaleWDL --noAsymmetry; scale_default:"
echo "scaleWDL with the asymmetry. Medians of $rounds interleaved rounds."
grep -h "New's evals are" "$work/scale_default.log" || true
