#!/usr/bin/env bash
# Configures and builds wdlfit into BUILD_DIR (default: build). Extra arguments go to cmake;
# TARGETS (e.g. "scoreWDLstat scoreWDL") builds only those targets and what they need.
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir=${BUILD_DIR:-build}
cmake -S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=${BUILD_TYPE:-Release} "$@" >/dev/null
targets=()
for target in ${TARGETS:-}; do targets+=(--target "$target"); done
cmake --build "$build_dir" -j "${JOBS:-$(nproc)}" "${targets[@]}"
