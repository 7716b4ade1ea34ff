#!/usr/bin/env bash
# The Slurm recipe's shards of the archive (scripts/slurm/submit.sh --archive): the tasks' date
# ranges, from --months across a year's end and from --dates, checked without a cluster (the
# tasks themselves need the Hub; tests/archive runs the refit against a local archive).
# Usage: slurm_archive_dates.sh SOURCE_DIR
set -euo pipefail
submit="$1/scripts/slurm/submit.sh"
fail() { echo "Error: $*" >&2; exit 1; }
tasks=$(bash "$submit" --archive a/b --out /nonexistent --months 2024-11..2025-02 --dry-run)
[[ $tasks == $'task 0: 24-11-*\ntask 1: 24-12-*\ntask 2: 25-01-*\ntask 3: 25-02-*' ]] ||
    fail "--months 2024-11..2025-02 gave: $tasks"
tasks=$(bash "$submit" --archive a/b --out /nonexistent --months 2025-07..2025-07 --dry-run)
[[ $tasks == 'task 0: 25-07-*' ]] || fail "--months 2025-07..2025-07 gave: $tasks"
tasks=$(bash "$submit" --archive a/b --out /nonexistent --dates "25-0[1-6]-* 25-07-*,25-08-*" \
    --dry-run)
[[ $tasks == $'task 0: 25-0[1-6]-*\ntask 1: 25-07-*,25-08-*' ]] || fail "--dates gave: $tasks"
for bad in 2025-02..2024-11 2025-13..2026-01 2025-1..2025-02; do
    if bash "$submit" --archive a/b --out /nonexistent --months "$bad" --dry-run 2>/dev/null; then
        fail "--months $bad was accepted"
    fi
done
echo "The archive's date ranges split as asked."
