#!/usr/bin/env bash
# Fails, listing the files, if any C++ file of the repository differs from clang-format's
# layout (.clang-format). Fix with: clang-format -i $(git ls-files '*.cpp' '*.hpp')
set -euo pipefail
cd "$(dirname "$0")/.."
mapfile -t files < <(git ls-files '*.cpp' '*.hpp')
if ! clang-format --dry-run --Werror "${files[@]}" 2>/tmp/wdlfit-format.$$; then
    grep -o '^[^:]*:[0-9]*:[0-9]*: error' /tmp/wdlfit-format.$$ | cut -d: -f1 | sort -u |
        sed 's/^/not formatted: /' >&2
    rm -f /tmp/wdlfit-format.$$
    exit 1
fi
rm -f /tmp/wdlfit-format.$$
echo "Format: all ${#files[@]} C++ files follow .clang-format."
