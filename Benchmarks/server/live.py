"""Live sync under load: real WebSocket clients on loopback against `touchtracker serve`.

    python3 Benchmarks/server/live.py --server BIN [--out RESULT.json]
        [--clients 100] [--rate 10] [--seconds 20] [--drawings 1000] [--pair-rate 1] [--skip a,b,c]
        [--postgres URL [--servers 2]]

Needs `websockets` from PyPI (`Scripts/setup.sh benchmark`). Starts
`BIN serve --port P --database TMP/drawings.sqlite` itself and, in one run:

(a) CLIENTS clients on one drawing, each sending RATE batches a second (one
    add of one line, with an idempotency key) for SECONDS: send-to-receipt
    latency at every other client (p50, p99), and convergence: every client
    saw every revision exactly once, in order (its own as acks), and for two
    clients per worker the drawing rebuilt from what they received equals
    the server's `GET` (lines compared as parsed JSON);
(b) DRAWINGS drawings with 2 clients each, PAIR-RATE batches a second per
    client for SECONDS: the same latency and checks;
(c) load (a) again on a fresh drawing, the server killed with SIGKILL
    halfway and started again on the same database and port: every client
    reconnects (backoff 0.1 s doubling to 2 s), says hello from the last
    revision it saw and sends its unacknowledged batches again (same keys);
    at the end every acknowledged line is in `GET`'s document (0 lost) and
    every client converged (from a reset it reads the document).

With --postgres URL (a server on loopback: `Scripts/postgres.sh start DIR`
prints one) the run makes a fresh database there, starts SERVERS processes of
`BIN serve --database URL/DB` and gives client i the server i mod SERVERS,
so in (a) and (b) most receipts cross from one server to another (issue
13's "two servers, 100 clients on one drawing"); in (c) the first server is
killed and not started again: its clients reconnect to the next server
(issue 13's "kill -9 one of two servers under load"). The database is
dropped after.

Baseline, same run, same server: `POST /api/drawings/NAME/changes` of the
same one-line batch, 300 round trips on one kept-alive connection (p50,
p99): what one durable change costs over HTTP, the floor for a change that
is stored before anyone sees it. Ratios are live latency over it.

Clients run in as many worker processes as the machine has cores (Python
cannot keep 100,000 messages a second in one); the latency clock is
CLOCK_MONOTONIC, shared by the processes. Each client's send time travels
in its batch key. The harness's own CPU time is reported: on a loaded
machine it, not the server, can be what the latency measures.
"""

import argparse
import asyncio
import json
import multiprocessing
import os
import pathlib
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import urllib.request

try:
    from websockets.asyncio.client import connect
    from websockets.exceptions import ConnectionClosed, WebSocketException
except ImportError:
    # Only the loads need it (main() says so); the clients' bookkeeping is
    # tested without it (Tests/e2e/test_live_harness.py), on machines set up
    # for the tests alone.
    connect = None

    class WebSocketException(Exception):
        pass

    ConnectionClosed = WebSocketException

TICKS = os.sysconf("SC_CLK_TCK")


def free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def cpu_seconds(pid):
    fields = pathlib.Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def start_server(binary, database, port, log):
    with open(log, "ab") as output:
        process = subprocess.Popen(
            # live-swarm's WebSocket client (swift-websocket) sends its Origin without the port
            # ("http://127.0.0.1"), which the server takes for another origin since it compares
            # ports; a public host named without a port is compared by name alone.
            [binary, "serve", "--port", str(port), "--database", database, "--public-host", "127.0.0.1"],
            stdout=output, stderr=subprocess.STDOUT
        )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit(f"live: the server exited with {process.returncode}:\n{pathlib.Path(log).read_text()}")
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2).read()
            return process
        except OSError:
            time.sleep(0.05)
    raise SystemExit("live: the server did not answer within 60 s")


def get_document(port, name):
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/drawings/{name}", timeout=60) as response:
        return int(response.headers["X-Revision"]), json.loads(response.read())


def get_revision(port, name):
    """The drawing's revision from the listing (summary columns: cheap at any size); 0 if absent."""
    # The list is paged: ask for the names holding this one (the server searches).
    url = f"http://127.0.0.1:{port}/api/drawings?limit=1000&search={urllib.parse.quote(name)}"
    with urllib.request.urlopen(url, timeout=60) as response:
        return next((d["revision"] for d in json.loads(response.read()) if d["name"] == name), 0)


