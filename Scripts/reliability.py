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
4. PostgreSQL outage (starts one with Scripts/postgres.sh): the server
   on a throwaway PostgreSQL, which is then stopped with SIGSTOP (its
   connections hang, nothing is refused) for 20 s while 24 requests of every
   kind arrive; reports their statuses and slowest answer, how long
   /healthz and a read took after them, how long after SIGCONT the server
   answered 200 again, and that a keyed append that timed out lands once
   when sent again.

5. Bodies in flight: BODIES document PUTs of BODY_MB MB each at once
   (10 of 212 MB by default, the issue's case), on a server with its
   default --body-budget (512 MiB); reports how many were stored (200) and
   how many refused (503, with Retry-After) before being read, the
   server's peak memory (VmHWM), and that every stored one reads back whole.

    Scripts/reliability.py --only outage   runs only that phase
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
import threading
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "Benchmarks"))
from procfs import peak_memory_bytes  # noqa: E402  (shared with the benchmarks)


def start_server(binary, directory, fd_limit=None, database=None, arguments=()):
    def limit():
        if fd_limit:
            resource.setrlimit(resource.RLIMIT_NOFILE, (fd_limit, fd_limit))

    process = subprocess.Popen(
        [binary, "serve", "--port", "0", "--database", database or str(directory / "drawings.sqlite"), *arguments],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, preexec_fn=limit, cwd=directory)
    line = process.stdout.readline().decode()
    if "listening" not in line:
        process.kill()
        sys.exit(f"reliability: the server did not start: {line!r}")
    return process, int(line.rstrip().rstrip("/").rsplit(":", 1)[1])


def request(port, method="GET", path="/healthz", body=None, timeout=5.0, headers=""):
    """One request on a fresh connection; returns (status, seconds)."""
    start = time.monotonic()
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
        head = f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n{headers}"
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


def postgres_processes(data):
    """The postmaster of the cluster in `data` and its children, by pid."""
    postmaster = int((data / "postmaster.pid").read_text().split()[0])
    children = []
    for stat in pathlib.Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == postmaster:
            children.append(int(stat.parent.name))
    return [postmaster] + children


