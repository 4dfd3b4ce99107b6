"""Row 8: peak memory of `touchtracker render` on a 1,000,000-line document,
and opening it through the HTTP API.

    python3 Benchmarks/cli/render_memory.py --touchtracker BIN --document DOC.json --lines N [--out RESULT.json]

Runs `BIN render DOC -o TMP.svg` under `/usr/bin/time -v` (peak resident set
size, wall time), three times, the median kept. Baselines in the same run:
the document's size on disk, and `python3 -c 'json.load(...)'` of the same
file under the same `time -v` (CPython's JSON parser holding the parsed
document, what a script reading it would pay). The SVG is checked to hold
one `<line` per line.

Then the API: `BIN serve` on a fresh database, the document `PUT` to
/api/drawings/big and read back with `GET` (checked to hold every line, each
with the id the server gave it);
the server's peak RSS from /proc/PID/status (VmHWM) after both.
"""

import argparse
import http.client
import json
import os
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from procfs import peak_memory_bytes  # noqa: E402  (shared with the other benchmarks and Scripts/reliability.py)


def timed(command):
    """Peak RSS (bytes) and wall seconds of `command` under /usr/bin/time -v."""
    result = subprocess.run(["/usr/bin/time", "-v", *command], capture_output=True, text=True)
    if result.returncode != 0:
        raise SystemExit(f"render_memory: {' '.join(command)} failed:\n{result.stderr[-2000:]}")
    peak = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", result.stderr).group(1)) * 1024
    clock = re.search(r"Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (?:(\d+):)?(\d+):([\d.]+)", result.stderr)
    seconds = int(clock.group(1) or 0) * 3600 + int(clock.group(2)) * 60 + float(clock.group(3))
    return peak, seconds


def free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def request(port, method, path, body=None):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=300)
    start = time.perf_counter()
    connection.request(method, path, body=body, headers={"Content-Type": "application/json"} if body else {})
    response = connection.getresponse()
    data = response.read()
    connection.close()
    return response.status, data, time.perf_counter() - start


def through_api(binary, document, lines, scratch):
    port = free_port()
    server = subprocess.Popen(
        [binary, "serve", "--port", str(port), "--database", os.path.join(scratch, "drawings.sqlite")],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(200):
            try:
                if request(port, "GET", "/healthz")[0] == 200:
                    break
            except OSError:
                time.sleep(0.05)
        with open(document, "rb") as handle:
            body = handle.read()
        put_status, put_body, put_seconds = request(port, "PUT", "/api/drawings/big", body)
        get_status, got, get_seconds = request(port, "GET", "/api/drawings/big")
        peak = peak_memory_bytes(server.pid)
        return {
            "putStatus": put_status, "putAnswer": put_body.decode()[:200], "putSeconds": put_seconds,
            "getStatus": get_status, "getLines": got.count(b'"begin"'), "getIDs": got.count(b'"id"'),
            "getSeconds": get_seconds,
            "serverPeakRSSBytes": peak,
        }
    finally:
        server.terminate()
        server.wait(timeout=30)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--touchtracker", required=True)
    parser.add_argument("--document", required=True)
    parser.add_argument("--lines", type=int, required=True)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--out")
    arguments = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        svg = os.path.join(scratch, "out.svg")
        renders, parses = [], []
        for _ in range(arguments.repeats):
            renders.append(timed([arguments.touchtracker, "render", arguments.document, "-o", svg]))
            parses.append(timed([sys.executable, "-c", "import json, sys; json.load(open(sys.argv[1]))", arguments.document]))
        with open(svg, "rb") as handle:
            lines_written = handle.read().count(b"<line ")
        if lines_written != arguments.lines:
            raise SystemExit(f"render_memory: the SVG has {lines_written} lines, expected {arguments.lines}")
        api = through_api(arguments.touchtracker, arguments.document, arguments.lines, scratch)
    result = {
        "lines": arguments.lines,
        "documentBytes": os.path.getsize(arguments.document),
        "renderPeakRSSBytes": statistics.median(peak for peak, _ in renders),
        "renderSeconds": statistics.median(seconds for _, seconds in renders),
        "pythonJSONLoadPeakRSSBytes": statistics.median(peak for peak, _ in parses),
        "pythonJSONLoadSeconds": statistics.median(seconds for _, seconds in parses),
        "api": api,
    }
    text = json.dumps(result, indent=2, sort_keys=True)
    if arguments.out:
        with open(arguments.out, "w") as handle:
            handle.write(text + "\n")
    print(text)


if __name__ == "__main__":
    main()
