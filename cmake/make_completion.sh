#!/usr/bin/env bash
# Writes the bash completion of wdlfit and its programs from their --help:
#   make_completion.sh WDLFIT OUTPUT
# Options complete after a dash, the values of an option with a fixed set (shown as a|b|c in
# --help) after that option, file names otherwise; `wdlfit COMMAND` completes as its program.
set -euo pipefail
wdlfit=$1 output=$2
folder=$(dirname "$wdlfit")
commands=() programs=()
while IFS=$'\t' read -r command program _; do
    commands+=("$command")
    programs+=("$program")
done < <("$wdlfit" --list-programs)

# The options of one program, and "option value value ..." lines for its fixed sets.
options_of() { "$folder/$1" --help | sed -nE 's/^  (-[A-Za-z0-9],)?(--?[A-Za-z][A-Za-z0-9_-]*).*/\1\2/p' | tr ',' '\n'; }
choices_of() {
    "$folder/$1" --help |
        sed -nE 's/^  (-[A-Za-z0-9],)?(--?[A-Za-z][A-Za-z0-9_-]*) ([A-Za-z0-9_.+-]+(\|[A-Za-z0-9_.+-]+)+).*/\2 \3/p' |
        tr '|' ' '
}

{
    echo "# Bash completion of wdlfit and its programs: options after a dash, the values of an"
    echo "# option with a fixed set, file names otherwise. Generated from the programs' --help"
    echo "# by cmake/make_completion.sh."
    echo "_wdlfit_commands=\"${commands[*]}\""
    echo "declare -gA _wdlfit_program_of=("
    for i in "${!commands[@]}"; do echo "    [${commands[$i]}]=${programs[$i]}"; done
    echo ")"
    echo "declare -gA _wdlfit_options=("
    for program in "${programs[@]}"; do
        echo "    [$program]=\"$(options_of "$program" | sort -u | tr '\n' ' ' | sed 's/ $//')\""
    done
    echo ")"
    echo "declare -gA _wdlfit_choices=("
    for program in "${programs[@]}"; do
        choices_of "$program" | while read -r option values; do
            echo "    [\"$program $option\"]=\"$values\""
        done
    done
    echo ")"
    cat <<'FUNCTION'
_wdlfit_complete() {
    local current=${COMP_WORDS[COMP_CWORD]} previous=${COMP_WORDS[COMP_CWORD - 1]}
    local program=${COMP_WORDS[0]##*/}
    COMPREPLY=()
    if [[ $program == wdlfit ]]; then
        if ((COMP_CWORD == 1)); then
            mapfile -t COMPREPLY < <(compgen -W "$_wdlfit_commands help --help --version --list-programs" -- "$current")
            return
        fi
        if [[ ${COMP_WORDS[1]} == help ]]; then
            ((COMP_CWORD == 2)) && mapfile -t COMPREPLY < <(compgen -W "$_wdlfit_commands" -- "$current")
            return
        fi
        program=${_wdlfit_program_of[${COMP_WORDS[1]}]:-${COMP_WORDS[1]}}
    fi
    local choices=${_wdlfit_choices["$program $previous"]:-}
    if [[ -n $choices ]]; then
        mapfile -t COMPREPLY < <(compgen -W "$choices" -- "$current")
    elif [[ $current == -* ]]; then
        mapfile -t COMPREPLY < <(compgen -W "${_wdlfit_options[$program]:-}" -- "$current")
    else
        compopt -o filenames 2>/dev/null
        mapfile -t COMPREPLY < <(compgen -f -- "$current")
    fi
}
FUNCTION
    echo "complete -F _wdlfit_complete wdlfit ${programs[*]}"
} >"$output.tmp"
mv "$output.tmp" "$output"