def postgres_outage(binary, stopped_for=20.0):
    add = json.dumps({"changes": [{"op": "add", "lines": [
        {"id": 1, "begin": {"x": 1, "y": 2}, "end": {"x": 3, "y": 4}, "color": "#FF8C00", "width": 10}]}]})
    with tempfile.TemporaryDirectory() as directory:
        directory = pathlib.Path(directory)
        directory.chmod(0o755)  # as root, the cluster belongs to the postgres user (Scripts/postgres.sh)
        cluster = directory / "postgres"
        url = subprocess.run([str(ROOT / "Scripts/postgres.sh"), "start", str(cluster)], check=True,
                             capture_output=True, text=True).stdout.strip()
        process, port = start_server(binary, directory, database=url)
        pids = []
        try:
            request(port, "POST", "/api/drawings/d/changes", add, headers="Idempotency-Key: before\r\n")
            pids = postgres_processes(cluster / "data")
            for pid in pids:
                os.kill(pid, signal.SIGSTOP)
            stopped = time.monotonic()
            kinds = [("GET", "/api/drawings", None, ""), ("GET", "/api/drawings/d", None, ""),
                     ("GET", "/api/drawings/d/changes?since=0", None, ""),
                     ("POST", "/api/drawings/d/changes", add, "Idempotency-Key: during\r\n"),
                     ("PUT", "/api/drawings/e", '{"format":"touchtracker","version":1,"lines":[],"circles":[]}', ""), ("GET", "/healthz", None, "")]
            answers = []

            def ask(kind):
                try:
                    answers.append((kind[1],) + request(port, kind[0], kind[1], kind[2], 60.0, kind[3]))
                except OSError:
                    answers.append((kind[1], 0, time.monotonic() - stopped))

            threads = [threading.Thread(target=ask, args=(kind,)) for kind in kinds * 4]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            health_status, health_seconds = request(port, timeout=60.0)
            known_status, known_seconds = request(port, "GET", "/api/drawings/d", timeout=60.0)
            time.sleep(max(0.0, stopped_for - (time.monotonic() - stopped)))
            for pid in pids:
                os.kill(pid, signal.SIGCONT)
            continued = time.monotonic()
            while request(port, timeout=60.0)[0] != 200 and time.monotonic() - continued < 60:
                time.sleep(0.1)
            recovered = time.monotonic() - continued
            retry, _ = request(port, "POST", "/api/drawings/d/changes", add, headers="Idempotency-Key: during\r\n")
            with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
                s.sendall(b"GET /api/drawings/d/changes?since=0 HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
                received = b""
                while chunk := s.recv(65536):
                    received += chunk
            stored = len(json.loads(received.split(b"\r\n\r\n", 1)[1])["changes"])
        finally:
            for pid in pids:
                try:
                    os.kill(pid, signal.SIGCONT)
                except OSError:
                    pass
            process.kill()
            process.wait()
            subprocess.run([str(ROOT / "Scripts/postgres.sh"), "stop", str(cluster)], check=False)
        statuses = sorted({status for _, status, _ in answers})
        return {"stopped (SIGSTOP)": f"{stopped_for:.0f} s", "requests": len(answers),
                "statuses": ",".join(str(status) for status in statuses),
                "slowest answer": f"{max(seconds for _, _, seconds in answers):.2f} s",
                "then /healthz": f"{health_status} in {health_seconds:.2f} s",
                "then a drawing": f"{known_status} in {known_seconds:.2f} s",
                "200 again after SIGCONT": f"{recovered:.2f} s",
                "keyed append sent again": f"{retry}, changes stored: {stored} (expected 2)"}


def send_body(port, path, body, timeout=900.0):
    """A PUT of `body` (bytes), reading while sending: a server that answers
    before it has read the body (503, 413) is heard, not cut off by the
    reset of its close. A failed send (the server closed the connection)
    ends the sending, not the reading: its answer may already be waiting.
    Returns (status, head of the answer, seconds, how it ended)."""
    start = time.monotonic()
    head = f"PUT {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
    head += f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n"
    data = memoryview(head.encode() + body)
    received = b""
    ended = "timed out"
    send_error = None
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
        s.setblocking(False)
        selector = selectors.DefaultSelector()
        selector.register(s, selectors.EVENT_READ | selectors.EVENT_WRITE)
        sent = 0
        while time.monotonic() - start < timeout:
            events = selector.select(timeout=1)
            readable = any(mask & selectors.EVENT_READ for _, mask in events)
            if readable:
                try:
                    chunk = s.recv(65536)
                except (BlockingIOError, InterruptedError):
                    chunk = None
                except OSError as error:
                    ended = f"recv: {error.__class__.__name__}"
                    break
                if chunk == b"":
                    ended = "closed by the server"
                    break
                received += chunk or b""
            if sent < len(data) and send_error is None and any(mask & selectors.EVENT_WRITE for _, mask in events):
                try:
                    sent += s.send(data[sent:sent + (1 << 20)])
                except (BlockingIOError, InterruptedError):
                    pass
                except OSError as error:
                    send_error = f"send: {error.__class__.__name__} after {sent / 1e6:.0f} MB"
                    selector.modify(s, selectors.EVENT_READ)
            elif sent >= len(data):
                selector.modify(s, selectors.EVENT_READ)
        selector.close()
    if send_error:
        ended = f"{send_error}, then {ended}"
    status = int(received.split(b" ", 2)[1]) if received.startswith(b"HTTP/1.1 ") else 0
    return status, received.split(b"\r\n\r\n", 1)[0].decode(errors="replace"), time.monotonic() - start, ended


def body_budget(binary, bodies=10, megabytes=212, budget=None):
    line = '{"id":%d,"begin":{"x":101.5,"y":202.25},"end":{"x":303.75,"y":404.5},"color":"#000000","width":10}'
    count = megabytes * 1_000_000 // (len(line % 1000000) + 1)
    document = ('{"format":"touchtracker","version":1,"lines":['
                + ",".join(line % (i + 1) for i in range(count)) + '],"circles":[]}').encode()
    with tempfile.TemporaryDirectory() as directory:
        arguments = ["--body-budget", str(budget)] if budget else []
        process, port = start_server(binary, pathlib.Path(directory), arguments=arguments)
        try:
            answers = [None] * bodies

            def put(index):
                try:
                    answers[index] = send_body(port, f"/api/drawings/big-{index}", document)
                except OSError as error:
                    answers[index] = (0, "", 0.0, f"{error.__class__.__name__}: {error}")

            threads = [threading.Thread(target=put, args=(index,)) for index in range(bodies)]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            peak = peak_memory_bytes(process.pid) / (1 << 20)
            stored = [i for i, (status, _, _, _) in enumerate(answers) if status == 200]
            refused = [head for status, head, _, _ in answers if status == 503]
            whole = 0
            for index in stored:
                status, _ = request(port, "HEAD", f"/api/drawings/big-{index}", timeout=600)
                whole += status == 200
            retry_after = all("retry-after: 2" in head.lower() for head in refused)
        finally:
            process.terminate()
            process.wait(timeout=30)
    return {"bodies": f"{bodies} of {len(document) / 1e6:.0f} MB ({count:,} lines) at once",
            "stored (200)": len(stored),
            "refused before being read (503, Retry-After: 2)": f"{len(refused)}{'' if retry_after else ' (a Retry-After missing)'}",
            "other answers": sorted(f"{status} ({ended})" for status, _, _, ended in answers if status not in (200, 503)),
            "answers read after a send failed": sum(1 for status, _, _, ended in answers if status and ended.startswith("send")),
            "slowest stored": f"{max((answers[i][2] for i in stored), default=0):.1f} s",
            "peak memory (VmHWM)": f"{peak:,.0f} MB",
            "stored ones read back": f"{whole} of {len(stored)}"}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", default=str(ROOT / ".build/release/touchtracker"))
    parser.add_argument("--slow", type=int, default=1000)
    parser.add_argument("--only", choices=["slowloris", "descriptors", "sigterm", "outage", "bodies"])
    parser.add_argument("--bodies", type=int, default=10)
    parser.add_argument("--body-mb", type=int, default=212)
    parser.add_argument("--body-budget", type=int, help="the server's --body-budget in MiB (default: its own)")
    arguments = parser.parse_args()
    # Each server runs in its own folder, where a relative path would name nothing.
    arguments.binary = str(pathlib.Path(arguments.binary).resolve())
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(soft, arguments.slow + 200)), hard))
    phases = [("slowloris", "Slowloris", lambda: slowloris(arguments.binary, arguments.slow)),
              ("descriptors", "Descriptor limit 256", lambda: low_descriptors(arguments.binary)),
              ("sigterm", "SIGTERM", lambda: sigterm(arguments.binary)),
              ("outage", "PostgreSQL outage", lambda: postgres_outage(arguments.binary)),
              ("bodies", "Bodies in flight", lambda: body_budget(arguments.binary, arguments.bodies, arguments.body_mb,
                                                             arguments.body_budget))]
    for key, name, phase in phases:
        if arguments.only and key != arguments.only:
            continue
        print(f"{name}: " + "; ".join(f"{k}: {v}" for k, v in phase().items()), flush=True)


if __name__ == "__main__":
    main()
