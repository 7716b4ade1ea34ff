#!/usr/bin/env bash
# Builds the libFuzzer targets of fuzz/ with clang (ASan + UBSan) and runs each for a bounded
# time from its seed corpus (fuzz/corpus/<target>/, plus fuzz/pgn.dict for PGN), as many at
# once as there are cores (JOBS). Fails on a crash, a leak, a timeout of one input (10 s) or an
# input over 2 GB of memory; the input that did it is kept as fuzz-out/<target>/crash-* (or
# leak-*, timeout-*, oom-*): make it a test.
# Usage: scripts/fuzz.sh [SECONDS per target (default 60)] [TARGET ...]   BUILD_DIR (build-fuzz)
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] ||
    targets=(pgn_counter markov_collector competence_analysis block_reader count_file metadata fen_san
        training_readers)
build=${BUILD_DIR:-build-fuzz}
bash scripts/install-deps.sh --ci
source scripts/compiler-cache.sh
# Each source compiled alone and without the modules' precompiled header: this tree also shows
# that every file includes what it uses (CI builds no other that way).
CC=clang CXX=clang++ cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Check \
    "${compiler_cache_options[@]}" -DWDL_FUZZ=ON -DWDL_BUILD_TESTS=OFF \
    -DCMAKE_DISABLE_PRECOMPILE_HEADERS=ON >/dev/null
# shellcheck disable=SC2046
cmake --build "$build" -j "${JOBS:-$(nproc)}" $(printf -- '--target fuzz_%s ' "${targets[@]}") \
    >"$build/build.log" 2>&1 || { tail -30 "$build/build.log" >&2; exit 1; }
# fuzz_one TARGET: runs one target into fuzz-out/TARGET and prints one line of its outcome.
fuzz_one() {
    local target=$1 out=fuzz-out/$1 dictionary=()
    rm -rf "$out" && mkdir -p "$out/corpus"
    case $target in pgn_counter | markov_collector | competence_analysis) dictionary=(-dict=fuzz/pgn.dict) ;; esac
    local log=$out/fuzz.log
    if "$build/fuzz/fuzz_$target" "$out/corpus" "fuzz/corpus/$target" "${dictionary[@]}" \
        -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
        -artifact_prefix="$out/" -print_final_stats=1 >"$log" 2>&1; then
        local runs coverage
        runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo '?')
        coverage=$(grep -o 'cov: [0-9]*' "$log" | tail -1 || true)
        echo "fuzz_$target: $runs executions in ${seconds} s, $coverage, $(ls "$out/corpus" | wc -l) corpus inputs; no crash"
    else
        echo "fuzz_$target FAILED: $(ls "$out" | grep -E '^(crash|leak|timeout|oom)-' | head -1)" >&2
        grep -E 'ERROR|SUMMARY' "$log" | head -5 >&2
        return 1
    fi
}
# The targets run side by side, one a core (each fuzzer is one process on one thread): the
# same time for each target in half the wall time on two cores.
failed=0
running=0
for target in "${targets[@]}"; do
    if ((running >= ${JOBS:-$(nproc)})); then
        wait -n || failed=1
        running=$((running - 1))
    fi
    fuzz_one "$target" &
    running=$((running + 1))
done
while ((running > 0)); do
    wait -n || failed=1
    running=$((running - 1))
done
exit $failed
