#!/usr/bin/env bash
# Scanner benchmark, side by side in one run: wdlfit's scoreWDLstat at 1 and 2 threads, the
# original WDL_model scoreWDLstat (when its binary is given), `zcat` and libdeflate's own
# decompressor (`libdeflate-gunzip`, decompression alone at its fastest) of the same files, on
# a fishtest-style corpus (scripts/make_bench_corpus.py) as many files and as one big
# multi-member file. The machine's own two-core scaling is measured in the same rotation: two
# independent one-thread scans of the many files at once, against one alone; the scanner's
# two threads should come near it. Every round runs every configuration once, in an order that rotates from
# round to round, so that the machine's drift hits them alike; each gets the median of its
# rounds. Peak memory of every run is kept; wdlfit's is also measured on a tenth of the corpus.
#
# Usage: scripts/bench_scan.sh [--original PATH] [--corpus DIR] [--rounds N]
#   --original PATH  the original scoreWDLstat, built outside this repository from
#                    official-stockfish/WDL_model (env ORIGINAL_SCANNER); its column is left
#                    out when absent
#   --corpus DIR     where the corpus is generated once (env BENCH_CORPUS; default
#                    ../bench-corpus beside this checkout)
#   --rounds N       rounds (default 5)
# The scanner measured is build/apps/scoreWDLstat (env SCANNER).
set -euo pipefail
cd "$(dirname "$0")/.."
original=${ORIGINAL_SCANNER:-}
corpus=${BENCH_CORPUS:-../bench-corpus}
rounds=5
while [ $# -gt 0 ]; do
    case $1 in
        --original) original=$2; shift 2 ;;
        --corpus) corpus=$2; shift 2 ;;
        --rounds) rounds=$2; shift 2 ;;
        *) echo "Error: unknown option $1 (see the header of $0)" >&2; exit 2 ;;
    esac
done
scanner=${SCANNER:-build/apps/scoreWDLstat}
[ -x "$scanner" ] || bash scripts/build.sh
command -v /usr/bin/time >/dev/null || { apt-get update -q && apt-get install -y -q time; }
command -v libdeflate-gunzip >/dev/null ||
    { apt-get update -q && apt-get install -y -q --no-install-recommends libdeflate-tools; }
if [ -n "$original" ] && [ ! -x "$original" ]; then
    echo "Note: no original scanner at $original; its column is left out." >&2
    original=
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

make_corpus() {  # $1 = directory, then make_bench_corpus.py options
    local dir=$1
    shift
    [ -f "$dir/.complete" ] && return
    rm -rf "$dir"
    python3 scripts/make_bench_corpus.py "$dir" "$@" >&2
    touch "$dir/.complete"
}
make_corpus "$corpus/many"
make_corpus "$corpus/tenth" --files 40 --tests 4 --text-mb 19 --seed 12
big=$corpus/big.pgn.gz
[ -f "$big" ] || find "$corpus/many" -name '*.pgn.gz' -print0 | sort -z | xargs -0 cat >"$big"

gz_files() { find "$corpus/many" -name '*.pgn.gz' -print0 | sort -z; }
files=$(gz_files | tr -cd '\0' | wc -c)
text_mb=$(gz_files | xargs -0 cat | zcat | wc -c | awk '{printf "%.0f", $1 / 1e6}')
echo "Corpus: $corpus: $files files, $text_mb MB of PGN text, $(du -sm "$big" | cut -f1) MB gzip"
echo "Machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)"
echo "Load before: $(cut -d' ' -f1-3 /proc/loadavg)"

# Configurations: NAME -> command. The original runs on 1 thread.
declare -A command
command[zcat_many]="find $corpus/many -name '*.pgn.gz' -print0 | sort -z | xargs -0 cat | zcat"
command[zcat_big]="zcat $big"
command[inflate_many]="find $corpus/many -name '*.pgn.gz' -print0 | sort -z | xargs -0 libdeflate-gunzip -c"
command[inflate_big]="libdeflate-gunzip -c $big"
scan_options="-o $work/out.json"
for threads in 1 2; do
    command[wdl_many_$threads]="$scanner --dir $corpus/many -r --concurrency $threads $scan_options"
    command[wdl_big_$threads]="$scanner --file $big --concurrency $threads $scan_options"
done
# Two one-thread scans of the same files at once, each writing its own output.
command[two_processes_many]="$scanner --dir $corpus/many -r --concurrency 1 -o $work/first.json & \
    $scanner --dir $corpus/many -r --concurrency 1 -o $work/second.json; wait"
if [ -n "$original" ]; then
    # The original writes its JSON where -o says and prints progress on stdout.
    command[orig_many_1]="$original --dir $corpus/many -r --concurrency 1 -o $work/orig.json"
    command[orig_big_1]="$original --file $big --concurrency 1 -o $work/orig.json"
fi
names=(zcat_many inflate_many wdl_many_1 wdl_many_2 two_processes_many zcat_big inflate_big wdl_big_1
    wdl_big_2)
[ -n "$original" ] && names+=(orig_many_1 orig_big_1)

