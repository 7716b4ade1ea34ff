#!/usr/bin/env bash
# What trackWDL costs as the tests grow: for 250, 500 and 1,000 tests a synthetic draw
# (synthWDL, games in 4 groups per test, 20,000 positions a test) labelled as that many tests
# dated over a year is tracked by month (12 windows; bootstrap of 50 refits a window, so that the
# refits do not grow with the tests), and by test for the smallest size. Prints the wall time and
# peak RSS of each run, and those of mergeWDLstat re-merging each labelled file.
# Usage: scripts/bench_track.sh [--tests "250 500 1000"] [--positions N (per test, 20000)]
set -euo pipefail
cd "$(dirname "$0")/.."
sizes="250 500 1000"
per_test=20000
while [ $# -gt 0 ]; do
    case $1 in
        --tests) sizes=$2; shift 2 ;;
        --positions) per_test=$2; shift 2 ;;
        *) echo "usage: $0 [--tests \"250 500 1000\"] [--positions N]" >&2; exit 2 ;;
    esac
done
build=${BUILD_DIR:-build}
[ -x "$build/apps/trackWDL" ] && [ -x "$build/apps/synthWDL" ] && [ -x "$build/apps/mergeWDLstat" ] ||
    TARGETS="trackWDL synthWDL mergeWDLstat" bash scripts/build.sh
command -v /usr/bin/time >/dev/null || { apt-get update -q && apt-get install -y -q time; }
work=out/bench/track
mkdir -p "$work"
# make_tests N FILE: a draw of N tests (synthWDL, 4 groups each), labelled as test i of 2025 with its date
# spread evenly over the year and a new revision every 5 tests; the labels go in after the
# "groups" line that synthWDL writes (docs/formats.md, "Labelled groups").
make_tests() {
    local n=$1 file=$2
    "$build/apps/synthWDL" -n $((n * per_test)) --games --groups $((n * 4)) --threads 2 \
        -o "$work/draw.json" >/dev/null
    python3 - "$n" >"$work/labels.txt" <<'PY'
import datetime, json, sys
tests = int(sys.argv[1])
start = datetime.date(2025, 1, 1)
units = [{"id": f"{i:024x}", "date": str(start + datetime.timedelta(days=i * 365 // tests)),
          "base": "master", "new": f"rev{i // 5:05d}", "tc": "10+0.1", "threads": 1,
          "book": "UHO_Lichess_4852_v1.epd", "file": None} for i in range(tests)]
print('  "labels": {"groupsPerLabel": 4, "units": [')
print(",\n".join("    " + json.dumps(unit) for unit in units))
print("  ]},")
PY
    awk -v labels="$work/labels.txt" \
        '{ print } /^  "groups": / { while ((getline line < labels) > 0) print line }' \
        "$work/draw.json" >"$file"
    rm "$work/draw.json"
}

measure() {  # label, command...: prints wall seconds and peak RSS
    local name=$1
    shift
    /usr/bin/time -f "%e %M" -o "$work/time.txt" "$@" >"$work/last.log" 2>&1 ||
        { cat "$work/last.log"; exit 1; }
    read -r seconds kib <"$work/time.txt"
    printf '%-34s %8.2f s %8.1f MiB\n' "$name" "$seconds" "$(echo "$kib / 1024" | bc -l)"
}

printf '%-34s %10s %12s\n' "run" "wall" "peak RSS"
for n in $sizes; do
    file=$work/tests_$n.json
    [ -f "$file" ] || make_tests "$n" "$file"
    measure "mergeWDLstat, $n tests" "$build/apps/mergeWDLstat" "$file" -o "$work/merged_$n.json"
    measure "trackWDL --by month, $n tests" "$build/apps/trackWDL" "$file" --by month \
        --resample bootstrap --resamples 50 --threads 2 --json "$work/track_$n.json"
done
first=${sizes%% *}
measure "trackWDL --by test, $first tests" "$build/apps/trackWDL" "$work/tests_$first.json" \
    --by test --threads 2 --json "$work/track_by_test_$first.json"
