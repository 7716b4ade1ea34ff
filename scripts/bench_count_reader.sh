#!/usr/bin/env bash
# Which way a plain count file is read, and what each way is worth: the same counts (synthWDL,
# 1e7 positions by default) in three spellings of one JSON format, each loaded by
# `scoreWDL --modelFitting None` (the load is nearly all of that run), side by side in one run:
#   layout   the scanners' own layout, one entry a line (what scoreWDLstat, mergeWDLstat and
#            synthWDL write, and the original scanner too): read by the strict layout parser
#   halves   Python's json.dump on one line (", " and ": "): simdjson, two halves at once
#   onepiece the same without blanks (separators "," and ":"), which has no place to cut:
#            simdjson in one piece, as every small or unusual file is read
# Every round loads each file once, in an order that rotates from round to round; medians.
#
# Usage: scripts/bench_count_reader.sh [--positions N] [--rounds N] [--work DIR]
#   --positions N  positions drawn (default 1e7)
#   --rounds N     rounds (default 9)
#   --work DIR     where the files are made once (default ../bench-counts beside this checkout)
set -euo pipefail
cd "$(dirname "$0")/.."
positions=1e7 rounds=9 work=../bench-counts
while [ $# -gt 0 ]; do
    case $1 in
        --positions) positions=$2; shift 2 ;;
        --rounds) rounds=$2; shift 2 ;;
        --work) work=$2; shift 2 ;;
        *) echo "Error: unknown option $1 (see the header of $0)" >&2; exit 2 ;;
    esac
done
fitter=${FITTER:-build/apps/scoreWDL}
sampler=${SAMPLER:-build/apps/synthWDL}
[ -x "$fitter" ] && [ -x "$sampler" ] || TARGETS="scoreWDL synthWDL" bash scripts/build.sh
fitter=$(realpath "$fitter") sampler=$(realpath "$sampler")
mkdir -p "$work"
work=$(realpath "$work")
layout=$work/layout_$positions.json
[ -s "$layout" ] || "$sampler" -n "$positions" --seed 20240601 -o "$layout" >/dev/null
for spelling in halves onepiece; do
    [ -s "$work/${spelling}_$positions.json" ] && continue
    python3 - "$layout" "$work/${spelling}_$positions.json" "$spelling" <<'PYTHON'
import json, sys
counts = json.load(open(sys.argv[1]))
separators = (", ", ": ") if sys.argv[3] == "halves" else (",", ":")
json.dump(counts, open(sys.argv[2], "w"), separators=separators)
PYTHON
done
cd "$work"  # scoreWDL writes its files here

seconds_of() {
    local start end
    start=$(date +%s.%N)
    "$@" >/dev/null
    end=$(date +%s.%N)
    awk -v a="$start" -v b="$end" 'BEGIN { printf "%.4f\n", b - a }'
}
# The same fit from every spelling first: a faster read that reads differently is no result.
reference=$("$fitter" "$layout" --plot no --modelFitting None | grep "^Retained")
for spelling in halves onepiece; do
    again=$("$fitter" "$work/${spelling}_$positions.json" --plot no --modelFitting None |
        grep "^Retained")
    [ "$again" = "$reference" ] || { echo "Error: $spelling reads differently" >&2; exit 1; }
done

spellings=(layout halves onepiece)
: >"$work/times"
for ((round = 0; round < rounds; ++round)); do
    for ((k = 0; k < 3; ++k)); do
        spelling=${spellings[$(((k + round) % 3))]}
        echo "$spelling $(seconds_of "$fitter" "$work/${spelling}_$positions.json" --plot no \
            --modelFitting None)" >>"$work/times"
    done
done
median() { sort -g | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
uptime
echo "Loading $positions positions (scoreWDL --modelFitting None), $rounds rounds, medians:"
printf '%-10s %10s %12s\n' spelling MB seconds
for spelling in "${spellings[@]}"; do
    mb=$(stat -c %s "$work/${spelling}_$positions.json" | awk '{printf "%.1f", $1 / 1e6}')
    printf '%-10s %10s %12.3f\n' "$spelling" "$mb" \
        "$(awk -v s="$spelling" '$1 == s {print $2}' "$work/times" | median)"
done
