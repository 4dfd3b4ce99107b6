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
import pathlib
import sys
import tempfile
import time

import websockets

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from live import cpu_seconds, free_port, percentile, postgres_database, start_server, stop  # noqa: E402


async def client(index, port, started, ending, rate, received):
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
        while not ending.is_set():
            now = round((time.monotonic() - started) * 1000, 3)
            line = {"begin": {"x": now, "y": port}, "end": {"x": 100, "y": 100}, "color": "#336699", "width": 3}
            await socket_.send(json.dumps({"type": "presence", "lines": [line]}))
            await asyncio.sleep(1 / rate)
        await asyncio.sleep(0.5)  # what is on its way arrives
        reader.cancel()


async def load(ports, processes, per_server, rate, seconds):
    started = time.monotonic()
    ending = asyncio.Event()
    received = {"remote": [], "local": []}
    clients = [
        asyncio.create_task(client(index, ports[index % 2], started, ending, rate, received))
        for index in range(2 * per_server)
    ]
    before = [cpu_seconds(process.pid) for process in processes]
    await asyncio.sleep(seconds)
    ending.set()
    after = [cpu_seconds(process.pid) for process in processes]
    await asyncio.gather(*clients)
    return received, [(b - a) / seconds for a, b in zip(before, after)]


def percentiles(values):
    if not values:
        return None
    return {"n": len(values), "p50Ms": percentile(values, 0.5), "p99Ms": percentile(values, 0.99), "maxMs": max(values)}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--server", required=True)
    parser.add_argument("--postgres", required=True)
    parser.add_argument("--per-server", type=int, default=10)
    parser.add_argument("--rate", type=float, default=30)
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--out")
    args = parser.parse_args()
    url, drop = postgres_database(args.postgres)
    ports = [free_port(), free_port()]
    processes = []
    try:
        with tempfile.TemporaryDirectory() as logs:
            try:
                for index, port in enumerate(ports):
                    processes.append(start_server(args.server, url, port, pathlib.Path(logs) / f"server{index}.log"))
                received, cpu = asyncio.run(load(ports, processes, args.per_server, args.rate, args.seconds))
            finally:
                for process in processes:
                    stop(process)
    finally:
        drop()
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