declare -A times cpu peak
# run_once NAME: appends its wall seconds to times[NAME] and its CPU seconds (user + system,
# all processes of the command) to cpu[NAME], keeps its peak RSS (KiB)
run_once() {
    local name=$1 start end rss
    start=$(date +%s.%N)
    /usr/bin/time -o "$work/usage" -f '%M %U %S' bash -c "${command[$name]}" >/dev/null \
        2>"$work/err" || { echo "failed: ${command[$name]}" >&2; cat "$work/err" >&2; exit 1; }
    end=$(date +%s.%N)
    times[$name]+="$(echo "$end - $start" | bc -l) "
    read -r rss user system < <(tail -1 "$work/usage")
    cpu[$name]+="$(echo "$user + $system" | bc -l) "
    [ "${peak[$name]:-0}" -ge "$rss" ] || peak[$name]=$rss
}
for ((round = 0; round < rounds; round++)); do
    for ((i = 0; i < ${#names[@]}; i++)); do
        run_once "${names[(i + round) % ${#names[@]}]}"
    done
    echo "round $((round + 1))/$rounds done, load $(cut -d' ' -f1 /proc/loadavg)" >&2
done
echo "Load after: $(cut -d' ' -f1-3 /proc/loadavg)"

median_of() { printf '%s\n' "$@" | sort -n | awk '{a[NR] = $1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }
median() { median_of ${times[$1]}; }
median_cpu() { median_of ${cpu[$1]}; }
ratio() { echo "$1 $2" | awk '{printf "%.2f", $1 / $2}'; }
seconds() { printf '%.3f s' "$1"; }

echo
echo "Medians of $rounds rounds (wall time):"
echo
if [ -n "$original" ]; then
    echo "| input | zcat | original, 1 thread | wdlfit, 1 thread | wdlfit, 2 threads | wdlfit 1t vs zcat | original / wdlfit 1t | wdlfit 1 -> 2 threads |"
    echo "|---|---|---|---|---|---|---|---|"
else
    echo "| input | zcat | wdlfit, 1 thread | wdlfit, 2 threads | wdlfit 1t vs zcat | wdlfit 1 -> 2 threads |"
    echo "|---|---|---|---|---|---|"
fi
for layout in many big; do
    label="$files files"
    [ $layout = big ] && label="1 multi-member file"
    z=$(median zcat_$layout) one=$(median wdl_${layout}_1) two=$(median wdl_${layout}_2)
    if [ -n "$original" ]; then
        o=$(median orig_${layout}_1)
        echo "| $label | $(seconds "$z") | $(seconds "$o") | $(seconds "$one") | $(seconds "$two") | $(ratio "$one" "$z")x | $(ratio "$o" "$one")x | $(ratio "$one" "$two")x |"
    else
        echo "| $label | $(seconds "$z") | $(seconds "$one") | $(seconds "$two") | $(ratio "$one" "$z")x | $(ratio "$one" "$two")x |"
    fi
done
echo
echo "Decompression alone and the machine's scaling (medians of the same rounds):"
echo
echo "| input | libdeflate-gunzip | wdlfit 1t / libdeflate | wdlfit 1 -> 2 threads | two processes at once | threads / processes |"
echo "|---|---|---|---|---|---|"
one=$(median wdl_many_1) two=$(median wdl_many_2)
processes=$(echo "$(median wdl_many_1) $(median two_processes_many)" | awk '{printf "%.2f", 2 * $1 / $2}')
threads=$(ratio "$one" "$two")
echo "| $files files | $(seconds "$(median inflate_many)") | $(ratio "$one" "$(median inflate_many)")x | ${threads}x | ${processes}x | $(ratio "$threads" "$processes") |"
one=$(median wdl_big_1)
echo "| 1 multi-member file | $(seconds "$(median inflate_big)") | $(ratio "$one" "$(median inflate_big)")x | $(ratio "$one" "$(median wdl_big_2)")x | | |"
echo
echo "(two processes at once: 2 x the time of one one-thread scan / the time of two at once.)"
# Threads / processes is (T1 / T2) / (2 T1 / T_pair) = T_pair / (2 T2): it needs only the
# two-thread run and the two processes, which run in the same round, mostly one after the
# other. Taken round by round, the machine's drift between rounds cancels.
paired=$(paste -d' ' <(tr ' ' '\n' <<<"${times[two_processes_many]}") \
    <(tr ' ' '\n' <<<"${times[wdl_many_2]}") | awk 'NF == 2 {printf "%.4f ", $1 / (2 * $2)}')
echo "Threads / processes round by round (T_pair / 2 T2 of each round), median: $(median_of $paired | awk '{printf "%.2f", $1}');"
echo "  in round order: $paired"
echo
echo "CPU seconds (user + system, medians): on a busy machine wall times hide the scaling, these"
echo "show the work each configuration does."
for name in "${names[@]}"; do printf '  %s: %.3f s\n' "$name" "$(median_cpu "$name")"; done
echo
echo "All runs (wall seconds, in round order):"
for name in "${names[@]}"; do echo "  $name: ${times[$name]}"; done
echo
echo "Peak memory (max over the rounds):"
for name in "${names[@]}"; do
    [[ $name == zcat_* || $name == inflate_* ]] || echo "  $name: $((peak[$name] / 1024)) MiB"
done
/usr/bin/time -o "$work/usage" -f %M "$scanner" --dir "$corpus/tenth" -r --concurrency 2 \
    $scan_options >/dev/null 2>&1
echo "  wdlfit, 2 threads, on a tenth of the corpus ($corpus/tenth): $(($(tail -1 "$work/usage") / 1024)) MiB"
