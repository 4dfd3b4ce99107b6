"""Saving one line into a big drawing: appending a change vs PUTting the document; listing with big drawings stored.

    python3 Benchmarks/server/append.py --server BIN [--lines 100000] [--appends 200] [--puts 5] [--out RESULT.json]

Starts `BIN serve --port P --database TMP/drawings.sqlite` on loopback and,
in one run:

1. stores a drawing of LINES lines (one PUT), then saves one more line into
   it APPENDS times with `POST /api/drawings/bench/changes` (one add change,
   If-Match and Idempotency-Key, as the page sends it), and PUTS times the
   old way, `PUT` of the whole document with that line added;
2. baselines: one write + fsync of a plain file of the same size as each
   request's body (the least a durable save of those bytes costs here);
3. listing: `GET /api/drawings` requests per second with three 1 KB
   drawings stored, then again once a 30 MB drawing is stored too.

Bytes on the wire are counted on the socket: request line, headers and body
out; status line, headers and body back. Server time: what the server says in
each response's `Server-Timing: app;dur=MS` (from the router having the
request's head to the response being ready, p50), which is what the target
names; beside it the request's wall time on a kept-alive loopback connection
(p50, this client's own time included), and the server process's CPU time
(utime + stime from /proc) per request over all of them; `GET /healthz` on
the same connection gives the floor any request costs. Appends stay below
the store's compaction threshold (256 changes) so the figure is the append
alone; what reading the drawing then costs (the log replayed over the
snapshot, stored as the new one) is reported as `firstGetAfterAppends`.
"""

import argparse
import json
import os
import pathlib
import socket
import statistics
import subprocess
import sys
import tempfile
import time

TICKS = os.sysconf("SC_CLK_TCK")


def free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Connection:
    """One kept-alive HTTP/1.1 connection that counts its bytes both ways."""

    def __init__(self, port):
        self.port = port
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=300)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.buffer = b""

    def request(self, method, path, body=b"", headers=None):
        lines = [f"{method} {path} HTTP/1.1", f"Host: 127.0.0.1:{self.port}"]
        for name, value in (headers or {}).items():
            lines.append(f"{name}: {value}")
        if body or method in ("PUT", "POST"):
            lines.append("Content-Type: application/json")
            lines.append(f"Content-Length: {len(body)}")
        head = ("\r\n".join(lines) + "\r\n\r\n").encode()
        start = time.perf_counter()
        self.sock.sendall(head + body)
        status, response_head, response_body = self._read_response()
        elapsed = time.perf_counter() - start
        server_ms = None
        for header in response_head.split(b"\r\n")[1:]:
            name, _, value = header.partition(b":")
            if name.strip().lower() == b"server-timing" and value.strip().startswith(b"app;dur="):
                server_ms = float(value.strip()[len(b"app;dur="):])
        return {
            "status": status,
            "serverMs": server_ms,
            "body": response_body,
            "seconds": elapsed,
            "sent": len(head) + len(body),
            "received": len(response_head) + len(response_body),
        }

    def _read_response(self):
        while b"\r\n\r\n" not in self.buffer:
            self._fill()
        head, self.buffer = self.buffer.split(b"\r\n\r\n", 1)
        head += b"\r\n\r\n"
        status = int(head.split(b" ", 2)[1])
        length = 0
        for line in head.split(b"\r\n")[1:]:
            name, _, value = line.partition(b":")
            if name.strip().lower() == b"content-length":
                length = int(value.strip())
        while len(self.buffer) < length:
            self._fill()
        body, self.buffer = self.buffer[:length], self.buffer[length:]
        return status, head, body

    def _fill(self):
        chunk = self.sock.recv(1 << 20)
        if not chunk:
            raise SystemExit("append: the server closed the connection")
        self.buffer += chunk

    def close(self):
        self.sock.close()


def cpu_seconds(pid):
    fields = pathlib.Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def line(index):
    return {
        "id": index,
        "begin": {"x": (index * 7) % 1000 + 0.5, "y": (index * 13) % 800},
        "end": {"x": (index * 11) % 1000, "y": (index * 17) % 800 + 0.25},
        "color": "#1f2937",
        "width": 10,
    }


