#!/usr/bin/env bash
# How fast scoreWDLstat --human reads a lichess dump, against zstd's decompression alone. A dump
# is made from real games in the database's dialect (default: the development set of lichess
# rapid games with server analysis): their games repeated, the "[%eval ...]" of all but one game
# in 16 (about 6 %, the share of a monthly dump's games that carry evals) taken out and a
# "[%clk]" left in each comment, as a dump writes its eval-less games. Then, round after round
# in an order that rotates, `zstd -d FILE -o /dev/null` and the scan on 1 and 2 threads;
# medians of the wall-clock and of the CPU time. Then the scan's peak memory (/usr/bin/time's
# maximum resident set) on 2 threads at each --memoryLimit given, and without a limit that
# it reaches (1048576 MB), with the runs it spilled, alternating over the rounds.
#
# Usage: scripts/bench_lichess_scan.sh [--games PGN.zst] [--gigabytes N] [--rounds N]
#          [--work DIR] [--limits "MB ..."] [--distinct]
#   --games PGN.zst  the real games (default /work/shared/lichess/lichess_rapid_dev.pgn.zst)
#   --gigabytes N    uncompressed size of the dump made (default 1)
#   --rounds N       rounds (default 3)
#   --work DIR       where the dump is made, and deleted after (default a new folder in /tmp)
#   --limits "MB ..." the --memoryLimit values whose peak memory is measured (default "64 16")
#   --distinct       every game keeps its evals and gets random ratings (600..2999, seeded), so
#                    that nearly every position is a cell of its own, as in a month's dump
set -euo pipefail
cd "$(dirname "$0")/.."
games=/work/shared/lichess/lichess_rapid_dev.pgn.zst gigabytes=1 rounds=3 work= limits="64 16" distinct=0
while [ $# -gt 0 ]; do
    case $1 in
        --games) games=$2; shift 2 ;;
        --gigabytes) gigabytes=$2; shift 2 ;;
        --rounds) rounds=$2; shift 2 ;;
        --work) work=$2; shift 2 ;;
        --limits) limits=$2; shift 2 ;;
        --distinct) distinct=1; shift ;;
        *) echo "Error: unknown option $1 (see the header of $0)" >&2; exit 2 ;;
    esac
done
scanner=${SCANNER:-build/apps/scoreWDLstat}
[ -x "$scanner" ] || TARGETS="scoreWDLstat" bash scripts/build.sh
scanner=$(realpath "$scanner")
[ -n "$work" ] || work=$(mktemp -d /tmp/bench_lichess_scan.XXXXXX)
mkdir -p "$work"
work=$(realpath "$work")
trap 'rm -f "$work/dump.pgn.zst" "$work/human.txt" "$work/time" "$work/out"' EXIT
dump=$work/dump.pgn.zst

# The dump: every game of the source once per pass, 1 in 16 with its evals (--distinct: all,
# with random ratings); passes until the size is reached. Streamed into zstd, so that the text
# never lies on the disk.
zstd -d -c "$games" | /usr/bin/python3 -c '
import random, re, sys
limit = int(float(sys.argv[1]) * 1e9)
distinct = sys.argv[2] == "1"
random.seed(1)
games = re.split(r"\n\n(?=\[Event )", sys.stdin.read().strip())
eval_comment = re.compile(r"\{ \[%eval [^\]]*\] \}")
rating = re.compile(r"\[(White|Black)Elo \"\d+\"\]")
written, number, out = 0, 0, sys.stdout
while written < limit:
    for game in games:
        if distinct:
            game = rating.sub(lambda m: "[%sElo \"%d\"]" % (m.group(1), random.randrange(600, 3000)), game)
        elif number % 16:
            game = eval_comment.sub("{ [%clk 0:10:00] }", game)
        number += 1
        text = game + "\n\n"
        out.write(text)
        written += len(text)
        if written >= limit:
            break
