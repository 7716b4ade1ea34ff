#!/usr/bin/env bash
# Memory on hostile input, the same bound in every program that reads games: writes a .pgn.gz
# of GAMES games (default 2,000,000) each with a bad FEN, runs scoreWDLstat, markovWDL,
# annotateWDL and scoreCompetence on it, and prints each one's peak memory (/usr/bin/time's
# maximum resident set), its exit status and wall time. Fails when a program exceeds LIMIT_MB
# (default 400) or crashes. Then memory against the input's size: scoreWDLstat on a .pgn.gz of
# one gzip member (GAMES / 4 and GAMES good games) and on a binpack (the training fixture
# repeated 1,000 and 4,000 times, 9.3 and 37 million positions), and on binpacks of blocks of
# 4 MiB and 100 MiB (king_walk_binpack), which must stay flat: the larger input may not take
# more than 1.25 times the smaller's peak plus 16 MB (for the blocks, plus the 200 MiB of the
# two blocks that are held whole as bytes).
# Usage: scripts/bench_memory.sh [GAMES]
set -euo pipefail
cd "$(dirname "$0")/.."
games=${1:-2000000}
limit_mb=${LIMIT_MB:-400}
bin=build/apps
programs=(scoreWDLstat markovWDL annotateWDL scoreCompetence)
for program in "${programs[@]}"; do
    [ -x "$bin/$program" ] || { TARGETS="${programs[*]}" bash scripts/build.sh; break; }
done
command -v /usr/bin/time >/dev/null || { apt-get update -q && apt-get install -y -q time; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
input=$work/bad_fens.pgn.gz
awk -v n="$games" 'BEGIN {
    for (i = 0; i < n; ++i)
        printf "[White \"A\"]\n[Black \"B\"]\n[Result \"1-0\"]\n[FEN \"8/8/8/8/8/8/8/8 w - - 0 %d\"]\n\n1. e4 e5 1-0\n\n", i
}' | gzip -1 >"$input"
echo "Input: $games games with a bad FEN, $(du -h "$input" | cut -f1) gzipped; limit ${limit_mb} MB."
failed=0
measure() {  # $1 = program; the rest: its arguments.
    local program=$1 status=0
    shift
    /usr/bin/time -f "%M %e" -o "$work/time" "$bin/$program" "$@" >"$work/out" 2>"$work/err" || status=$?
    read -r kilobytes seconds < <(tail -1 "$work/time")
    local megabytes=$((kilobytes / 1024))
    printf '%-16s peak %5d MB  exit %d  %6.1f s  %s\n' "$program" "$megabytes" "$status" "$seconds" \
        "$(grep -c '^Warning' "$work/err" || true) warning lines"
    if ((megabytes > limit_mb)) || ((status > 1)); then failed=1; fi
}
measure scoreWDLstat --file "$input" -o "$work/counts.json"
measure markovWDL --file "$input"
measure annotateWDL "$input" --model sf18 -o "$work/annotated.pgn"
measure scoreCompetence --file "$input" --noGenerate --tableDir "$work/tables"

# The same program on growing inputs: nothing is read whole.
peak_of() {  # $1 = input, the rest: scoreWDLstat's options; prints the peak in MB.
    local input=$1
    shift
    /usr/bin/time -f "%M" -o "$work/time" "$bin/scoreWDLstat" --file "$input" --concurrency 2 \
        -o "$work/counts.json" "$@" >/dev/null 2>&1
    echo $(($(tail -1 "$work/time") / 1024))
}
flat() {  # $1 = what, $2 = smaller input, $3 = larger input, the rest: options.
    # held_mb: bytes the larger input must hold whole by its layout, allowed on top.
    local what=$1 small=$2 large=$3 held=${held_mb:-0}
    shift 3
    local small_mb large_mb
    small_mb=$(peak_of "$small" "$@")
    large_mb=$(peak_of "$large" "$@")
    printf '%-44s peak %5d MB (%s) -> %5d MB (%s)\n' "scoreWDLstat, $what" "$small_mb" \
        "$(du -h "$small" | cut -f1)" "$large_mb" "$(du -h "$large" | cut -f1)"
    if ((large_mb * 4 > small_mb * 5 + 64 + held * 4)); then failed=1; fi
}
good_games() {  # $1 = games: one gzip member of real-looking games.
    awk -v n="$1" 'BEGIN {
        for (i = 0; i < n; ++i)
            printf "[White \"A\"]\n[Black \"B\"]\n[Result \"1-0\"]\n\n1. e4 {+0.30/10} e5 {-0.25/9} 2. Nf3 {+0.31/11} Nc6 {-0.29/10} 1-0\n\n"
    }' | gzip -1
}
good_games $((games / 4)) >"$work/small.pgn.gz"
good_games "$games" >"$work/large.pgn.gz"
flat "PGN, one gzip member" "$work/small.pgn.gz" "$work/large.pgn.gz"
binpack=tests/data/training/games.binpack
for copies in 1000 4000; do
    for _ in $(seq "$copies"); do cat "$binpack"; done >"$work/$copies.binpack"
done
flat "binpack" "$work/1000.binpack" "$work/4000.binpack" --NormalizeToPawnValue 100
# And against a block's size: the same 200 MiB of legal chains (king walks, one position a
# byte, tests/training/king_walk_binpack.hpp) in blocks of 4 MiB and of 100 MiB, Stockfish's
# limit, with --groups 64. A chunk holds whole blocks, so the two of 100 MiB are held as bytes
# (one decoded, one read), 200 MiB on top of the rule; their keys, once 8 bytes a position
# (3.9 GB), may add nothing.
walker=build/tests/training/king_walk_binpack
[ -x "$walker" ] || TARGETS=king_walk_binpack bash scripts/build.sh
"$walker" 50 $((4 << 20)) >"$work/blocks_of_4MiB.binpack"
"$walker" 2 $((100 << 20)) >"$work/blocks_of_100MiB.binpack"
held_mb=200 flat "binpack, 4 -> 100 MiB blocks" "$work/blocks_of_4MiB.binpack" \
    "$work/blocks_of_100MiB.binpack" --NormalizeToPawnValue 100 --groups 64
exit $failed
