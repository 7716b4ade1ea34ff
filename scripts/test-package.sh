#!/usr/bin/env bash
# The Debian package as a user meets it (as root): build it (scripts/package.sh), install it
# with apt, run `wdlfit help`, the manual page, the completion and the demo's scan and fit of
# data/ from the installed programs in a folder of their own, then remove it and check that
# nothing is left. BUILD_DIR as in package.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
fail() {
    echo "FAIL: $*" >&2
    exit 1
}
deb=$(bash scripts/package.sh | tail -1)
export DEBIAN_FRONTEND=noninteractive
apt-get install -y -q "$deb" >/dev/null
work=$(mktemp -d /tmp/wdlfit-package.XXXXXX)
cp -r data "$work/data"
cd "$work"
[[ $(command -v wdlfit) == /usr/bin/wdlfit ]] || fail "wdlfit is not installed in /usr/bin"
wdlfit help
wdlfit --version
wdlfit scan --dir data -r --groups 64 -o counts.json | tail -3
scoreWDL counts.json --plot save --pngName fit.png --pngNameDistro distro.png | tee fit.log |
    grep -E "NormalizeToPawnValue|as = |bs = "
[[ -s fit.png ]] || fail "the installed scoreWDL drew no plot"
man -P cat scoreWDL | head -5
bash -c 'source /usr/share/bash-completion/completions/scoreWDLstat
         COMP_WORDS=(scoreWDLstat --matchT); COMP_CWORD=1; _wdlfit_complete
         [[ "${COMPREPLY[*]}" == "--matchTC --matchThreads" ]]' ||
    fail "completion of scoreWDLstat --matchT"
cd /
rm -rf "$work"
files=$(dpkg -L wdlfit | grep -v '^/\.$')
apt-get remove --purge -y -q wdlfit >/dev/null
dpkg -s wdlfit >/dev/null 2>&1 && fail "wdlfit is still installed"
for file in $files; do
    # Folders the package shared with others (/usr/bin, /usr/share/man/man1) stay.
    [[ -e $file && ! -d $file ]] && fail "$file is left after removing the package"
done
[[ -e /usr/share/doc/wdlfit ]] && fail "/usr/share/doc/wdlfit is left"
echo "The package $(basename "$deb") installed, ran the scan and the fit, and was removed cleanly."
