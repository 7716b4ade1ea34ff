#!/usr/bin/env bash
# Memory on hostile input, the same bound in every program that reads games: writes a .pgn.gz
# of GAMES games (default 2,000,000) each with a bad FEN, runs scoreWDLstat, markovWDL,
# annotateWDL and scoreCompetence on it, and prints each one's peak memory (/usr/bin/time's
# maximum resident set), its exit status and wall time. Fails when a program exceeds LIMIT_MB
# (default 400) or crashes. Usage: scripts/bench_memory.sh [GAMES]
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
exit $failed
