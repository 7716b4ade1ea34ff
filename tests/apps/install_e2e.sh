#!/usr/bin/env bash
# wdlfit as a user installs it: `cmake --install` into a temporary prefix, then, from a folder
# outside the checkout and the build with only the prefix's bin/ added to the system's PATH,
# every program's --help, the entry point, the bundled scan and fit, the manual pages, the bash
# completion and the installed scripts.
#   install_e2e.sh SOURCE_DIR BUILD_DIR WORK_DIR PROGRAM,PROGRAM,...
set -euo pipefail
source_dir=$1 build_dir=$2 work=$3
IFS=, read -r -a built_programs <<<"$4"
fail() {
    echo "FAIL: $*" >&2
    exit 1
}
rm -rf "$work"
mkdir -p "$work/run"
prefix=$work/prefix
cmake --install "$build_dir" --prefix "$prefix" >"$work/install.log"
cp -r "$source_dir/data" "$work/run/data"
cd "$work/run"
export PATH="$prefix/bin:/usr/local/bin:/usr/bin:/bin"

# No installed text file names the checkout or the build (programs find nothing there).
if grep -rlIF -e "$source_dir" -e "$build_dir" "$prefix"; then
    fail "the installed files above point back into the checkout or the build"
fi

# The entry point lists exactly the programs built, plus updateWDL.sh.
[[ $(command -v wdlfit) == "$prefix/bin/wdlfit" ]] || fail "wdlfit is not the installed one"
wdlfit --version | grep -Eq '^wdlfit [0-9]+\.[0-9]+\.[0-9]+ \(commit ' || fail "wdlfit --version"
scoreWDL --version | grep -Eq '^scoreWDL [0-9]+\.[0-9]+\.[0-9]+ \(wdlfit, commit ' ||
    fail "scoreWDL --version"
listed=$(wdlfit --list-programs | cut -f2 | sort)
expected=$(printf '%s\n' "${built_programs[@]}" updateWDL.sh | sort)
[[ $listed == "$expected" ]] || fail "wdlfit lists $(echo $listed), the build has $(echo $expected)"
wdlfit help | grep -q '^  scan  *scoreWDLstat ' || fail "wdlfit help lacks the scan line"
wdlfit | cmp -s - <(wdlfit help) || fail "wdlfit alone differs from wdlfit help"
# An unknown command is an error as every other: one line, status 1 (docs/programs.md).
status=0
unknown=$(wdlfit no-such-command 2>&1) || status=$?
[[ $status == 1 ]] || fail "wdlfit no-such-command exits with $status, not 1"
[[ $unknown == "Error: no command 'no-such-command'; \`wdlfit help\` lists them" ]] ||
    fail "wdlfit no-such-command prints: $unknown"

# Every program runs from the prefix, under its own name and through wdlfit.
while IFS=$'\t' read -r command program _; do
    "$program" --help >"$program.help" || fail "$program --help"
    wdlfit help "$command" | cmp -s - "$program.help" || fail "wdlfit help $command differs"
    man_page=$prefix/share/man/man1/$program.1.gz
    [[ -s $man_page ]] || fail "no manual page $man_page"
    zcat "$man_page" | grep -q "^\.TH \"\?${program^^}" || fail "$man_page has no title"
done < <(wdlfit --list-programs)

# The main job from the prefix: scan the corpus with error-bar groups, fit, print the constants.
wdlfit scan --dir data -r --groups 64 -o counts.json >scan.log || fail "wdlfit scan"
grep -q "^Games: 800 read" scan.log || fail "the scan printed no summary"
scoreWDL counts.json --plot save --pngName fit.png --pngNameDistro distro.png >fit.log ||
    fail "scoreWDL"
grep -q "NormalizeToPawnValue" fit.log || fail "the fit printed no NormalizeToPawnValue"
if command -v gnuplot >/dev/null; then [[ -s fit.png ]] || fail "no plot"; fi
wdlfit fit counts.json --plot no >fit_through_wdlfit.log || fail "wdlfit fit"
scoreWDL counts.json --plot no >fit_direct.log || fail "scoreWDL"
# (all but the elapsed time)
diff -q -I "^Total elapsed time" fit_through_wdlfit.log fit_direct.log >/dev/null || fail "wdlfit fit and scoreWDL print different lines"

# The manual page renders where man is installed.
if command -v man >/dev/null; then
    MANPATH=$prefix/share/man man -P cat scoreWDL 2>/dev/null | grep -Eq "scoreWDL +- +fit" ||
        fail "man scoreWDL"
fi

# Bash completion, loaded as bash-completion loads it: from the file named after the command.
completions=$prefix/share/bash-completion/completions
complete_line() {
    local words=($1)
    [[ $1 == *" " ]] && words+=("")
    bash -c 'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _wdlfit_complete
             printf "%s\n" "${COMPREPLY[@]}"' _ "$completions/${words[0]}" "${words[@]}" | sort |
        tr '\n' ' '
}
[[ $(complete_line "scoreWDLstat --matchT") == "--matchTC --matchThreads " ]] ||
    fail "scoreWDLstat --matchT completes to '$(complete_line "scoreWDLstat --matchT")'"
[[ $(complete_line "wdlfit sy") == "synth " ]] || fail "wdlfit sy completes to '$(complete_line "wdlfit sy")'"
[[ $(complete_line "wdlfit fit --momT") == "--momTarget --momType " ]] || fail "wdlfit fit --momT"
[[ $(complete_line "scoreWDLstat --evalParsing ") == "exact legacy " ]] ||
    fail "scoreWDLstat --evalParsing completes to '$(complete_line "scoreWDLstat --evalParsing ")'"

# The scripts: updateWDL.sh finds the programs beside it; the Slurm recipe is installed.
updateWDL.sh --help | grep -q -- "--firstrev" || fail "updateWDL.sh --help"
updateWDL.sh --version | grep -Eq '^updateWDL.sh [0-9]+\.[0-9]+\.[0-9]+ \(wdlfit, commit ' ||
    fail "updateWDL.sh --version: $(updateWDL.sh --version 2>&1)"
for script in submit.sh scan_shard.sbatch merge_fit.sbatch; do
    [[ -x $prefix/share/wdlfit/slurm/$script ]] || fail "no Slurm script $script"
done
[[ -s $prefix/share/doc/wdlfit/docs/formats.md ]] || fail "the documentation is not installed"
echo "installed into $prefix and ran from $work/run: every check passed"
