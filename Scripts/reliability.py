#!/usr/bin/env python3
"""Attacks a real `touchtracker serve` on loopback and prints the figures of
RELIABILITY.md. Every phase is bounded in connections and time.

    Scripts/reliability.py [--binary PATH] [--slow 1000]

1. Slowloris: SLOW connections each send a partial request head, one byte
   every second; meanwhile a normal client asks for /healthz every 100 ms.
   Reports the normal client's worst latency and how long the server kept
   the slow connections (its header timeout is 10 s).
2. Low descriptor limit: the server started with `ulimit -n 256`, then 400
   slow connections; reports whether a normal client is still answered and
   how long it waited, and that the API still reads and writes.
3. SIGTERM with every kind of client at once (idle keep-alive, half a head,
   half a body, a large response nobody reads): reports how long until the
   process exits (the bound is 10 s).
"""

import argparse
import json
import os
import pathlib
import resource
import selectors
import signal
import socket
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent


def start_server(binary, directory, fd_limit=None):
    def limit():
        if fd_limit:
            resource.setrlimit(resource.RLIMIT_NOFILE, (fd_limit, fd_limit))

    process = subprocess.Popen(
        [binary, "serve", "--port", "0", "--database", str(directory / "drawings.sqlite")],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, preexec_fn=limit, cwd=directory)
    line = process.stdout.readline().decode()
    if "listening" not in line:
        process.kill()
        sys.exit(f"reliability: the server did not start: {line!r}")
    return process, int(line.rstrip().rstrip("/").rsplit(":", 1)[1])


def request(port, method="GET", path="/healthz", body=None, timeout=5.0):
    """One request on a fresh connection; returns (status, seconds)."""
    start = time.monotonic()
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
        head = f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
        data = (body or "").encode()
        if body is not None:
            head += f"Content-Length: {len(data)}\r\n"
        s.sendall(head.encode() + b"\r\n" + data)
        received = b""
        while chunk := s.recv(65536):
            received += chunk
    status = int(received.split(b" ", 2)[1]) if received.startswith(b"HTTP/1.1 ") else 0
    return status, time.monotonic() - start


def open_slow(port, count):
    """`count` connections, each having sent the start of a request head."""
    sockets = []
    for i in range(count):
        try:
            s = socket.create_connection(("127.0.0.1", port), timeout=5)
            s.setblocking(False)
            s.send(f"GET /?slow={i} HTTP/1.1\r\nHost: 127.0.0.1\r\n".encode())
            sockets.append(s)
        except OSError:
            break
    return sockets


def drip(sockets):
    """One more header byte on each slow connection; returns those still open."""
    alive = []
    for s in sockets:
        try:
            s.send(b"X")
            alive.append(s)
        except OSError:
            s.close()
    return alive


def closed_by_server(sockets):
    """Drops (and returns how many of) the sockets the server has closed."""
    selector = selectors.DefaultSelector()
    for s in sockets:
        selector.register(s, selectors.EVENT_READ)
    closed = set()
    for key, _ in selector.select(timeout=0):
        try:
            if key.fileobj.recv(1024) == b"":
                closed.add(key.fileobj)
        except OSError:
            closed.add(key.fileobj)
    selector.close()
    for s in closed:
        s.close()
    return [s for s in sockets if s not in closed], len(closed)


def slowloris(binary, slow):
    with tempfile.TemporaryDirectory() as directory:
        process, port = start_server(binary, pathlib.Path(directory))
        try:
            sockets = open_slow(port, slow)
            opened = len(sockets)
            start = time.monotonic()
            latencies, failed = [], 0
            last_drip = start
            while time.monotonic() - start < 15 and sockets:
                try:
                    status, seconds = request(port)
                    failed += status != 200
                    latencies.append(seconds)
                except OSError:
                    failed += 1
                if time.monotonic() - last_drip >= 1:
                    sockets = drip(sockets)
                    last_drip = time.monotonic()
                sockets, _ = closed_by_server(sockets)
                time.sleep(0.1)
            held = time.monotonic() - start
            for s in sockets:
                s.close()
            latencies.sort()
            median = latencies[len(latencies) // 2] if latencies else 0
            return {"slow connections": opened, "still open after": f"{held:.1f} s: {len(sockets)}",
                    "normal requests answered": len(latencies) - failed, "failed": failed,
                    "normal latency median": f"{median * 1000:.0f} ms",
                    "worst": f"{(latencies[-1] if latencies else 0) * 1000:.0f} ms",
                    "over 1 s": sum(1 for x in latencies if x > 1)}
        finally:
            process.kill()
            process.wait()


def low_descriptors(binary):
    with tempfile.TemporaryDirectory() as directory:
        process, port = start_server(binary, pathlib.Path(directory), fd_limit=256)
        try:
            sockets = open_slow(port, 400)
            start = time.monotonic()
            status, seconds = 0, 0.0
            while time.monotonic() - start < 20:
                try:
                    status, seconds = request(port, timeout=15)
                    break
                except OSError:
                    time.sleep(0.2)
            waited = time.monotonic() - start
            document = json.dumps({"format": "touchtracker", "version": 1, "lines": [], "circles": []})
            saved, _ = request(port, "PUT", "/api/drawings/fd", document, timeout=15)
            loaded, _ = request(port, "GET", "/api/drawings/fd", timeout=15)
            for s in sockets:
                s.close()
            return {"slow connections opened": len(sockets), "normal request status": status,
                    "waited": f"{waited:.1f} s", "save then load": f"{saved} then {loaded}"}
        finally:
            process.kill()
            process.wait()


def sigterm(binary):
    with tempfile.TemporaryDirectory() as directory:
        process, port = start_server(binary, pathlib.Path(directory))
        held = []
        idle = socket.create_connection(("127.0.0.1", port))
        idle.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        idle.recv(65536)
        held.append(idle)
        held += open_slow(port, 50)
        for _ in range(50):
            body = socket.create_connection(("127.0.0.1", port))
            body.sendall(b"PUT /api/drawings/x HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100000\r\n\r\n{\"for")
            held.append(body)
        for _ in range(20):
            reader = socket.create_connection(("127.0.0.1", port))
            reader.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            reader.sendall(b"GET /app.js HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n" * 200)
            held.append(reader)
        time.sleep(0.5)  # Let the server take every connection in before the signal.
        start = time.monotonic()
        process.send_signal(signal.SIGTERM)
        try:
            code = process.wait(timeout=30)
            seconds = time.monotonic() - start
        except subprocess.TimeoutExpired:
            process.kill()
            code, seconds = "killed", 30.0
        for s in held:
            s.close()
        return {"clients held": len(held), "exit status": code, "exit after SIGTERM": f"{seconds:.2f} s"}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", default=str(ROOT / ".build/release/touchtracker"))
    parser.add_argument("--slow", type=int, default=1000)
    arguments = parser.parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(soft, arguments.slow + 200)), hard))
    for name, phase in [("Slowloris", lambda: slowloris(arguments.binary, arguments.slow)),
                        ("Descriptor limit 256", lambda: low_descriptors(arguments.binary)),
                        ("SIGTERM", lambda: sigterm(arguments.binary))]:
        print(f"{name}: " + "; ".join(f"{k}: {v}" for k, v in phase().items()), flush=True)


if __name__ == "__main__":
    main()
