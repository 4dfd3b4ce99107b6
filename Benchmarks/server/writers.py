"""Saves per second for small changes with 8 concurrent writers: the PostgreSQL store vs the SQLite store vs pgbench.

    python3 Benchmarks/server/writers.py --server BIN --postgres URL [--tool BENCH_TOOL]
        [--store-writers STORE_WRITERS] [--writers 8] [--seconds 10] [--out RESULT.json]

URL names a PostgreSQL server on loopback (Scripts/postgres.sh start DIR prints one); a
fresh database is made on it for each run and dropped after. In one run:

1. `BIN serve --database TMP/drawings.sqlite`, then `BIN serve --database URL/DB`: WRITERS
   threads, each on its own kept-alive loopback connection and its own drawing, POST one
   small change (one line, ~150 bytes, with an Idempotency-Key, as the page sends it) to
   `/api/drawings/wN/changes` as fast as the answers come, for SECONDS; acknowledged
   saves per second (200 answers) and the p50/p99 of their latency;
2. pgbench on the same PostgreSQL server, WRITERS clients, for SECONDS: one INSERT of a
   row of the same size per transaction (`-f`, no vacuum), its tps: what PostgreSQL
   itself does with a commit per small write here. Target: ours >= 0.5x pgbench;
3. the ceiling, same run: the same WRITERS threads sending `GET /healthz` (no storage at
   all) to the SQLite server for SECONDS: what this client and the HTTP stack allow on
   this machine whatever the store does. The server's CPU seconds per request are
   reported for every phase (utime + stime from /proc).

4. with --store-writers (`Benchmarks/Sources/store-writers`): the same writes through the
   stores themselves, with no HTTP, WRITERS tasks in one process, on each backend: what
   the store makes of PostgreSQL, measured where pgbench measures it.

The writers are Swift threads in `bench-tool http-writers` (BENCH_TOOL, built by
`swift build -c release --package-path Benchmarks --scratch-path Benchmarks/.build-bench`)
when --tool is given, else Python threads, whose own CPU limits them (their phase-3
ceiling was 2,153 req/s where the Swift writers reach ~7,500).
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
import threading
import time
import uuid

CHANGE = {
    "op": "add",
    "lines": [{"id": 1, "begin": {"x": 10.5, "y": 20.25}, "end": {"x": 300.75, "y": 400.5}, "color": "#ff8c00", "width": 10}],
    "bounds": {"x": 0, "y": 0, "width": 800, "height": 600},
}


def free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start(binary, database, log):
    port = free_port()
    process = subprocess.Popen(
        [binary, "serve", "--port", str(port), "--database", database], stdout=log, stderr=subprocess.STDOUT
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            sys.exit(f"touchtracker serve exited with {process.returncode}")
        try:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            connection.request("GET", "/healthz")
            if connection.getresponse().status == 200:
                return process, port
        except OSError:
            time.sleep(0.1)
    process.kill()
    sys.exit("touchtracker serve did not answer within 60 s")


def cpu_seconds(pid):
    fields = pathlib.Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def writers(port, count, seconds, health=False, tool=None):
    """Acknowledged saves per second and latency percentiles (ms) of COUNT writers for SECONDS
    (with `health`, GET /healthz instead of a save), in `tool` when given."""
    if tool:
        command = [tool, "http-writers", str(port), str(count), str(seconds)] + (["health"] if health else [])
        return swift_writers(command, "bench-tool http-writers", seconds + 60)
    stop = time.monotonic() + seconds
    latencies = [[] for _ in range(count)]
    errors = []

    def write(index):
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        serial = 0
        while time.monotonic() < stop:
            serial += 1
            change = json.loads(json.dumps(CHANGE))
            change["lines"][0]["id"] = serial
            body = json.dumps({"changes": [change]})
            began = time.perf_counter()
            if health:
                connection.request("GET", "/healthz")
            else:
                connection.request(
                    "POST", f"/api/drawings/w{index}/changes", body,
                    {"Content-Type": "application/json", "Idempotency-Key": f"k{index}-{serial}"},
                )
            response = connection.getresponse()
            response.read()
            if response.status != 200:
                errors.append(response.status)
                return
            latencies[index].append((time.perf_counter() - began) * 1000)

    threads = [threading.Thread(target=write, args=(index,)) for index in range(count)]
    began = time.monotonic()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    elapsed = time.monotonic() - began
    if errors:
        sys.exit(f"a save was refused: {errors[:3]}")
    return summary(sorted(value for values in latencies for value in values), elapsed)


def summary(every, seconds):
    """Saves per second and the p50/p99 of `every` (sorted latencies, ms) over SECONDS."""
    if not every:
        sys.exit("no writer got an answer")
    return {
        "savesPerSecond": round(len(every) / seconds, 1),
        "p50Ms": round(statistics.median(every), 2),
        "p99Ms": round(every[int(len(every) * 0.99) - 1], 2),
        "saves": len(every),
    }


def swift_writers(command, what, timeout):
    """Runs a Swift writer (`bench-tool http-writers`, `store-writers`) and summarizes its
    {"seconds", "latenciesMicroseconds"}."""
    finished = subprocess.run(command, capture_output=True, text=True, timeout=timeout, check=False)
    if finished.returncode != 0:
        sys.exit(f"{what} failed: {finished.stderr[-2000:]}")
    output = json.loads(finished.stdout)
    return summary([value / 1000 for value in output["latenciesMicroseconds"]], output["seconds"])


def store_writers(binary, database, count, seconds):
    """Saves per second through the store itself (see the header, 4)."""
    return swift_writers([binary, database, str(count), str(seconds)], "store-writers", seconds + 120)


def psql(url, sql):
    subprocess.run(["psql", url, "-qc", sql], check=True, stdout=subprocess.DEVNULL)


def pgbench(url, count, seconds, directory):
    psql(url, "CREATE TABLE bench_insert (id bigserial PRIMARY KEY, name text, revision bigint, change text)")
    row = json.dumps(CHANGE).replace("'", "''")
    script = directory / "insert.sql"
    script.write_text(f"INSERT INTO bench_insert (name, revision, change) VALUES ('w', 1, '{row}');\n")
    result = subprocess.run(
        ["pgbench", "-n", "-c", str(count), "-j", str(count), "-T", str(int(seconds)), "-f", str(script), url],
        check=True, capture_output=True, text=True,
    )
    for line in result.stdout.splitlines():
        if line.startswith("tps =") and "without initial connection time" in line:
            return round(float(line.split()[2]), 1)
    sys.exit(f"no tps in pgbench's output:\n{result.stdout}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--server", required=True)
    parser.add_argument("--postgres", required=True)
    parser.add_argument("--writers", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--tool", help="bench-tool's path: its Swift writers instead of Python threads")
    parser.add_argument("--store-writers", help="store-writers' path: also measure the stores without HTTP (4)")
    parser.add_argument("--out")
    args = parser.parse_args()
    server = args.postgres.rsplit("/", 1)[0]
    name = f"tt_bench_{uuid.uuid4().hex[:12]}"
    results = {"writers": args.writers, "seconds": args.seconds,
               "clientsIn": "bench-tool http-writers (Swift)" if args.tool else "Python threads"}
    with tempfile.TemporaryDirectory() as temporary:
        directory = pathlib.Path(temporary)
        with open(directory / "server.log", "ab") as log:
            for backend, database in [("sqlite", str(directory / "drawings.sqlite")), ("postgres", f"{server}/{name}")]:
                if backend == "postgres":
                    psql(args.postgres, f"CREATE DATABASE {name}")
                process, port = start(args.server, database, log)
                try:
                    before = cpu_seconds(process.pid)
                    results[backend] = writers(port, args.writers, args.seconds, tool=args.tool)
                    results[backend]["serverCpuMsPerSave"] = round(
                        (cpu_seconds(process.pid) - before) * 1000 / results[backend]["saves"], 3)
                    if backend == "sqlite":
                        before = cpu_seconds(process.pid)
                        ceiling = writers(port, args.writers, args.seconds, health=True, tool=args.tool)
                        ceiling["serverCpuMsPerRequest"] = round(
                            (cpu_seconds(process.pid) - before) * 1000 / ceiling["saves"], 3)
                        results["healthzCeiling"] = ceiling
                finally:
                    process.terminate()
                    process.wait(timeout=15)
                print(backend, results[backend], flush=True)
        if args.store_writers:
            results["sqliteStore"] = store_writers(
                args.store_writers, str(directory / "store.sqlite"), args.writers, args.seconds)
            print("sqlite store", results["sqliteStore"], flush=True)
            store_database = f"{name}_store"
            psql(args.postgres, f"CREATE DATABASE {store_database}")
            try:
                results["postgresStore"] = store_writers(
                    args.store_writers, f"{server}/{store_database}", args.writers, args.seconds)
            finally:
                psql(args.postgres, f"DROP DATABASE IF EXISTS {store_database} WITH (FORCE)")
            print("postgres store", results["postgresStore"], flush=True)
        try:
            results["pgbenchInsertsPerSecond"] = pgbench(f"{server}/{name}", args.writers, args.seconds, directory)
        finally:
            psql(args.postgres, f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
    results["postgresVsPgbench"] = round(results["postgres"]["savesPerSecond"] / results["pgbenchInsertsPerSecond"], 2)
    if args.store_writers:
        results["postgresStoreVsPgbench"] = round(
            results["postgresStore"]["savesPerSecond"] / results["pgbenchInsertsPerSecond"], 2)
    results["postgresVsCeiling"] = round(
        results["postgres"]["savesPerSecond"] / results["healthzCeiling"]["savesPerSecond"], 2)
    print(json.dumps(results, indent=2))
    if args.out:
        pathlib.Path(args.out).write_text(json.dumps(results, indent=2) + "\n")


if __name__ == "__main__":
    main()
