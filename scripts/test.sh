#!/usr/bin/env bash
# Installs dependencies, builds with warnings as errors, and runs the whole test suite.
# BUILD_DIR, BUILD_TYPE, TARGETS (see build.sh) and TEST_LABEL (run only tests with this
# CTest label, e.g. threaded) vary the run; extra arguments go to cmake. It builds a unity
# build (up to 8 sources of a target in one translation unit, their headers parsed once: a
# third less compile time); UNITY_BUILD=OFF compiles each source alone, as scripts/build.sh does.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh --tests
bash scripts/build.sh -DWDL_WERROR=ON -DCMAKE_UNITY_BUILD="${UNITY_BUILD:-ON}" "$@"
ctest --test-dir "${BUILD_DIR:-build}" --output-on-failure -j "$(nproc)" \
    ${TEST_LABEL:+--label-regex "^${TEST_LABEL}\$"}
