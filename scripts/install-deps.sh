#!/usr/bin/env bash
# Installs the Debian 12 packages wdlfit needs to build, test and plot (run as root).
set -euo pipefail
packages=(
    cmake ninja-build g++ pkg-config git
    zlib1g-dev libdeflate-dev libzstd-dev libre2-dev nlohmann-json3-dev libsimdjson-dev
    libceres-dev catch2 libcurl4-openssl-dev libcli11-dev libfmt-dev
    gnuplot-nox zstd jq clang-format python3-numpy clang libclang-rt-dev
    gaviotatb libgaviotatb-dev
)
missing=()
for package in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" ||
        missing+=("$package")
done
if ((${#missing[@]})); then
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -q
    apt-get install -y -q --no-install-recommends "${missing[@]}"
fi