def line(line_id):
    return {"id": line_id, "begin": {"x": line_id % 997, "y": 2}, "end": {"x": 3, "y": line_id % 991}, "color": "#000000",
            "width": 2}


def batch_text(key, line_id):
    return json.dumps({"type": "changes", "key": key, "changes": [{"op": "add", "lines": [line(line_id)]}]},
                      separators=(",", ":"))


def percentile(values, fraction):
    if not values:
        return None
    values = sorted(values)
    return values[min(len(values) - 1, int(fraction * len(values)))]


# MARK: - One client


class Client:
    """One live client: sends RATE batches a second, receives everything, reconnects when told to."""

    def __init__(self, ports, drawing, index, rate, keep_changes):
        # The servers it may use, its own first; after a failure it tries the next.
        self.ports, self.drawing, self.index, self.rate = ports, drawing, index, rate
        self.port = ports[0]
        self.client_id = f"{index + 1:08x}"
        self.keep_changes = keep_changes
        self.serial = 0
        self.pending = {}  # key -> line id, sent and not acknowledged
        self.acked = {}  # key -> (line id, revision)
        self.seen = []  # revisions in the order this client got them (changes and acks)
        self.last = 0  # the revision its copy builds on
        self.base = None  # (revision, lines) of a document read after a reset
        self.changes = {}  # revision -> line dicts, when keep_changes
        self.latencies = []  # microseconds
        self.reconnects = 0
        self.resets = 0
        self.errors = []
        self.last_message = time.monotonic()
        self.joined = False  # between hello and welcome, or after a reset

    async def run(self, stop_sending_at, quiet_for):
        delay = 0.1
        while True:
            try:
                async with connect(f"ws://127.0.0.1:{self.port}/api/drawings/{self.drawing}/live",
                                   max_size=None, compression=None, ping_interval=None) as socket_:
                    delay = 0.1
                    self.joined = False
                    await socket_.send(json.dumps({"type": "hello", "since": self.last, "client": self.client_id}))
                    await self.until_welcome(socket_)
                    for key, line_id in list(self.pending.items()):  # unacknowledged: again, same key
                        await socket_.send(batch_text(key, line_id))
                    sender = asyncio.ensure_future(self.send(socket_, stop_sending_at))
                    try:
                        await self.receive(socket_, stop_sending_at, quiet_for)
                    finally:
                        sender.cancel()
                    if not self.pending and time.monotonic() > stop_sending_at:
                        return
            except (WebSocketException, OSError, asyncio.TimeoutError) as error:
                if time.monotonic() > stop_sending_at + 60:
                    self.errors.append(f"gave up reconnecting: {error!r}")
                    return
                self.reconnects += 1
                self.port = self.ports[(self.ports.index(self.port) + 1) % len(self.ports)]
                await asyncio.sleep(delay * (0.5 + random.random()))
                delay = min(2.0, delay * 2)

    async def until_welcome(self, socket_):
        while True:
            message = json.loads(await asyncio.wait_for(socket_.recv(), 30))
            kind = message["type"]
            if kind == "welcome":
                self.joined = True
                return
            if kind == "reset":
                await self.reset(socket_, message["revision"])
            elif kind in ("changes", "ack"):
                self.take(message, time.monotonic_ns())
            elif kind == "error":
                # As in `receive`: a problem to report, not a crash of the harness (a KeyError on
                # the missing revision stopped the whole run's row 8 kill once).
                self.errors.append(json.dumps(message))
            # presence and leave: other people's fingers, nothing to check here

    async def reset(self, socket_, _revision):
        # Until the next welcome, acks of its own changes do not move it on: the backlog after
        # the document it reads brings every revision, its own among them, in order.
        self.joined = False
        self.resets += 1
        revision, document = await asyncio.get_running_loop().run_in_executor(
            None, get_document, self.port, self.drawing)
        self.base = (revision, document["lines"])
        self.changes = {}
        self.seen.append(("reset", revision))
        self.last = revision
        await socket_.send(json.dumps({"type": "hello", "since": self.last, "client": self.client_id}))

    async def send(self, socket_, stop_sending_at):
        try:
            await asyncio.sleep(random.random() / self.rate)
            next_at = time.monotonic()
            while time.monotonic() < stop_sending_at:
                self.serial += 1
                line_id = (self.index + 1) * 1_000_000 + self.serial
                key = f"c{self.index}-{self.serial}-{time.monotonic_ns()}"
                self.pending[key] = line_id
                await socket_.send(batch_text(key, line_id))
                next_at += 1 / self.rate
                await asyncio.sleep(max(0, next_at - time.monotonic()))
        except WebSocketException:
            pass  # the receiver sees the connection end and reconnects

    async def receive(self, socket_, stop_sending_at, quiet_for):
        while True:
            try:
                text = await asyncio.wait_for(socket_.recv(), 1.0)
            except asyncio.TimeoutError:
                now = time.monotonic()
                if now > stop_sending_at and not self.pending and now - self.last_message > quiet_for:
                    # Quiet, with nothing of its own in flight: it leaves once it has every
                    # revision the drawing has. A saturated or just restarted server can be
                    # silent for longer than `quiet_for` and still owe it the tail (16 clients
                    # once left at one revision, 130 short); a page would stay and get them.
                    current = await asyncio.get_running_loop().run_in_executor(
                        None, get_revision, self.port, self.drawing)
                    if self.last >= current or now > stop_sending_at + 60:
                        await socket_.close()
                        return
                    self.last_message = now  # look again after another quiet spell
                continue
            now_ns = time.monotonic_ns()
            self.last_message = time.monotonic()
            if text.startswith('{"type":"changes"') or text.startswith('{"type":"ack"'):
                self.take(json.loads(text) if self.keep_changes or text[9] == "a" else self.skim(text), now_ns)
            elif text.startswith('{"type":"reset"'):
                # Changes it lacked were compacted away, or the drawing was replaced: read the
                # document and say hello from it, as the page does.
                await self.reset(socket_, json.loads(text)["revision"])
                await self.until_welcome(socket_)
            elif text.startswith('{"type":"error"'):
                self.errors.append(text)

    @staticmethod
    def skim(text):
        """What the checks need of a `changes` message, without parsing its changes."""
        revision = int(text[text.index('"revision":') + 11:].split(",", 1)[0].split("}", 1)[0])
        message = {"type": "changes", "revision": revision}
        start = text.find('"key":"')
        if start >= 0:
            message["key"] = text[start + 7:text.index('"', start + 7)]
        return message

    def take(self, message, now_ns):
        revision = message["revision"]
        key = message.get("key")
        if message["type"] == "ack" or key in self.pending:
            line_id = self.pending.pop(key, None)
            if line_id is not None:
                self.acked[key] = (line_id, revision)
                # An ack at or below a document read after a reset is in that document already.
                if self.keep_changes and (self.base is None or revision > self.base[0]):
                    self.changes[revision] = [line(line_id)]
            # Its own change in a backlog (committed, never acknowledged: the server that
            # took it was killed) is in the stream's order; an ack before welcome is not
            # (after a reset, the backlog from the document brings that revision again).
            if revision > self.last and (self.joined or message["type"] != "ack"):
                self.seen.append(revision)
                self.last = revision
            return
        if key and key.startswith("c"):
            self.latencies.append((now_ns - int(key.rsplit("-", 1)[1])) // 1000)
        if self.keep_changes:
            self.changes[revision] = [l for change in message["changes"] for l in change.get("lines", [])]
        self.seen.append(revision)
        self.last = max(self.last, revision)

    def document_lines(self):
        lines = list(self.base[1]) if self.base else []
        for revision in sorted(self.changes):
            lines.extend(self.changes[revision])
        return lines

    def report(self):
        return {
            "index": self.index, "drawing": self.drawing, "latencies": self.latencies, "seen": self.seen,
            "acked": list(self.acked.values()), "unacked": list(self.pending.values()), "reconnects": self.reconnects,
            "resets": self.resets, "errors": self.errors,
            "document": self.document_lines() if self.keep_changes else None,
        }


def worker(ports, assignments, rate, start_at, seconds, quiet_for, results):
    """One process: its share of the clients, all started at `start_at` (CLOCK_MONOTONIC);
    client i starts on server i mod len(ports)."""

    def ports_of(index):
        first = index % len(ports)
        return ports[first:] + ports[:first]

    async def main():
        clients = [Client(ports_of(index), drawing, index, rate, keep) for drawing, index, keep in assignments]
        await asyncio.sleep(max(0, start_at - time.monotonic()))
        stop_at = time.monotonic() + seconds
        await asyncio.gather(*(client.run(stop_at, quiet_for) for client in clients))
        return [client.report() for client in clients]

    started = time.process_time()
    reports = asyncio.run(main())
    results.put((reports, time.process_time() - started))


def run_swarm(binary, plan, timeout, on_welcomed=None, started=None):
    """Runs live-swarm (the Swift client swarm) on the JSON `plan` within `timeout` seconds and returns its
    JSON output; `on_welcomed()` is called (in a thread) when it says every client is welcomed,
    `started(pid)` once it runs. Used here and by room.py."""
    process = subprocess.Popen([binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if started:
        started(process.pid)
    errors = []

    def read_stderr():
        for raw in process.stderr:
            text = raw.decode(errors="replace")
            if text.startswith("live-swarm: all ") and on_welcomed:
                on_welcomed()
            else:
                errors.append(text)

    reader = threading.Thread(target=read_stderr, daemon=True)
    reader.start()
    process.stdin.write(json.dumps(plan).encode())
    process.stdin.close()
    chunks = []
    collector = threading.Thread(target=lambda: chunks.append(process.stdout.read()), daemon=True)
    collector.start()
    try:
        process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
        raise SystemExit(f"live-swarm did not finish within its time bound ({timeout:.0f} s)")
    collector.join()
    stdout = b"".join(chunks)
    reader.join(timeout=5)
    if process.returncode != 0:
        raise SystemExit(f"live-swarm exited with {process.returncode}: {''.join(errors)[-2000:]}")
    return json.loads(stdout)


def swarm_clients(binary, ports, assignments, rate, seconds, quiet_for=2.0):
    """Runs the clients in one `live-swarm` process (Swift, SwiftNIO) instead of Python workers."""
    start_at = time.monotonic() + 2 + len(assignments) / 500
    plan = {"ports": ports, "rate": rate, "startAt": start_at, "seconds": seconds, "quietFor": quiet_for,
            "assignments": [{"drawing": drawing, "index": index, "keep": keep} for drawing, index, keep in assignments]}
    output = run_swarm(binary, plan, timeout=seconds + 180)
    reports = output["reports"]
    for report in reports:
        kept = report.pop("kept")
        if kept is None:
            report["document"] = None
            continue
        changes = {revision: [l for change in json.loads(text)["changes"] for l in change.get("lines", [])]
                   for revision, text in kept}
        changes.update({revision: [line(line_id)] for line_id, revision in report["acked"]})
        report["document"] = [l for revision in sorted(changes) for l in changes[revision]]
    return reports, output["cpu"]


def run_clients(ports, assignments, rate, seconds, quiet_for=2.0, during=None, swarm=None):
    """Runs the clients in one worker per core, or in `swarm` (live-swarm's path) when given and
    nothing is to happen `during` the run; `during(elapsed)` is called every 0.1 s meanwhile."""
    if swarm and during is None:
        return swarm_clients(swarm, ports, assignments, rate, seconds, quiet_for)
    processes = max(1, os.cpu_count() or 1)
    shares = [assignments[i::processes] for i in range(processes)]
    results = multiprocessing.Queue()
    start_at = time.monotonic() + 2 + len(assignments) / 500  # time to connect everyone
    workers = [multiprocessing.Process(target=worker, args=(ports, share, rate, start_at, seconds, quiet_for, results))
               for share in shares if share]
    for process in workers:
        process.start()
    reports, harness_cpu, finished = [], 0.0, 0
    deadline = time.monotonic() + seconds + 180
    while finished < len(workers):
        if during:
            during(time.monotonic() - start_at)
        try:
            part, cpu = results.get(timeout=0.1)
            reports.extend(part)
            harness_cpu += cpu
            finished += 1
        except Exception:
            if time.monotonic() > deadline:
                raise SystemExit("live: the clients did not finish within their time bound")
    for process in workers:
        process.join()
    return reports, harness_cpu


def check(port, reports, name_of):
    """Convergence: per drawing, every client saw every revision once and in order; sampled documents equal GET's."""
    problems = []
    documents = {}
    for report in reports:
        drawing = report["drawing"]
        if drawing not in documents:
            documents[drawing] = get_document(port, drawing)
        revision, document = documents[drawing]
        seen = report["seen"]
        resets = [i for i, r in enumerate(seen) if isinstance(r, tuple)]
        start = seen[resets[-1]][1] if resets else 0
        after = seen[resets[-1] + 1:] if resets else seen
        if after != list(range(start + 1, revision + 1)):
            expected = list(range(start + 1, revision + 1))
            gap = next((i for i, (a, b) in enumerate(zip(after, expected)) if a != b), min(len(after), len(expected)))
            problems.append(f"client {report['index']} on {drawing}: saw {len(after)} revisions after {start}, "
                            f"expected {revision - start} in order (last seen {after[-1] if after else None}; "
                            f"from the {gap + 1}th: {after[gap:gap + 4]} where {expected[gap:gap + 4]} was due)")
        if report["unacked"]:
            problems.append(f"client {report['index']}: {len(report['unacked'])} batches never acknowledged")
        if report["errors"]:
            problems.append(f"client {report['index']}: {report['errors'][:3]}")
        if report["document"] is not None:
            ours = [(l["id"], l["begin"], l["end"]) for l in report["document"]]
            theirs = [(l["id"], l["begin"], l["end"]) for l in document["lines"]]
            if ours != theirs:
                problems.append(f"client {report['index']}: its drawing ({len(ours)} lines) differs from GET's "
                                f"({len(theirs)} lines)")
    lost = []
    for report in reports:
        ids = documents[report["drawing"]][1]["lines"]
        present = {l["id"] for l in ids}
        lost.extend(line_id for line_id, _ in report["acked"] if line_id not in present)
    return problems, lost, {name: rev for name, (rev, _) in documents.items()}


def summarize(reports, harness_cpu, seconds):
    latencies = [value for report in reports for value in report["latencies"]]
    return {
        "deliveries": len(latencies),
        "p50ms": percentile(latencies, 0.5) / 1000 if latencies else None,
        "p99ms": percentile(latencies, 0.99) / 1000 if latencies else None,
        "maxms": max(latencies) / 1000 if latencies else None,
        "acked": sum(len(r["acked"]) for r in reports),
        "reconnects": sum(r["reconnects"] for r in reports),
        "resets": sum(r["resets"] for r in reports),
        "harnessCpuPerSecond": harness_cpu / seconds,
    }


# MARK: - Baseline


def post_baseline(port, count):
    connection = socket.create_connection(("127.0.0.1", port))
    connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    times = []
    buffer = b""
    for index in range(count):
        body = json.dumps({"changes": [{"op": "add", "lines": [line(900_000_000 + index)]}]}).encode()
        head = (f"POST /api/drawings/baseline/changes HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                f"Content-Type: application/json\r\nIdempotency-Key: b{index}\r\nContent-Length: {len(body)}\r\n\r\n")
        start = time.perf_counter()
        connection.sendall(head.encode() + body)
        while b"\r\n\r\n" not in buffer:
            buffer += connection.recv(65536)
        response_head, buffer = buffer.split(b"\r\n\r\n", 1)
        length = int([h for h in response_head.split(b"\r\n") if h.lower().startswith(b"content-length")][0].split(b":")[1])
        while len(buffer) < length:
            buffer += connection.recv(65536)
        buffer = buffer[length:]
        times.append(time.perf_counter() - start)
        if not response_head.startswith(b"HTTP/1.1 200"):
            raise SystemExit(f"live: the baseline POST answered {response_head[:40]!r}")
    connection.close()
    return {"count": count, "p50ms": percentile(times, 0.5) * 1000, "p99ms": percentile(times, 0.99) * 1000}


# MARK: - Main


def postgres_database(url):
    """A fresh database on the PostgreSQL server of `url`: (its URL, a function that drops it)."""
    name = f"tt_live_{os.getpid()}_{int(time.time())}"
    subprocess.run(["psql", url, "-qc", f"CREATE DATABASE {name}"], check=True)
    drop = lambda: subprocess.run(["psql", url, "-qc", f"DROP DATABASE IF EXISTS {name} WITH (FORCE)"], check=False)
    return url.rsplit("/", 1)[0] + "/" + name, drop


def stop(process):
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--server", required=True)
    parser.add_argument("--out")
    parser.add_argument("--clients", type=int, default=100)
    parser.add_argument("--rate", type=float, default=10)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--drawings", type=int, default=1000)
    parser.add_argument("--pair-rate", type=float, default=1)
    parser.add_argument("--skip", default="")
    parser.add_argument("--postgres", help="run SERVERS servers on a fresh database of this PostgreSQL server")
    parser.add_argument("--servers", type=int, default=2)
    parser.add_argument("--swarm", help="live-swarm's path: its clients run loads a and b (c stays on Python's)")
    args = parser.parse_args()
    if connect is None:
        raise SystemExit("live: needs the Python package 'websockets' (Scripts/setup.sh benchmark)")
    skip = set(filter(None, args.skip.split(",")))
    count = args.servers if args.postgres else 1
    result = {"clients": args.clients, "rate": args.rate, "seconds": args.seconds, "drawings": args.drawings,
              "pairRate": args.pair_rate, "cores": os.cpu_count(), "loadAverage": os.getloadavg()[0],
              "store": "postgres" if args.postgres else "sqlite", "servers": count,
              "clientsIn": "live-swarm (Swift)" if args.swarm else "Python workers"}
    with tempfile.TemporaryDirectory() as directory:
        database, drop = postgres_database(args.postgres) if args.postgres else (
            os.path.join(directory, "drawings.sqlite"), lambda: None)
        logs = [os.path.join(directory, f"server{index}.log") for index in range(count)]
        ports = [free_port() for _ in range(count)]
        servers = []
        try:
            for server_port, log in zip(ports, logs):
                servers.append(start_server(args.server, database, server_port, log))
            port = ports[0]
            result["baseline"] = post_baseline(port, 300)
            print(f"live: baseline POST p50 {result['baseline']['p50ms']:.2f} ms", file=sys.stderr)

            def server_cpu():
                return sum(cpu_seconds(server.pid) for server in servers if server.poll() is None)

            def one_drawing(name, during=None):
                assignments = [(name, index, index < 2 or index % (args.clients // 2 or 1) == 0)
                               for index in range(args.clients)]
                before = server_cpu()
                reports, harness = run_clients(ports, assignments, args.rate, args.seconds, during=during,
                                               swarm=args.swarm)
                return reports, harness, before

            if "a" not in skip:
                reports, harness, before = one_drawing("live-a")
                problems, lost, revisions = check(port, reports, "live-a")
                result["a"] = summarize(reports, harness, args.seconds) | {
                    "revision": revisions["live-a"], "problems": problems[:20], "lost": len(lost),
                    "serverCpuPerSecond": (server_cpu() - before) / args.seconds}
                print(f"live: (a) {json.dumps(result['a'])}", file=sys.stderr)

            if "b" not in skip:
                assignments = [(f"pair-{index // 2}", index, index % 50 == 0) for index in range(args.drawings * 2)]
                before = server_cpu()
                reports, harness = run_clients(ports, assignments, args.pair_rate, args.seconds, swarm=args.swarm)
                problems, lost, _ = check(port, reports, None)
                result["b"] = summarize(reports, harness, args.seconds) | {
                    "problems": problems[:20], "lost": len(lost),
                    "serverCpuPerSecond": (server_cpu() - before) / args.seconds}
                print(f"live: (b) {json.dumps(result['b'])}", file=sys.stderr)

            if "c" not in skip:
                # One server: killed and started again on the same database and port. Several: the
                # first is killed for good, and its clients move to the next.
                state = {"killed": False, "restarted": False}

                def during(elapsed):
                    if not state["killed"] and elapsed > args.seconds / 2:
                        servers[0].send_signal(signal.SIGKILL)
                        servers[0].wait()
                        state["killed"] = time.monotonic()
                    elif (count == 1 and state["killed"] and not state["restarted"]
                          and time.monotonic() - state["killed"] > 1):
                        servers[0] = start_server(args.server, database, port, logs[0])
                        state["restarted"] = True

                reports, harness, _ = one_drawing("live-c", during)
                survivor = port if count == 1 else ports[1]
                problems, lost, revisions = check(survivor, reports, "live-c")
                result["c"] = summarize(reports, harness, args.seconds) | {
                    "killed": bool(state["killed"]), "restarted": state["restarted"],
                    "revision": revisions["live-c"], "problems": problems[:20], "lost": len(lost)}
                print(f"live: (c) {json.dumps(result['c'])}", file=sys.stderr)
        finally:
            for server in servers:
                stop(server)
            drop()
    for part in ("a", "b"):
        if part in result and result[part]["p50ms"]:
            result[part]["p50VsPost"] = result[part]["p50ms"] / result["baseline"]["p50ms"]
            result[part]["p99VsPost"] = result[part]["p99ms"] / result["baseline"]["p99ms"]
    text = json.dumps(result, indent=2)
    if args.out:
        pathlib.Path(args.out).write_text(text)
    print(text)
    failed = [part for part in ("a", "b", "c") if part in result and (result[part]["problems"] or result[part]["lost"])]
    if failed:
        raise SystemExit(f"live: {', '.join(failed)} did not converge or lost acknowledged changes")


if __name__ == "__main__":
    main()