def document(lines, first_id=1):
    return json.dumps(
        {"format": "touchtracker", "version": 1, "lines": [line(first_id + i) for i in range(lines)], "circles": []},
        separators=(",", ":"),
    ).encode()


def fsync_write(path, data):
    start = time.perf_counter()
    with open(path, "wb") as handle:
        handle.write(data)
        handle.flush()
        os.fsync(handle.fileno())
    return time.perf_counter() - start


def start_server(binary, database, log):
    port = free_port()
    with open(log, "ab") as output:
        process = subprocess.Popen(
            [binary, "serve", "--port", str(port), "--database", database], stdout=output, stderr=subprocess.STDOUT
        )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit(f"append: the server exited with {process.returncode}:\n{pathlib.Path(log).read_text()}")
        try:
            connection = Connection(port)
            connection.request("GET", "/api/drawings")
            connection.close()
            return port, process
        except (ConnectionError, OSError):
            time.sleep(0.1)
    raise SystemExit("append: the server did not answer within 60 s")


def expect(response, status, what):
    if response["status"] != status:
        raise SystemExit(f"append: {what} answered {response['status']}: {response['body'][:300]!r}")
    return response


def list_rate(connection, seconds):
    count = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        expect(connection.request("GET", "/api/drawings"), 200, "GET /api/drawings")
        count += 1
    return count / (time.perf_counter() - start)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--server", required=True)
    parser.add_argument("--lines", type=int, default=100_000)
    parser.add_argument("--appends", type=int, default=200)
    parser.add_argument("--puts", type=int, default=5)
    parser.add_argument("--list-seconds", type=float, default=3.0)
    parser.add_argument("--out")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as directory:
        database = os.path.join(directory, "drawings.sqlite")
        log = os.path.join(directory, "server.log")
        port, process = start_server(args.server, database, log)
        try:
            connection = Connection(port)
            base = document(args.lines)
            revision = json.loads(expect(connection.request("PUT", "/api/drawings/bench", base), 200, "PUT")["body"])[
                "revision"
            ]

            # The floor: a request that does nothing (GET /healthz), same connection.
            floor = []
            cpu_before = cpu_seconds(process.pid)
            for _ in range(args.appends):
                floor.append(expect(connection.request("GET", "/healthz"), 200, "GET /healthz"))
            floor_cpu = (cpu_seconds(process.pid) - cpu_before) / args.appends

            # 1a. One line appended as a change, APPENDS times.
            appends = []
            cpu_before = cpu_seconds(process.pid)
            for index in range(args.appends):
                change = {"op": "add", "lines": [line(args.lines + 1 + index)]}
                body = json.dumps({"changes": [change]}, separators=(",", ":")).encode()
                response = expect(
                    connection.request(
                        "POST",
                        "/api/drawings/bench/changes",
                        body,
                        {"If-Match": f'"{revision}"', "Idempotency-Key": f"bench-{index}"},
                    ),
                    200,
                    "POST changes",
                )
                revision = json.loads(response["body"])["revision"]
                appends.append(response)
            append_cpu = (cpu_seconds(process.pid) - cpu_before) / args.appends
            append_body = len(body)

            # What reading it costs now: the log replayed over the snapshot.
            first_get = expect(connection.request("GET", "/api/drawings/bench"), 200, "GET")
            stored = json.loads(first_get["body"])
            if len(stored["lines"]) != args.lines + args.appends or stored["lines"][-1]["id"] != args.lines + args.appends:
                raise SystemExit("append: the drawing read back is missing appended lines")
            time.sleep(2)  # the snapshot that GET stored in the background
            second_get = expect(connection.request("GET", "/api/drawings/bench"), 200, "GET")

            # 1b. The same line saved the old way: the whole document, PUTS times.
            puts = []
            cpu_before = cpu_seconds(process.pid)
            put_document = document(args.lines + args.appends + 1)
            for _ in range(args.puts):
                response = expect(
                    connection.request("PUT", "/api/drawings/bench", put_document, {"If-Match": f'"{revision}"'}),
                    200,
                    "PUT",
                )
                revision = json.loads(response["body"])["revision"]
                puts.append(response)
            put_cpu = (cpu_seconds(process.pid) - cpu_before) / args.puts

            # 3. Listing: small drawings only, then with a 30 MB one too.
            small = document(5)
            for name in ("small-a", "small-b", "small-c"):
                expect(connection.request("PUT", f"/api/drawings/{name}", small), 200, "PUT small")
            expect(connection.request("DELETE", "/api/drawings/bench"), 204, "DELETE")
            list_small = list_rate(connection, args.list_seconds)
            big = document(300_000, first_id=1)
            expect(connection.request("PUT", "/api/drawings/big", big), 200, "PUT 30 MB")
            list_big = list_rate(connection, args.list_seconds)
            list_small_again = list_rate(connection, args.list_seconds)
            connection.close()
        finally:
            process.terminate()
            process.wait(timeout=30)

        # 2. Baselines: a plain file of the same size, written and fsynced.
        plain = os.path.join(directory, "plain.json")
        small_fsyncs = [fsync_write(plain, b"x" * append_body) for _ in range(max(args.appends, 20))]
        big_fsyncs = [fsync_write(plain, put_document) for _ in range(args.puts)]

    def p50(values):
        return statistics.median(values) * 1000

    def server_p50(responses):
        times = [r["serverMs"] for r in responses]
        if None in times:
            raise SystemExit("append: a response had no Server-Timing: app;dur=MS header")
        return statistics.median(times)

    result = {
        "lines": args.lines,
        "documentBytes": len(put_document),
        "append": {
            "count": args.appends,
            "bodyBytes": append_body,
            "wireBytes": statistics.median(r["sent"] + r["received"] for r in appends),
            "sentBytes": statistics.median(r["sent"] for r in appends),
            "receivedBytes": statistics.median(r["received"] for r in appends),
            "p50ms": p50([r["seconds"] for r in appends]),
            "serverP50ms": server_p50(appends),
            "p95ms": statistics.quantiles([r["seconds"] for r in appends], n=20)[18] * 1000,
            "serverCpuMsPerRequest": append_cpu * 1000,
        },
        "healthz": {"p50ms": p50([r["seconds"] for r in floor]), "serverP50ms": server_p50(floor),
                    "serverCpuMsPerRequest": floor_cpu * 1000},
        "put": {
            "count": args.puts,
            "wireBytes": statistics.median(r["sent"] + r["received"] for r in puts),
            "p50ms": p50([r["seconds"] for r in puts]),
            "serverCpuMsPerRequest": put_cpu * 1000,
        },
        "fsyncSameSizeAsAppendP50ms": p50(small_fsyncs),
        "fsyncSameSizeAsPutP50ms": p50(big_fsyncs),
        "firstGetAfterAppendsMs": first_get["seconds"] * 1000,
        "getAfterCompactionMs": second_get["seconds"] * 1000,
        "listPerSecondSmallOnly": list_small,
        "listPerSecondWith30MB": list_big,
        "listPerSecondSmallOnlyAgain": list_small_again,
        "bigDocumentBytes": len(big),
    }
    result["ratios"] = {
        "appendWireVsPutWire": result["put"]["wireBytes"] / result["append"]["wireBytes"],
        "appendP50VsFsync": result["append"]["p50ms"] / result["fsyncSameSizeAsAppendP50ms"],
        "appendServerP50VsFsync": result["append"]["serverP50ms"] / result["fsyncSameSizeAsAppendP50ms"],
        "appendCpuVsFsync": result["append"]["serverCpuMsPerRequest"] / result["fsyncSameSizeAsAppendP50ms"],
        "putP50VsAppendP50": result["put"]["p50ms"] / result["append"]["p50ms"],
        "putP50VsFsyncSameSize": result["put"]["p50ms"] / result["fsyncSameSizeAsPutP50ms"],
        "listSmallVsWith30MB": list_small / list_big,
    }
    text = json.dumps(result, indent=2)
    if args.out:
        pathlib.Path(args.out).write_text(text)
    print(text)


if __name__ == "__main__":
    sys.exit(main())
