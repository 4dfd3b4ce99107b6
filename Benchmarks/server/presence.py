"""Lines in progress between two servers on one PostgreSQL database: how
long a presence message takes from a client of one server to the clients
of the other (`PresenceRelay`: batched every 25 ms into NOTIFYs), against
the same message's way to the clients of its own server, in the same run.

    python3 Benchmarks/server/presence.py --server BIN --postgres URL [--per-server 10] [--rate 30] [--seconds 10]

Starts two `BIN serve` on a fresh database of the PostgreSQL server at URL
(created and dropped here), all on loopback; PER-SERVER clients on each join
drawing `presence` and each sends its line in progress RATE times a second
for SECONDS, the send time written in the line. Every client measures each
presence it receives: `remote` from the other server's clients, `local`
from its own server's. Needs Python's `websockets` (Scripts/setup.sh benchmark).
"""

import argparse
import asyncio
import json
import os
import socket
import subprocess
import time
import urllib.request
import uuid

import websockets


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def cpu_seconds(pid):
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def client(index, port, started, stop, rate, received):
    async with websockets.connect(f"ws://127.0.0.1:{port}/api/drawings/presence/live", max_size=None) as socket_:
        await socket_.send(json.dumps({"type": "hello", "since": 0, "client": f"{index:08x}"}))

        async def read():
            async for text in socket_:
                message = json.loads(text)
                if message.get("type") == "presence" and message["lines"]:
                    begin = message["lines"][0]["begin"]
                    way = "local" if int(begin["y"]) == port else "remote"
                    received[way].append((time.monotonic() - started) * 1000 - begin["x"])

        reader = asyncio.create_task(read())
        await asyncio.sleep(0.5)  # every client has said hello
        while not stop.is_set():
            now = round((time.monotonic() - started) * 1000, 3)
            line = {"begin": {"x": now, "y": port}, "end": {"x": 100, "y": 100}, "color": "#336699", "width": 3}
            await socket_.send(json.dumps({"type": "presence", "lines": [line]}))
            await asyncio.sleep(1 / rate)
        await asyncio.sleep(0.5)  # what is on its way arrives
        reader.cancel()


async def load(ports, processes, per_server, rate, seconds):
    started = time.monotonic()
    stop = asyncio.Event()
    received = {"remote": [], "local": []}
    clients = [
        asyncio.create_task(client(index, ports[index % 2], started, stop, rate, received))
        for index in range(2 * per_server)
    ]
    before = [cpu_seconds(process.pid) for process in processes]
    await asyncio.sleep(seconds)
    stop.set()
    after = [cpu_seconds(process.pid) for process in processes]
    await asyncio.gather(*clients)
    return received, [(b - a) / seconds for a, b in zip(before, after)]


def percentiles(values):
    values = sorted(values)
    if not values:
        return None
    at = lambda p: values[min(len(values) - 1, int(len(values) * p))]  # noqa: E731
    return {"n": len(values), "p50Ms": at(0.5), "p99Ms": at(0.99), "maxMs": values[-1]}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--server", required=True)
    parser.add_argument("--postgres", required=True)
    parser.add_argument("--per-server", type=int, default=10)
    parser.add_argument("--rate", type=float, default=30)
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--out")
    args = parser.parse_args()
    database = f"tt_presence_{uuid.uuid4().hex[:12]}"
    subprocess.run(["psql", args.postgres, "-qc", f"CREATE DATABASE {database}"], check=True)
    url = args.postgres.rsplit("/", 1)[0] + "/" + database
    ports = [free_port(), free_port()]
    processes = [
        subprocess.Popen([args.server, "serve", "--port", str(port), "--database", url],
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for port in ports
    ]
    try:
        for port in ports:
            deadline = time.monotonic() + 60
            while True:
                try:
                    urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1).close()
                    break
                except OSError:
                    if time.monotonic() > deadline:
                        raise SystemExit(f"presence.py: the server on port {port} did not start")
                    time.sleep(0.1)
        received, cpu = asyncio.run(load(ports, processes, args.per_server, args.rate, args.seconds))
    finally:
        for process in processes:
            process.terminate()
            process.wait(timeout=30)
        subprocess.run(["psql", args.postgres, "-qc", f"DROP DATABASE IF EXISTS {database} WITH (FORCE)"], check=False)
    result = {
        "clients": 2 * args.per_server, "rate": args.rate, "seconds": args.seconds,
        "remote": percentiles(received["remote"]), "local": percentiles(received["local"]),
        "serverCpuPerSecond": cpu,
    }
    if args.out:
        with open(args.out, "w") as handle:
            json.dump(result, handle)
    print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
