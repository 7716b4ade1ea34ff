#!/usr/bin/env bash
# The Slurm recipe tested for real: installs Debian's slurm-wlm and munge, starts a single-node
# cluster on this machine (slurmctld + slurmd, 2 CPUs, state in a temporary folder), submits the
# bundled data/ as an array of 4 shards with the dependent merge and fit (scripts/slurm/), waits,
# and checks that the merged counts equal a plain scan's. Needs root; stops its daemons at the end.
# Usage: scripts/test-slurm.sh [BUILD_DIR]    (default build; the programs must be built)
# Exit status: 0 passed, 1 failed, 77 skipped (Slurm could not be installed or its cluster did
# not come up on this machine: nothing of wdlfit was tested).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bin=$(realpath "${1:-$root/build}")/apps
for program in scoreWDLstat mergeWDLstat scoreWDL; do
    [[ -x $bin/$program ]] || { echo "Error: $bin/$program is not built." >&2; exit 1; }
done
bash "$root/scripts/install-deps.sh" --ci ||
    { echo "Skipped: slurm-wlm and munge could not be installed." >&2; exit 77; }

work=$(mktemp -d /tmp/wdlfit-slurm.XXXXXX)
cluster=$work/cluster
host=$(hostname -s)
mkdir -p "$cluster"/{state,spool,log} "$work/run" /run/munge /var/lib/munge /var/log/munge
stop_cluster() {
    [[ -f $cluster/slurmd.pid ]] && kill "$(cat "$cluster/slurmd.pid")" 2>/dev/null || true
    [[ -f $cluster/slurmctld.pid ]] && kill "$(cat "$cluster/slurmctld.pid")" 2>/dev/null || true
    [[ -f $cluster/munged.pid ]] && kill "$(cat "$cluster/munged.pid")" 2>/dev/null || true
}
trap stop_cluster EXIT

# munge authenticates the daemons to each other: a key of our own for this cluster.
dd if=/dev/urandom of="$cluster/munge.key" bs=1024 count=1 2>/dev/null
chmod 400 "$cluster/munge.key"
munged --force --key-file="$cluster/munge.key" --socket="$cluster/munge.socket" \
    --pid-file="$cluster/munged.pid" --log-file="$cluster/log/munged.log" \
    --seed-file="$cluster/munge.seed" || { echo "Skipped: munged did not start." >&2; exit 77; }
cat >"$cluster/slurm.conf" <<CONF
ClusterName=wdlfit-test
SlurmctldHost=$host(127.0.0.1)
SlurmUser=root
AuthType=auth/munge
AuthInfo=socket=$cluster/munge.socket
StateSaveLocation=$cluster/state
SlurmdSpoolDir=$cluster/spool
SlurmctldPidFile=$cluster/slurmctld.pid
SlurmdPidFile=$cluster/slurmd.pid
SlurmctldLogFile=$cluster/log/slurmctld.log
SlurmdLogFile=$cluster/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
MpiDefault=none
NodeName=$host NodeAddr=127.0.0.1 CPUs=2 State=UNKNOWN
PartitionName=test Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF=$cluster/slurm.conf
slurmctld && slurmd || { echo "Skipped: slurmctld or slurmd did not start." >&2; exit 77; }
for _ in $(seq 30); do
    sinfo -h -o %t 2>/dev/null | grep -q idle && break
    sleep 1
done
if ! sinfo -h -o %t 2>/dev/null | grep -q idle; then
    echo "Skipped: the single-node cluster did not come up (logs in $cluster/log)." >&2
    exit 77
fi
sinfo

jobs=$(bash "$root/scripts/slurm/submit.sh" --pgns "$root/data" --out "$work/run" --shards 4 \
    --bin "$bin" --partition test)
echo "$jobs"
for _ in $(seq 300); do
    [[ -z $(squeue -h) ]] && break
    sleep 1
done
[[ -z $(squeue -h) ]] || { echo "Error: the jobs did not finish in 5 minutes." >&2; squeue; exit 1; }
for log in "$work/run/logs/"*.out; do
    echo "--- $(basename "$log")"
    grep -E "^Shard|^Wrote|^Merged|NormalizeToPawnValue|^Error" "$log" || true
done

"$bin/scoreWDLstat" --dir "$root/data" -r -o "$work/plain.json" >/dev/null
if cmp -s "$work/plain.json" "$work/run/all.json"; then
    echo "Slurm test passed: the merged counts of 4 shards equal the plain scan's, byte for byte" \
        "($(jq length "$work/plain.json") keys)."
else
    echo "Error: the merged counts differ from the plain scan's (see $work)." >&2
    exit 1
fi
