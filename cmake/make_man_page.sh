#!/usr/bin/env bash
# Writes the gzipped manual page of one program from its --help, with help2man:
#   make_man_page.sh WDLFIT PROGRAM VERSION OUTPUT
# WDLFIT (the entry point) gives the program's one-line summary, so that `wdlfit help` and the
# NAME line of the page say the same.
set -euo pipefail
wdlfit=$1 program=$2 version=$3 output=$4
name=$(basename "$program")
if [[ $name == wdlfit ]]; then
    summary="win/draw/loss models of chess engines: the entry point of the programs"
else
    summary=$("$wdlfit" --list-programs | awk -F'\t' -v program="$name" '$2 == program { print $3 }')
fi
if [[ -z $summary ]]; then
    echo "Error: $name is not listed by wdlfit --list-programs" >&2
    exit 1
fi
see_also=$(mktemp)
trap 'rm -f "$see_also" "$output.tmp"' EXIT
cat >"$see_also" <<SEE_ALSO
[SEE ALSO]
.BR wdlfit (1),
.BR scoreWDLstat (1),
.BR scoreWDL (1).
The documentation of every program, option, printed line and file format is installed with
wdlfit in share/doc/wdlfit (docs/ of the sources).
SEE_ALSO
help2man --no-info --no-discard-stderr --section=1 --version-string="$version" \
    --name="$summary" --source="wdlfit $version" --manual="wdlfit manual" \
    --include="$see_also" "$program" | gzip -9n >"$output.tmp"
mv "$output.tmp" "$output"