print(f"{number} games, {written} bytes", file=sys.stderr)
' "$gigabytes" "$distinct" 2>"$work/made" | zstd -q -3 -T2 -o "$dump" -f
text_bytes=$(awk '{print $3}' "$work/made")
dump_games=$(awk '{print $1}' "$work/made")

# Wall-clock and CPU (user + system) seconds of a run: on a machine that others share, the CPU
# time is the steadier measure of the work done.
seconds_of() {
    /usr/bin/time -f "%e %U %S" -o "$work/time" "$@" >/dev/null 2>&1
    awk '{ printf "%.3f %.3f\n", $1, $2 + $3 }' "$work/time"
}
ways=(zstd human1 human2)
run() {
    case $1 in
        zstd) seconds_of zstd -d -c -q "$dump" -o /dev/null ;;
        human1) seconds_of "$scanner" --human --file "$dump" --concurrency 1 -o "$work/human.txt" ;;
        human2) seconds_of "$scanner" --human --file "$dump" --concurrency 2 -o "$work/human.txt" ;;
    esac
}
"$scanner" --human --file "$dump" --concurrency 2 -o "$work/human.txt" | grep -E "^(Games|Positions)"
: >"$work/times"
for ((round = 0; round < rounds; ++round)); do
    for ((k = 0; k < ${#ways[@]}; ++k)); do
        way=${ways[$(((k + round) % ${#ways[@]}))]}
        echo "$way $(run "$way")" >>"$work/times"
    done
done
median() { sort -g | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
uptime
compressed=$(stat -c %s "$dump")
echo "Dump: $dump_games games, $text_bytes bytes of PGN ($compressed compressed); $rounds rounds, medians:"
median_of() { awk -v w="$1" -v c="$2" '$1 == w {print $c}' "$work/times" | median; }
zstd_wall=$(median_of zstd 2) zstd_cpu=$(median_of zstd 3)
printf '%-8s %10s %12s %12s %10s %10s %10s\n' way "wall s" "MB/s text" "games/s" "/ zstd" "CPU s" "/ zstd"
for way in "${ways[@]}"; do
    wall=$(median_of "$way" 2) cpu=$(median_of "$way" 3)
    awk -v w="$way" -v s="$wall" -v c="$cpu" -v b="$text_bytes" -v g="$dump_games" \
        -v zs="$zstd_wall" -v zc="$zstd_cpu" 'BEGIN {
            printf "%-8s %10.2f %12.0f %12.0f %10.2f %10.2f %10.2f\n", w, s, b / s / 1e6, g / s,
                s / zs, c, c / zc }'
done

# Peak memory at each limit: none reached first (1048576 MB), then the limits given.
command -v /usr/bin/time >/dev/null || { apt-get update -q && apt-get install -y -q time; }
all_limits=(1048576 $limits)
: >"$work/peaks"
for ((round = 0; round < rounds; ++round)); do
    for ((k = 0; k < ${#all_limits[@]}; ++k)); do
        limit=${all_limits[$(((k + round) % ${#all_limits[@]}))]}
        /usr/bin/time -f "%M %e" -o "$work/time" "$scanner" --human --file "$dump" --concurrency 2 \
            --memoryLimit "$limit" -o "$work/human.txt" >"$work/out" 2>/dev/null
        runs=$(grep -oE "went to [0-9]+" "$work/out" | awk '{print $3}' || true)
        echo "$limit $(cat "$work/time") ${runs:-0}" >>"$work/peaks"
    done
done
echo "Peak memory of --human on 2 threads by --memoryLimit ($rounds rounds, medians):"
printf '%-14s %10s %10s %8s
' "limit MB" "peak MB" "wall s" runs
for limit in "${all_limits[@]}"; do
    peak=$(awk -v l="$limit" '$1 == l {print $2 / 1024}' "$work/peaks" | median)
    wall=$(awk -v l="$limit" '$1 == l {print $3}' "$work/peaks" | median)
    runs=$(awk -v l="$limit" '$1 == l {print $4}' "$work/peaks" | median)
    printf '%-14s %10.0f %10.2f %8s\n' "$limit" "$peak" "$wall" "$runs"
done
