#!/usr/bin/env bash
# Configures and builds wdlfit into BUILD_DIR (default: build). Extra arguments go to cmake;
# TARGETS (e.g. "scoreWDLstat scoreWDL") builds only those targets and what they need.
# With ccache installed, compiles go through it (scripts/compiler-cache.sh; CCACHE_DISABLE=1
# turns it off): a second build of the same sources, in any clone, is mostly cache hits.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/compiler-cache.sh
build_dir=${BUILD_DIR:-build}
cmake -S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=${BUILD_TYPE:-Release} \
    "${compiler_cache_options[@]}" "$@" >/dev/null
targets=()
for target in ${TARGETS:-}; do targets+=(--target "$target"); done
cmake --build "$build_dir" -j "${JOBS:-$(nproc)}" "${targets[@]}"
