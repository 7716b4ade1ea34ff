#!/usr/bin/env bash
# Download speed from the Hugging Face Hub archive: download_fishtest_pgns --archive at several
# --jobs against a local stand-in of the Hub (python3's standard library, on 127.0.0.1) whose
# storage host sends each connection at most RATE MB/s, as a CDN caps one connection. Every round
# downloads the whole archive into an empty folder once per job count, in an order that rotates
# from round to round; each job count gets the median of its rounds. The files are checked
# against the served ones after every download (cmp), so a fast download that is wrong is no
# result.
#
# Usage: scripts/bench_archive_download.sh [--tests N] [--size MB] [--rate MB] [--rounds N]
#                                          [--jobs "1 4"]
#   --tests N    tests in the archive, one .pgn.gz and one .json each (default 40)
#   --size MB    size of each game file (default 10: 400 MB in all)
#   --rate MB    the storage host's cap per connection, MB/s (default 20)
#   --rounds N   rounds (default 3)
#   --jobs LIST  the --jobs values compared (default "1 4")
# WDL_BIN_DIR names the folder of download_fishtest_pgns (default build/apps).
set -euo pipefail
cd "$(dirname "$0")/.."
tests=40 size=10 rate=20 rounds=3 jobs_list="1 4"
while [ $# -gt 0 ]; do
    case $1 in
        --tests) tests=$2; shift 2 ;;
        --size) size=$2; shift 2 ;;
        --rate) rate=$2; shift 2 ;;
        --rounds) rounds=$2; shift 2 ;;
        --jobs) jobs_list=$2; shift 2 ;;
        *) echo "Error: unknown option $1 (see the header of $0)" >&2; exit 2 ;;
    esac
done
downloader=${WDL_BIN_DIR:-build/apps}/download_fishtest_pgns
[ -x "$downloader" ] || { echo "Error: no program at $downloader (scripts/build.sh)" >&2; exit 2; }
work=$(mktemp -d)
server_pid=
cleanup() {
    [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null
    rm -rf "$work"
}
trap cleanup EXIT

# The Hub's API as the downloader uses it: revision, tree listings, resolve answering game files
# with a 302 to the storage path, which answers Range requests at the capped rate.
cat >"$work/hub.py" <<'EOF'
import hashlib, http.server, json, os, sys, threading, time
root, tests, size, rate, port_file = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4]), sys.argv[5]
repo, commit, date = "official-stockfish/fishtest_pgns", "ab" * 20, "25-09-01"
files = {}  # path -> (bytes on disk, sha256)
for i in range(tests):
    test_id = "%024x" % (0xbe00 + i)
    folder = os.path.join(root, date, test_id)
    os.makedirs(folder, exist_ok=True)
    run = {"args": {"tc": "60+0.6", "new_tc": "60+0.6", "book": "UHO_Lichess_4852_v1.epd",
                    "threads": 1}, "results": {"wins": 1, "draws": 1, "losses": 1},
           "start_time": "2025-09-01T00:00:00.000+00:00", "_id": test_id}
    for name, content in ((test_id + ".json", json.dumps(run).encode()),
                          (test_id + ".pgn.gz", os.urandom(size))):
        with open(os.path.join(folder, name), "wb") as out:
            out.write(content)
        files[f"{date}/{test_id}/{name}"] = (os.path.join(folder, name), hashlib.sha256(content).hexdigest(), len(content))

