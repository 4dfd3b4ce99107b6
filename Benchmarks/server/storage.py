"""Row 4: saving and loading a big drawing through the HTTP API.

    python3 Benchmarks/server/storage.py --server BIN --document DOC.json --lines N [--repeats 7] [--out RESULT.json]

Starts `BIN serve --port P --database TMP/drawings.sqlite`, then times PUT and
GET of /api/drawings/bench with DOC (each request on a fresh connection, as a
page's save would be), p50 over the repeats. The baseline, measured in the
same run: the same bytes written to a plain file and fsynced (what a durable
save costs at the least on this disk), and read back. Bytes per line on disk:
after one save, with its WAL and after the server stopped (SQLite
checkpoints the WAL on close); and after all the timed saves (a replaced
document leaves free pages behind: the file does not shrink).
"""

import argparse
import http.client
import json
import os
import pathlib
import socket
import statistics
import subprocess
import sys
import tempfile
import time


def free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def request(port, method, path, body=None):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    headers = {"Content-Type": "application/json"} if body is not None else {}
    start = time.perf_counter()
    connection.request(method, path, body=body, headers=headers)
    response = connection.getresponse()
    data = response.read()
    elapsed = time.perf_counter() - start
    connection.close()
    if response.status >= 300:
        raise SystemExit(f"storage: {method} {path} answered {response.status}: {data[:200]!r}")
    return elapsed, data


def wait_for(port, process, log):
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit(f"storage: the server exited with {process.returncode}:\n{pathlib.Path(log).read_text()}")
        try:
            request(port, "GET", "/api/drawings")
            return
        except (ConnectionError, OSError):
            time.sleep(0.1)
    raise SystemExit("storage: the server did not answer within 60 s")


def disk_bytes(database):
    return sum(os.path.getsize(p) for p in (database, database + "-wal", database + "-shm") if os.path.exists(p))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--server", required=True)
    parser.add_argument("--document", required=True)
    parser.add_argument("--lines", type=int, required=True)
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--out")
    args = parser.parse_args()
    document = pathlib.Path(args.document).read_bytes()

    with tempfile.TemporaryDirectory() as directory:
        database = os.path.join(directory, "drawings.sqlite")
        log = os.path.join(directory, "server.log")

        def start_server():
            port = free_port()
            with open(log, "ab") as output:
                process = subprocess.Popen(
                    [args.server, "serve", "--port", str(port), "--database", database],
                    stdout=output, stderr=subprocess.STDOUT,
                )
            wait_for(port, process, log)
            return port, process

        def stop_server(process):
            process.terminate()
            process.wait(timeout=30)

        # One save of the drawing, as stored: with its WAL, then checkpointed.
        port, process = start_server()
        try:
            request(port, "PUT", "/api/drawings/bench", document)
            first_with_wal = disk_bytes(database)
        finally:
            stop_server(process)
        first = disk_bytes(database)

        port, process = start_server()
        try:
            saves, loads = [], []
            for _ in range(args.repeats):
                saves.append(request(port, "PUT", "/api/drawings/bench", document)[0])
                elapsed, body = request(port, "GET", "/api/drawings/bench")
                loads.append(elapsed)
            # The server gives lines without ids their ids (issue 15): compare the rest.
            without_id = lambda line: {key: value for key, value in line.items() if key != "id"}  # noqa: E731
            if without_id(json.loads(body)["lines"][-1]) != without_id(json.loads(document)["lines"][-1]):
                raise SystemExit("storage: the drawing read back differs from the one saved")
        finally:
            stop_server(process)
        after_repeats = disk_bytes(database)

        # Baseline: the same bytes to a plain file, durably, and back.
        plain = os.path.join(directory, "plain.json")
        file_saves, file_loads = [], []
        for _ in range(args.repeats):
            start = time.perf_counter()
            with open(plain, "wb") as handle:
                handle.write(document)
                handle.flush()
                os.fsync(handle.fileno())
            file_saves.append(time.perf_counter() - start)
            start = time.perf_counter()
            pathlib.Path(plain).read_bytes()
            file_loads.append(time.perf_counter() - start)

    result = {
        "lines": args.lines,
        "documentBytes": len(document),
        "repeats": args.repeats,
        "saveP50ms": statistics.median(saves) * 1000,
        "loadP50ms": statistics.median(loads) * 1000,
        "fileSaveP50ms": statistics.median(file_saves) * 1000,
        "fileLoadP50ms": statistics.median(file_loads) * 1000,
        "diskBytesPerLine": first / args.lines,
        "diskBytesPerLineWithWAL": first_with_wal / args.lines,
        "diskBytesPerLineAfterRepeats": after_repeats / args.lines,
        "documentBytesPerLine": len(document) / args.lines,
    }
    text = json.dumps(result)
    if args.out:
        pathlib.Path(args.out).write_text(text)
    print(text)


if __name__ == "__main__":
    sys.exit(main())
