#!/usr/bin/env bash
# Submits the scan of a corpus as a Slurm job array of N shards and, depending on it, the merge
# and fit. Usage:
#   scripts/slurm/submit.sh --pgns DIR --out DIR [--shards N] [--bin DIR] [--partition P]
#                           [--scan-options "..."] [--fit-options "..."]
# Prints the two job ids. Logs go to OUT/logs/.
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
while [[ $# -gt 0 ]]; do
    case "$1" in
        --pgns) pgns=$(realpath "$2"); shift 2 ;;
        --out) out=$2; shift 2 ;;
        --shards) shards=$2; shift 2 ;;
        --bin) bin=$(realpath "$2"); shift 2 ;;
        --partition) partition=$2; shift 2 ;;
        --scan-options) scan_options=$2; shift 2 ;;
        --fit-options) fit_options=$2; shift 2 ;;
        *) echo "Error: unknown option $1 (see the comment at the top of $0)." >&2; exit 1 ;;
    esac
done
[[ -n $pgns && -n $out ]] || { echo "Error: --pgns and --out are required." >&2; exit 1; }
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
