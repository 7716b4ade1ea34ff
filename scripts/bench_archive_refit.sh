#!/usr/bin/env bash
# The refit from the archive in batches (archiveWDL) against "download all, then scan all"
# (download_fishtest_pgns --archive, then scoreWDLstat) on the same tests, served by a local
# stand-in of the Hub (scripts/hub_bench_server.py) whose output is capped at --rate MB/s.
# Rounds alternate the two; the figures are medians. The pipeline downloads the next batch
# while it scans one, so its wall time should be near max(download, scan), not their sum.
# The corpus: --copies copies of data/'s six tests, each copy a test of its own id, spread over
# the days of 2025, each game file the original's gzip members repeated --repeat times (files
# of a few MB, as fishtest's are, so that the transfers and not the requests take the time).
# Usage: scripts/bench_archive_refit.sh [--copies N (8)] [--repeat N (20)] [--rate MB_PER_S (25)]
#                                       [--batch_gb G (0.02)] [--threads N (1)] [--rounds N (5)]
set -euo pipefail
cd "$(dirname "$0")/.."
copies=8 repeat=20 rate=25 batch_gb=0.02 threads=1 rounds=5
while [ $# -gt 0 ]; do
    case $1 in
        --copies) copies=$2; shift 2 ;;
        --repeat) repeat=$2; shift 2 ;;
        --rate) rate=$2; shift 2 ;;
        --batch_gb) batch_gb=$2; shift 2 ;;
        --threads) threads=$2; shift 2 ;;
        --rounds) rounds=$2; shift 2 ;;
        *) echo "usage: see the comment at the top of $0" >&2; exit 2 ;;
    esac
done
bin=${BIN:-build/apps}
for program in archiveWDL download_fishtest_pgns scoreWDLstat; do
    [ -x "$bin/$program" ] || { echo "Error: $bin/$program is not built." >&2; exit 1; }
done
work=out/bench/archive_refit
hub=$work/hub
if [ ! -f "$hub/.complete-$copies-$repeat" ]; then
    rm -rf "$hub" && mkdir -p "$hub"
    for ((i = 0; i < copies; i++)); do
        date=$(printf '25-%02d-%02d' $((i % 12 + 1)) $((i / 12 % 28 + 1)))
        for test in data/*-*-*/*/; do
            old=$(basename "$test")
            new=$(printf '%06x' "$i")${old:6}
            mkdir -p "$hub/$date/$new"
            for file in "$test"*; do
                name=$(basename "$file")
                target=$hub/$date/$new/${name/$old/$new}
                if [[ $name == *.pgn.gz ]]; then
                    for ((r = 0; r < repeat; r++)); do cat "$file"; done >"$target"
                else
                    cp "$file" "$target"
                fi
            done
        done
    done
    touch "$hub/.complete-$copies-$repeat"
fi
bytes=$(du -sb --exclude='.complete*' "$hub" | cut -f1)

port=$((20000 + RANDOM % 20000))
python3 scripts/hub_bench_server.py "$hub" --port "$port" \
    --rate "$(python3 -c "print(int($rate * 1e6))")" >/dev/null &
server=$!
trap 'kill $server 2>/dev/null || true' EXIT
export HF_ENDPOINT=http://127.0.0.1:$port HF_TOKEN=
for _ in $(seq 50); do
    curl -sf "$HF_ENDPOINT/api/datasets/official-stockfish/fishtest_pgns/revision/main" \
        >/dev/null && break
    sleep 0.2
done

seconds() { python3 -c "import time; print(time.monotonic())"; }
median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
: >"$work/pipelined.txt"; : >"$work/download.txt"; : >"$work/scan.txt"; : >"$work/sum.txt"
for ((round = 0; round < rounds; round++)); do
    rm -rf "$work/refit" "$work/pgns"
    start=$(seconds)
    "$bin/archiveWDL" --dates '25-*' --work "$work/refit" --batch_size "$batch_gb" --jobs 4 --pause 0 \
        --concurrency "$threads" --scan_only >"$work/refit.log" 2>&1
    end=$(seconds)
    echo "$end - $start" | bc -l >>"$work/pipelined.txt"

    start=$(seconds)
    "$bin/download_fishtest_pgns" --archive --dates '25-*' --path "$work/pgns" --jobs 4 --pause 0 \
        >"$work/download.log" 2>&1
    middle=$(seconds)
    "$bin/scoreWDLstat" --dir "$work/pgns" -r --groups 64 --concurrency "$threads" \
        -o "$work/whole.json" >"$work/scan.log" 2>&1
    end=$(seconds)
    echo "$middle - $start" | bc -l >>"$work/download.txt"
    echo "$end - $middle" | bc -l >>"$work/scan.txt"
    echo "$end - $start" | bc -l >>"$work/sum.txt"
    cmp -s "$work/whole.json" "$work/refit/archive_counts.json" ||
        { echo "Error: the two ways gave different counts (see $work)." >&2; exit 1; }
done
batches=$(grep -c '^Batch [0-9]* of' "$work/refit.log" || true)
printf '%d tests, %.1f MB, served at %s MB/s; %s batches of %s GB; %s scan thread(s); %d rounds\n' \
    $((copies * 6)) "$(echo "$bytes / 1000000" | bc -l)" "$rate" "$batches" "$batch_gb" \
    "$threads" "$rounds"
printf '%-34s %8s\n' "median seconds" ""
printf '%-34s %8.2f\n' "download all (--jobs 4)" "$(median <"$work/download.txt")"
printf '%-34s %8.2f\n' "scan all" "$(median <"$work/scan.txt")"
printf '%-34s %8.2f\n' "download, then scan" "$(median <"$work/sum.txt")"
printf '%-34s %8.2f\n' "archiveWDL --scan_only (pipelined)" "$(median <"$work/pipelined.txt")"
