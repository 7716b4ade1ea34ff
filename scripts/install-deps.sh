#!/usr/bin/env bash
# Installs the Debian 12 packages wdlfit needs (run as root). Everything is named here, so a
# minimal Debian 12 (debootstrap --variant=minbase) suffices: scripts/test-fresh-debian.sh proves it.
# Usage: scripts/install-deps.sh [--tests | --package | --ci]
#   (none)   build, run and plot: what the demo needs
#   --tests  also what the test suite needs beyond that: headless Chromium and a font, which
#            load the HTML report as a browser does; rustc and nodejs, which compile and run
#            exportWDL's Rust and JavaScript exports (scripts/test.sh); stockfish (15.1), whose
#            printed evals and W/D/L the display tests reproduce
#   --package  also what building and checking the Debian package needs (scripts/package.sh):
#            dpkg-shlibdeps, lintian, man
#   --ci     the --tests and --package packages and what the rest of .ci/run needs:
#            clang-format, clang with its sanitizer and libFuzzer runtimes, its OpenMP and lld
#            (the sanitizer and fuzz builds), Slurm and munge (the Slurm test), and ccache, which
#            the build scripts use when it is there (scripts/compiler-cache.sh)
set -euo pipefail
packages=(
    ca-certificates cmake ninja-build g++ pkg-config git
    zlib1g-dev libdeflate-dev libzstd-dev libre2-dev nlohmann-json3-dev libsimdjson-dev
    libceres-dev catch2 libcurl4-openssl-dev libssl-dev libcli11-dev libfmt-dev
    gnuplot-nox zstd jq python3-numpy
    gaviotatb libgaviotatb-dev help2man
)
test_packages=(chromium fonts-dejavu-core rustc nodejs stockfish)
package_packages=(dpkg-dev lintian man-db)
case "${1:-}" in
"") ;;
--tests) packages+=("${test_packages[@]}") ;;
--package) packages+=("${package_packages[@]}") ;;
--ci) packages+=("${test_packages[@]}" "${package_packages[@]}" clang-format clang libclang-rt-dev libomp-dev lld slurm-wlm munge ccache) ;;
*) echo "Usage: $0 [--tests | --package | --ci]" >&2; exit 2 ;;
esac
missing=()
for package in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" ||
        missing+=("$package")
done
if ((${#missing[@]})); then
    echo "Installing ${missing[*]} ..."
    export DEBIAN_FRONTEND=noninteractive
    log=$(mktemp)
    if ! { apt-get update -q && apt-get install -y -q --no-install-recommends "${missing[@]}"; } \
        >"$log" 2>&1; then
        tail -40 "$log" >&2
        rm -f "$log"
        echo "Error: apt-get could not install the packages above." >&2
        exit 1
    fi
    rm -f "$log"
fi
