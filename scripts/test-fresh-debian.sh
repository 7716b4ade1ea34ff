#!/usr/bin/env bash
# Proves that the repository installs everything it needs: makes a minimal Debian 12 root
# (debootstrap --variant=minbase, from the Debian mirror this machine's apt uses), installs git
# there, clones the repository into it alone (no ../shared, no build), and runs the README's two
# commands and then .ci/run inside it, printing each one's wall time. Needs root and about an
# hour and a quarter on a 2-core machine; not part of CI. Run it whenever a dependency changes,
# and record the result in docs/development.md.
# Usage: scripts/test-fresh-debian.sh [ROOT]   (default: a new folder under /var/tmp, removed
#        at the end unless KEEP_ROOT=1)
set -euo pipefail
repository=$(cd "$(dirname "$0")/.." && pwd)
[ "$(id -u)" -eq 0 ] || { echo "Error: run as root (debootstrap and chroot)." >&2; exit 1; }
root=${1:-$(mktemp -d /var/tmp/wdlfit-fresh.XXXXXX)}
# The root's "/" must be as open as a real one: mktemp makes it 0700, which locks out the
# system users of apt (_apt) and of the packages' scripts (munge, slurm).
chmod 755 "$root"
log=$root.log
echo "Fresh Debian 12 root: $root (logs: $log)"

# The mirror this machine uses for Debian itself (deb822 sources or a one-line list).
mirror=$(grep -hoE 'https?://[^ ]+/debian/?( |$)' /etc/apt/sources.list.d/*.sources \
    /etc/apt/sources.list 2>/dev/null | head -1 | tr -d ' ' || true)
mirror=${mirror:-http://deb.debian.org/debian}
security=${mirror%/debian*}/debian-security

command -v debootstrap >/dev/null || {
    apt-get update -q >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -q debootstrap >/dev/null
}

mounted=()
created=$([ -z "${1:-}" ] && echo 1 || echo 0)
cleanup() {
    for ((i = ${#mounted[@]} - 1; i >= 0; i--)); do umount -l "${mounted[i]}" 2>/dev/null || true; done
    if [ "$created" = 1 ] && [ "${KEEP_ROOT:-0}" != 1 ]; then rm -rf --one-file-system "$root"; fi
}
trap cleanup EXIT
timings=()
# timed NAME FILTER COMMAND...: runs a command with its output in the log, shows the lines of it
# that FILTER (an extended regex) selects, prints and records its wall time; a failure stops here.
timed() {
    local name=$1 filter=$2 start=$SECONDS status=0 output
    shift 2
    output=$(mktemp)
    echo "== $name ..."
    "$@" >"$output" 2>&1 || status=$?
    cat "$output" >>"$log"
    grep -E "$filter" "$output" || true
    [ "$status" -eq 0 ] || tail -30 "$output"
    rm -f "$output"
    timings+=("$(printf '%-30s %5d s  (exit %d)' "$name" "$((SECONDS - start))" "$status")")
    echo "== $name: $((SECONDS - start)) s, exit $status"
    if [ "$status" -ne 0 ]; then
        printf '   %s\n' "${timings[@]}"
        exit "$status"
    fi
}
in_root() {
    chroot "$root" /usr/bin/env -i HOME=/root PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 \
        CI=true /bin/bash -c "$1"
}

timed "debootstrap (minbase)" '^I: Base system' debootstrap --variant=minbase bookworm "$root" "$mirror"
cat >"$root/etc/apt/sources.list" <<LIST
deb $mirror bookworm main
deb $mirror bookworm-updates main
deb $security bookworm-security main
LIST
cp /etc/resolv.conf "$root/etc/resolv.conf"
cp /etc/hosts "$root/etc/hosts"
for fs in proc sys dev dev/pts; do
    mount --bind "/$fs" "$root/$fs"
    mounted+=("$root/$fs")
done
timed "git" '^Setting up git ' in_root "apt-get update -q && DEBIAN_FRONTEND=noninteractive \
    apt-get install -y -q --no-install-recommends git ca-certificates"
git clone -q "$repository" "$root/root/wdlfit"
echo "Cloned $(git -C "$root/root/wdlfit" log -1 --format='%h %s') into $root/root/wdlfit"
timed "packages (install-deps.sh)" '^Installing' in_root "cd /root/wdlfit && bash scripts/install-deps.sh"
timed "README command 1 (demo)" '^(const|Plots|Wrote)' in_root "cd /root/wdlfit && bash scripts/demo.sh"
timed "README command 2 (tests)" 'tests passed|tests failed' in_root "cd /root/wdlfit && bash scripts/test.sh"
timed ".ci/run" '^(==|   )|tests passed|fuzz_' in_root "cd /root/wdlfit && bash .ci/run"
echo "== wall times in the fresh root"
printf '   %s\n' "${timings[@]}"
