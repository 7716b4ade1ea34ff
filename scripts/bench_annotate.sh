#!/usr/bin/env bash
# annotateWDL against the scanner on the same files, side by side: each round runs the scanner
# at 1 thread (annotateWDL reads on one) and annotateWDL (sf18, default options) once, in
# alternating order; medians of the rounds, wall and CPU seconds. Usage:
#   scripts/bench_annotate.sh [--corpus DIR] [--rounds N]   (corpus: as bench_scan.sh makes it)
set -euo pipefail
cd "$(dirname "$0")/.."
corpus=${BENCH_CORPUS:-../bench-corpus}
rounds=5
while [ $# -gt 0 ]; do
    case $1 in
        --corpus) corpus=$2; shift 2 ;;
        --rounds) rounds=$2; shift 2 ;;
        *) echo "Error: unknown option $1 (see the header of $0)" >&2; exit 2 ;;
    esac
done
bin=build/apps
[ -x $bin/annotateWDL ] && [ -x $bin/scoreWDLstat ] || TARGETS="annotateWDL scoreWDLstat" bash scripts/build.sh
[ -d "$corpus/many" ] || { echo "Error: no corpus at $corpus (make it with scripts/bench_scan.sh)" >&2; exit 1; }
command -v /usr/bin/time >/dev/null || { apt-get update -q && apt-get install -y -q time; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mapfile -t files < <(find "$corpus/many" -name '*.pgn.gz' | sort)
echo "Corpus: ${#files[@]} files of $corpus/many; load before: $(cut -d' ' -f1-3 /proc/loadavg)"
run() {  # $1 = name; the rest: the command. Appends "wall cpu" to $work/$1.
    local name=$1
    shift
    /usr/bin/time -f "%e %U %S" -o "$work/time" "$@" >/dev/null 2>&1
    awk '{print $1, $2 + $3}' "$work/time" >>"$work/$name"
}
for ((round = 1; round <= rounds; round++)); do
    scan() { run scanner $bin/scoreWDLstat --dir "$corpus/many" -r --concurrency 1 -o "$work/counts.json"; }
    annotate() { run annotate $bin/annotateWDL "${files[@]}" --model sf18 -o "$work/annotated.pgn"; }
    if ((round % 2)); then scan; annotate; else annotate; scan; fi
done
median() { sort -n | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
scan_wall=$(cut -d' ' -f1 "$work/scanner" | median)
annotate_wall=$(cut -d' ' -f1 "$work/annotate" | median)
scan_cpu=$(cut -d' ' -f2 "$work/scanner" | median)
annotate_cpu=$(cut -d' ' -f2 "$work/annotate" | median)
echo "Load after: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| program | wall (median of $rounds) | CPU |"
echo "|---|---|---|"
echo "| scoreWDLstat, 1 thread | ${scan_wall} s | ${scan_cpu} s |"
echo "| annotateWDL | ${annotate_wall} s | ${annotate_cpu} s |"
awk -v s="$scan_wall" -v a="$annotate_wall" -v sc="$scan_cpu" -v ac="$annotate_cpu" \
    'BEGIN {printf "annotateWDL runs at %.2fx the scanner'"'"'s speed (wall), %.2fx (CPU); the aim is >= 0.5.\n", s / a, sc / ac}'