class Hub(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    def log_message(self, *args): pass
    def send(self, status, body=b"", headers=()):
        self.send_response(status)
        for name, value in headers: self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD": self.wfile.write(body)
    def do_HEAD(self): self.do_GET()
    def do_GET(self):
        path = self.path.split("?")[0]
        api = f"/api/datasets/{repo}"
        if path == f"{api}/revision/main":
            return self.send(200, json.dumps({"sha": commit}).encode())
        if path == f"{api}/tree/{commit}":
            return self.send(200, json.dumps([{"type": "directory", "path": date}]).encode())
        if path == f"{api}/tree/{commit}/{date}":
            entries = [{"type": "file", "path": p, "size": n, "lfs": {"oid": h, "size": n}}
                       for p, (_, h, n) in files.items()]
            return self.send(200, json.dumps(entries).encode())
        resolve = f"/datasets/{repo}/resolve/{commit}/"
        if path.startswith(resolve) and path[len(resolve):] in files:
            name = path[len(resolve):]
            disk, digest, n = files[name]
            if name.endswith(".json"):
                return self.send(200, open(disk, "rb").read())
            return self.send(302, b"", [("Location", f"/lfs/{name}"), ("X-Linked-Etag", f'"{digest}"')])
        if path.startswith("/lfs/") and path[5:] in files:
            return self.send_capped(*files[path[5:]])
        self.send(404, b"not found")
    def send_capped(self, disk, digest, n):
        start = 0
        rng = self.headers.get("Range", "")
        if rng.startswith("bytes="):
            start = int(rng[6:].split("-")[0])
        self.send_response(206 if start else 200)
        if start: self.send_header("Content-Range", f"bytes {start}-{n - 1}/{n}")
        self.send_header("Content-Length", str(n - start))
        self.end_headers()
        chunk, began, sent = 1 << 16, time.monotonic(), 0
        with open(disk, "rb") as data:
            data.seek(start)
            while block := data.read(chunk):
                self.wfile.write(block)
                sent += len(block)
                ahead = sent / (rate * 1e6) - (time.monotonic() - began)
                if ahead > 0: time.sleep(ahead)

server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Hub)
with open(port_file + ".tmp", "w") as out: out.write(str(server.server_address[1]))
os.rename(port_file + ".tmp", port_file)
server.serve_forever()
EOF
python3 "$work/hub.py" "$work/archive" "$tests" "$((size * 1000000))" "$rate" "$work/port" &
server_pid=$!
for ((i = 0; i < 600; ++i)); do
    [ -f "$work/port" ] && break
    sleep 0.1
done
[ -f "$work/port" ] || { echo "Error: the local Hub did not start" >&2; exit 1; }
endpoint=http://127.0.0.1:$(cat "$work/port")

download() {  # $1 = jobs; prints the wall seconds
    local start end
    rm -rf "$work/pgns"
    start=$(date +%s.%N)
    HF_ENDPOINT=$endpoint HF_HOME=$work/hf "$downloader" --archive --jobs "$1" --path "$work/pgns" \
        --pause 0 >"$work/log" 2>&1 || { cat "$work/log" >&2; exit 1; }
    end=$(date +%s.%N)
    for served in "$work"/archive/*/*/*; do
        cmp -s "$served" "$work/pgns/${served#"$work"/archive/}" ||
            { echo "Error: $served arrived different with --jobs $1" >&2; exit 1; }
    done
    echo "$start $end" | awk '{printf "%.3f\n", $2 - $1}'
}

configs=($jobs_list)
for ((round = 0; round < rounds; ++round)); do
    count=${#configs[@]}
    for ((k = 0; k < count; ++k)); do
        jobs=${configs[$(((k + round) % count))]}
        echo "$round $jobs $(download "$jobs")" >>"$work/times"
    done
done

median() { sort -g | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
total_mb=$((tests * size))
echo "Archive download, $tests tests of $size MB ($total_mb MB), storage capped at $rate MB/s per connection; $rounds rounds, medians"
printf '%-6s %10s %10s %14s\n' jobs seconds MB/s "connections' cap"
for jobs in $jobs_list; do
    seconds=$(awk -v j="$jobs" '$2 == j {print $3}' "$work/times" | median)
    printf '%-6s %10.2f %10.1f %14s\n' "$jobs" "$seconds" \
        "$(echo "$total_mb $seconds" | awk '{print $1 / $2}')" "$((jobs * rate)) MB/s"
done
