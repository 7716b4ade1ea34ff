#!/usr/bin/env bash
# Builds wdlfit's Debian package with CPack from BUILD_DIR (default: build; built first if
# needed), checks it with lintian, and prints the package's path on the last line.
# Extra arguments go to cmake, as in build.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir=${BUILD_DIR:-build}
bash scripts/install-deps.sh --package >&2
bash scripts/build.sh "$@" >&2
rm -f "$build_dir"/wdlfit_*.deb
(cd "$build_dir" && cpack -G DEB >cpack.log) || {
    cat "$build_dir/cpack.log" >&2
    exit 1
}
deb=$(realpath "$build_dir"/wdlfit_*.deb)
# lintian's warnings and notes are printed, not fatal (docs/install.md lists the ones that stay,
# and why); an error (a line "E: ...") fails the package, and so CI.
echo "lintian $(basename "$deb"):" >&2
findings=$(lintian --info --display-info "$deb" 2>&1 || true)
[[ -n $findings ]] && printf '%s\n' "$findings" >&2
if grep -q '^E: ' <<<"$findings"; then
    echo "Error: lintian found errors in $(basename "$deb") (lines E: above)" >&2
    exit 1
fi
echo "$deb"
