#!/usr/bin/env python3
"""A local stand-in for the Hugging Face Hub's dataset API, for benchmarks: serves one folder in
fishtest's layout (YY-MM-DD/<id>/<id>.pgn.gz, <id>.json) as the dataset REPO at one commit, all
transfers together capped at --rate bytes per second (a link of that speed).

  GET  /api/datasets/REPO/revision/REV           {"sha": COMMIT}
  GET  /api/datasets/REPO/tree/REV[/PATH]        a folder's entries (?recursive=true: all below),
                                                 in pages of --page entries linked by Link headers
  GET  /datasets/REPO/resolve/REV/PATH           the file (Range: bytes=N- honoured)
  HEAD /datasets/REPO/resolve/REV/PATH           its size, X-Linked-Etag (sha256), X-Repo-Commit

Usage: hub_bench_server.py ROOT --port P [--repo R] [--rate BYTES_PER_S] [--page N]
Prints "port P" once it listens (--port 0 lets the system choose). Loopback only. Python's
standard library only (tests/apps/test_archiveWDL.cpp starts it too).
"""

import argparse
import hashlib
import json
import os
import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

COMMIT = "0123456789abcdef0123456789abcdef01234567"


class Throttle:
    """One token bucket for every transfer: the server's whole output is capped."""

    def __init__(self, rate):
        self.rate = rate
        self.lock = threading.Lock()
        self.next_free = time.monotonic()

    def wait(self, size):
        if self.rate <= 0:
            return
        with self.lock:
            now = time.monotonic()
            start = max(now, self.next_free)
            self.next_free = start + size / self.rate
        delay = start + size / self.rate - now
        if delay > 0:
            time.sleep(delay)


def entries(root):
    """Every file and folder under root, with the sizes and sha256 a listing gives."""
    listed = []
    for folder, folders, files in os.walk(root):
        folders.sort()
        relative = os.path.relpath(folder, root)
        for name in folders:
            path = name if relative == "." else f"{relative}/{name}"
            listed.append({"type": "directory", "oid": "0" * 40, "size": 0, "path": path})
        for name in sorted(files):
            path = name if relative == "." else f"{relative}/{name}"
            data = open(os.path.join(folder, name), "rb").read()
            entry = {"type": "file", "oid": hashlib.sha1(data).hexdigest(), "size": len(data),
                     "path": path}
            if name.endswith(".pgn.gz"):
                entry["lfs"] = {"oid": hashlib.sha256(data).hexdigest(), "size": len(data),
                                "pointerSize": 134}
            listed.append(entry)
    return listed


def make_handler(root, repo, throttle, page, listing):
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args):
            pass

        def send_json(self, value, headers=()):
            body = json.dumps(value).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            for name, header in headers:
                self.send_header(name, header)
            self.end_headers()
            self.wfile.write(body)

        def not_found(self):
            self.send_response(404)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def tree(self, rest, query):
            parts = rest.split("/", 1)
            folder = parts[1].strip("/") if len(parts) > 1 else ""
            recursive = query.get("recursive", ["false"])[0] == "true"
            prefix = folder + "/" if folder else ""
            found = [e for e in listing if e["path"].startswith(prefix) and
                     (recursive or "/" not in e["path"][len(prefix):])]
            start = int(query.get("cursor", ["0"])[0])
            headers = []
            if start + page < len(found):
                query = dict(query, cursor=[str(start + page)])
                link = f"http://{self.headers['Host']}{self.path.split('?')[0]}?" + \
                    urllib.parse.urlencode(query, doseq=True)
                headers.append(("Link", f'<{link}>; rel="next"'))
            self.send_json(found[start:start + page], headers)

        def resolve(self, path, head):
            file = os.path.join(root, path)
            if ".." in path.split("/") or not os.path.isfile(file):
                return self.not_found()
            size = os.path.getsize(file)
            entry = next((e for e in listing if e["path"] == path), {})
            first = 0
            ranged = self.headers.get("Range", "")
            if ranged.startswith("bytes=") and ranged.endswith("-"):
                first = min(int(ranged[6:-1]), size)
            self.send_response(206 if first else 200)
            self.send_header("Content-Length", str(size - first))
            if first:
                self.send_header("Content-Range", f"bytes {first}-{size - 1}/{size}")
            self.send_header("X-Repo-Commit", COMMIT)
            if "lfs" in entry:
                self.send_header("X-Linked-Etag", '"' + entry["lfs"]["oid"] + '"')
                self.send_header("X-Linked-Size", str(size))
            self.send_header("ETag", '"' + entry.get("oid", "") + '"')
            self.end_headers()
            if head:
                return
            with open(file, "rb") as data:
                data.seek(first)
                while chunk := data.read(64 * 1024):
                    throttle.wait(len(chunk))
                    self.wfile.write(chunk)

        def route(self, head):
            url = urllib.parse.urlsplit(self.path)
            query = urllib.parse.parse_qs(url.query)
            path = urllib.parse.unquote(url.path)
            api = f"/api/datasets/{repo}/"
            files = f"/datasets/{repo}/resolve/"
            if path.startswith(api + "revision/"):
                return self.send_json({"id": repo, "sha": COMMIT})
            if path.startswith(api + "tree/"):
                return self.tree(path[len(api + "tree/"):], query)
            if path.startswith(files):
                return self.resolve(path[len(files):].split("/", 1)[1], head)
            return self.not_found()

        def do_GET(self):
            self.route(head=False)

        def do_HEAD(self):
            self.route(head=True)

    return Handler


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("root")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--repo", default="official-stockfish/fishtest_pgns")
    parser.add_argument("--rate", type=float, default=0, help="bytes per second, 0: no cap")
    parser.add_argument("--page", type=int, default=1000)
    args = parser.parse_args()
    listing = entries(args.root)
    handler = make_handler(args.root, args.repo, Throttle(args.rate), args.page, listing)
    server = ThreadingHTTPServer(("127.0.0.1", args.port), handler)
    print(f"port {server.server_address[1]}", flush=True)  # --port 0: the one the system chose
    server.serve_forever()


if __name__ == "__main__":
    main()
