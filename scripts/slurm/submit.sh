#!/usr/bin/env bash
# Submits the scan of a corpus as a Slurm job array of N shards and, depending on it, the merge
# and fit. Usage:
#   scripts/slurm/submit.sh --pgns DIR --out DIR [--shards N] [--bin DIR] [--partition P]
#                           [--scan-options "..."] [--fit-options "..."]
# or, the shards being date ranges of the fishtest archive on the Hugging Face Hub, each task
# an archiveWDL --scan_only over its dates in bounded disk (docs/archive.md):
#   scripts/slurm/submit.sh --archive REPO --out DIR (--months YYYY-MM..YYYY-MM | --dates "G,G G")
#                           [--revision REV] [--batch-size GB] [...as above]
# --months gives a task per month (its folders YY-MM-*); --dates a task per blank-separated
# word, each a comma-separated list of folder globs. --dry-run prints each task's dates instead
# of submitting. Prints the two job ids. Logs go to OUT/logs/.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# The programs: a checkout's build/apps, or the bin/ of the prefix these scripts are installed in
# (PREFIX/share/wdlfit/slurm); --bin names another folder, visible from every node.
bin=$(cd "$here/../.." && pwd)/build/apps
[[ -x $bin/scoreWDLstat ]] || bin=$(cd "$here/../../.." && pwd)/bin
shards=16
partition=""
pgns=""
out=""
scan_options=""
fit_options=""
archive=""
revision=main
batch_size=5
months=""
dates=""
dry_run=false
while [[ $# -gt 0 ]]; do
    case "$1" in
        --pgns) pgns=$(realpath "$2"); shift 2 ;;
        --out) out=$2; shift 2 ;;
        --shards) shards=$2; shift 2 ;;
        --bin) bin=$(realpath "$2"); shift 2 ;;
        --partition) partition=$2; shift 2 ;;
        --scan-options) scan_options=$2; shift 2 ;;
        --fit-options) fit_options=$2; shift 2 ;;
        --archive) archive=$2; shift 2 ;;
        --revision) revision=$2; shift 2 ;;
        --batch-size) batch_size=$2; shift 2 ;;
        --months) months=$2; shift 2 ;;
        --dates) dates=$2; shift 2 ;;
        --dry-run) dry_run=true; shift ;;
        *) echo "Error: unknown option $1 (see the comment at the top of $0)." >&2; exit 1 ;;
    esac
done

# "2024-11..2025-02" as the archive's folder globs of each month, one a line: 24-11-* ...
month_globs() {
    local first=${1%..*} last=${1#*..}
    [[ $first =~ ^[0-9]{4}-(0[1-9]|1[0-2])$ && $last =~ ^[0-9]{4}-(0[1-9]|1[0-2])$ &&
        ! $last < $first ]] ||
        { echo "Error: --months takes FIRST..LAST as YYYY-MM..YYYY-MM, in order." >&2; exit 1; }
    local year=$((10#${first%-*})) month=$((10#${first#*-}))
    while [[ $(printf '%04d-%02d' "$year" "$month") < $last ||
             $(printf '%04d-%02d' "$year" "$month") == "$last" ]]; do
        printf '%02d-%02d-*\n' $((year % 100)) "$month"
        ((month == 12)) && { month=1; ((++year)); } || ((++month))
    done
}

if [[ -n $archive ]]; then
    [[ -n $out && ( -n $months || -n $dates ) && ( -z $months || -z $dates ) ]] ||
        { echo "Error: --archive needs --out and one of --months or --dates." >&2; exit 1; }
    if [[ -n $months ]]; then
        task_dates=$(month_globs "$months")
    else
        task_dates=$(tr -s ' ' '\n' <<<"$dates" | sed '/^$/d')
    fi
    shards=$(wc -l <<<"$task_dates")
    if $dry_run; then
        i=0
        while read -r globs; do echo "task $i: $globs"; ((++i)); done <<<"$task_dates"
        exit 0
    fi
    # The tasks' dates, one word each, in the order of the array's indices.
    export ARCHIVE_REPO=$archive ARCHIVE_REVISION=$revision BATCH_SIZE=$batch_size
    export ARCHIVE_DATES=$(tr '\n' ' ' <<<"$task_dates")
else
    [[ -n $pgns && -n $out ]] || { echo "Error: --pgns and --out are required." >&2; exit 1; }
fi
mkdir -p "$out/logs"
out=$(realpath "$out")
export WDL_BIN=$bin PGN_DIR=$pgns OUT_DIR=$out SHARDS=$shards
export SCAN_OPTIONS=$scan_options FIT_OPTIONS=$fit_options
common=(--parsable --export=ALL)
[[ -n $partition ]] && common+=(--partition "$partition")
scan=$(sbatch "${common[@]}" --array="0-$((shards - 1))" \
    --output="$out/logs/scan_%a.out" "$here/scan_shard.sbatch")
fit=$(sbatch "${common[@]}" --dependency="afterok:$scan" \
    --output="$out/logs/merge_fit.out" "$here/merge_fit.sbatch")
echo "scan array: $scan  merge and fit: $fit"
