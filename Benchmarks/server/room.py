"""A room of 1,000 (issue 39): many WebSocket clients on one drawing, and many idle ones, on one server.

    python3 Benchmarks/server/room.py --server BIN --swarm LIVE_SWARM [--out RESULT.json]
        [--clients 1000] [--drawers 50] [--rate 10] [--presence-rate 10] [--seconds 20]
        [--baseline-clients 100] [--idle 10000] [--idle-baseline 1000] [--idle-per-drawing 100]
        [--skip room,idle] [--postgres URL [--servers 2]]
    python3 Benchmarks/server/room.py --report RESULT.json ...   (the rows of BENCHMARKS.md, alone)

Clients are `live-swarm`'s (Swift, SwiftNIO; see its header), all in one process.

room: CLIENTS clients on one drawing, of which DRAWERS send RATE one-line batches a second
    (as live.py's loads) and PRESENCE-RATE presence messages a second (a line in progress
    carrying its send time), for SECONDS; the others only watch. Send-to-receipt for changes
    and for presence, each over every receipt at every other client (p50, p99); convergence:
    every client saw every revision once and in order (its own as acks), up to the drawing's
    revision, with no error and every batch acknowledged; the server's CPU over the sending
    window and its RSS (peak sampled every 0.25 s, and VmHWM). Baseline, same run, same
    harness and server: BASELINE-CLIENTS clients with the same DRAWERS at the same rates, so
    that the only difference is the fan-out (ratio: 1,000's p99 over 100's).

idle: IDLE clients, IDLE-PER-DRAWING to a drawing, each saying hello and holding its socket,
    connected over IDLE / 2,000 s on a fresh server: its RSS once every one is welcomed, less its
    RSS before, per connection. Baseline, same run: IDLE-BASELINE clients the same way on a
    fresh server (ratio: per-connection cost at 10,000 over at 1,000). The budget is stated
    (`IDLE_BUDGET_BYTES`): 10,000 idle connections in 1 GiB of server RSS.

With --postgres URL the room load runs on SERVERS servers sharing a fresh database there
(client i on server i mod SERVERS; the idle load stays on one SQLite server).

The file-descriptor limit is raised to its hard limit for this process and its children (the
server takes a connection per descriptor, less a reserve: `ConnectionLimit`).
"""

import argparse
import json
import os
import pathlib
import resource
import sys
import tempfile
import threading
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))
import live  # noqa: E402  (the server's start, CPU, documents, PostgreSQL and live-swarm helpers)
from procfs import memory_bytes as rss_bytes  # noqa: E402

IDLE_BUDGET_BYTES = 1 << 30  # for 10,000 idle connections
P99_TARGET_MS = 100


def scheduled(pid):
    """(seconds on a CPU, seconds runnable but waiting for one) over every thread of `pid`
    (/proc/PID/task/TID/schedstat): how much of its time a process on a busy machine spent in line."""
    on, waiting = 0, 0
    try:
        for task in pathlib.Path(f"/proc/{pid}/task").iterdir():
            try:
                fields = (task / "schedstat").read_text().split()
                on, waiting = on + int(fields[0]), waiting + int(fields[1])
            except (OSError, IndexError, ValueError):
                pass
    except OSError:
        pass
    return on / 1e9, waiting / 1e9


class Sampler:
    """The servers' summed RSS every 0.25 s, in a thread, until stopped."""

    def __init__(self, pids):
        self.pids = pids
        self.peak = 0
        self.running = True
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def now(self):
        return sum(rss_bytes(pid) for pid in self.pids)

    def run(self):
        while self.running:
            self.peak = max(self.peak, self.now())
            time.sleep(0.25)

    def stop(self):
        self.running = False
        self.thread.join()
        return self.peak


def room_load(swarm, ports, servers, drawing, clients, drawers, rate, presence_rate, seconds):
    start_at = time.monotonic() + 3 + clients / 300
    plan = {"ports": ports, "rate": rate, "startAt": start_at, "seconds": seconds, "quietFor": 2.0,
            "drawers": drawers, "presenceRate": presence_rate, "compact": True,
            "connectOver": clients / 500,
            "assignments": [{"drawing": drawing, "index": index, "keep": False} for index in range(clients)]}
    pids = [server.pid for server in servers]

    def server_cpu():
        return sum(live.cpu_seconds(pid) for pid in pids)

    measured = {}

    def window():
        # The server's CPU from the first batch to the last, and how long the server's and the
        # swarm's threads waited for a CPU meanwhile (runnable, not running: the machine's load).
        time.sleep(max(0.0, start_at - time.monotonic()))
        before = server_cpu()
        queued = [scheduled(pid) for pid in pids + [measured.get("swarm", 0)]]
        time.sleep(seconds)
        measured["serverCpuPerSecond"] = (server_cpu() - before) / seconds
        after = [scheduled(pid) for pid in pids + [measured.get("swarm", 0)]]
        measured["serverWaitingForCpuPerSecond"] = sum(a[1] - b[1] for a, b in zip(after[:-1], queued[:-1])) / seconds
        measured["harnessWaitingForCpuPerSecond"] = (after[-1][1] - queued[-1][1]) / seconds

    timer = threading.Thread(target=window, daemon=True)
    sampler = Sampler(pids)
    timer.start()
    output = live.run_swarm(swarm, plan, timeout=seconds + 300, started=lambda pid: measured.update(swarm=pid))
    peak = sampler.stop()
    timer.join()
    revision = live.get_revision(ports[0], drawing)
    problems = []
    for report in output["reports"]:
        where = f"client {report['index']}"
        if not report["welcomed"]:
            problems.append(f"{where}: never welcomed")
        elif not report["inOrder"] or report["seenLast"] != revision or report["seenFirst"] != 1 \
                or report["seenCount"] != revision:
            problems.append(f"{where}: saw {report['seenCount']} revisions {report['seenFirst']}..{report['seenLast']}"
                            f" (in order: {report['inOrder']}), the drawing is at {revision}")
        if report["unacked"]:
            problems.append(f"{where}: {report['unacked']} batches never acknowledged")
        if report["errors"]:
            problems.append(f"{where}: {report['errors'][:2]}")
    acked = sum(report["acked"] for report in output["reports"])
    if acked != revision:
        problems.append(f"{acked} batches acknowledged, the drawing is at revision {revision}")
    changes, presence = output["changes"], output["presence"]
    ms = lambda summary, key: summary[key] / 1000 if summary.get("count") else None  # noqa: E731
    return {
        "clients": clients, "drawers": drawers, "rate": rate, "presenceRate": presence_rate, "seconds": seconds,
        "revision": revision,
        "changes": {"receipts": changes["count"], "p50ms": ms(changes, "p50"), "p99ms": ms(changes, "p99"),
                    "maxms": ms(changes, "max")},
        "presence": {"receipts": presence["count"], "p50ms": ms(presence, "p50"), "p99ms": ms(presence, "p99"),
                     "maxms": ms(presence, "max"),
                     "sent": drawers * presence_rate * seconds},
        "reconnects": sum(report["reconnects"] for report in output["reports"]),
        # A client too slow for its queue is sent reset (it would read the document); live-swarm
        # does not read documents, so such a client stops there and is counted as not converged.
        "resets": sum(report.get("resets", 0) for report in output["reports"]),
        "serverCpuPerSecond": measured.get("serverCpuPerSecond"),
        "serverWaitingForCpuPerSecond": measured.get("serverWaitingForCpuPerSecond"),
        "harnessWaitingForCpuPerSecond": measured.get("harnessWaitingForCpuPerSecond"),
        "serverRssPeakBytes": peak,
        "serverRssHighWaterBytes": sum(rss_bytes(pid, "VmHWM") for pid in pids),
        "harnessCpuPerSecond": output["cpu"] / seconds,
        "problems": problems[:20], "problemCount": len(problems),
    }


def idle_load(binary, swarm, work, clients, per_drawing, hold=5.0):
    """A fresh server; CLIENTS idle sockets: its RSS held per connection."""
    port = live.free_port()
    server = live.start_server(binary, os.path.join(work, f"idle-{clients}.sqlite"), port,
                               os.path.join(work, f"idle-{clients}.log"))
    try:
        time.sleep(1)
        before = rss_bytes(server.pid)
        connect_over = clients / 2000
        start_at = time.monotonic() + connect_over + 10
        held = {}

        def on_welcomed():
            time.sleep(1)
            held["rss"] = rss_bytes(server.pid)
            held["at"] = time.monotonic()
            held["cpu"] = live.cpu_seconds(server.pid)

        plan = {"ports": [port], "rate": 1, "startAt": start_at, "seconds": hold, "quietFor": 1.0, "idle": True,
                "compact": True, "connectOver": connect_over,
                "assignments": [{"drawing": f"idle-{index // per_drawing}", "index": index, "keep": False}
                                for index in range(clients)]}
        cpu_before = live.cpu_seconds(server.pid)
        output = live.run_swarm(swarm, plan, timeout=hold + connect_over + 300, on_welcomed=on_welcomed)
        welcomed = sum(1 for report in output["reports"] if report["welcomed"])
        problems = [f"client {r['index']}: {r['errors'][:2]}" for r in output["reports"] if r["errors"]]
        if "rss" not in held:
            problems.insert(0, f"only {welcomed} of {clients} clients were welcomed")
        rss = held.get("rss", 0)
        return {
            "clients": clients, "perDrawing": per_drawing, "welcomed": welcomed,
            "serverRssBeforeBytes": before, "serverRssHeldBytes": rss,
            "bytesPerConnection": (rss - before) / clients if rss else None,
            "serverRssHighWaterBytes": rss_bytes(server.pid, "VmHWM"),
            "serverCpuSeconds": live.cpu_seconds(server.pid) - cpu_before,
            "reconnects": sum(report["reconnects"] for report in output["reports"]),
            "problems": problems[:20], "problemCount": len(problems),
        }
    finally:
        live.stop(server)


def raise_descriptor_limit():
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or hard > soft:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard if hard != resource.RLIM_INFINITY else 1 << 20, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--server")
    parser.add_argument("--swarm")
    parser.add_argument("--out")
    parser.add_argument("--report", nargs="+", help="print the rows of these results and exit")
    parser.add_argument("--clients", type=int, default=1000)
    parser.add_argument("--drawers", type=int, default=50)
    parser.add_argument("--rate", type=float, default=10)
    parser.add_argument("--presence-rate", type=float, default=10)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--baseline-clients", type=int, default=100)
    parser.add_argument("--idle", type=int, default=10000)
    parser.add_argument("--idle-baseline", type=int, default=1000)
    parser.add_argument("--idle-per-drawing", type=int, default=100)
    parser.add_argument("--skip", default="")
    parser.add_argument("--postgres")
    parser.add_argument("--servers", type=int, default=2)
    args = parser.parse_args()
    if args.report:
        print_rows([json.loads(pathlib.Path(path).read_text()) for path in args.report])
        return
    if not args.server or not args.swarm:
        parser.error("--server and --swarm are needed (or --report)")
    skip = set(filter(None, args.skip.split(",")))
    descriptors = raise_descriptor_limit()
    needed = max(args.clients, args.idle if "idle" not in skip else 0) + 200
    if descriptors < needed:
        raise SystemExit(f"room: the descriptor limit is {descriptors}; the loads need {needed} (ulimit -Hn)")
    result = {"cores": os.cpu_count(), "loadAverageBefore": os.getloadavg()[0], "descriptorLimit": descriptors,
              "postgres": bool(args.postgres), "servers": args.servers if args.postgres else 1,
              "p99TargetMs": P99_TARGET_MS, "idleBudgetBytes": IDLE_BUDGET_BYTES}
    with tempfile.TemporaryDirectory() as work:
        if "room" not in skip:
            drop = None
            if args.postgres:
                database, drop = live.postgres_database(args.postgres)
                count = args.servers
            else:
                database, count = os.path.join(work, "room.sqlite"), 1
            ports = [live.free_port() for _ in range(count)]
            servers = []
            try:
                for index, port in enumerate(ports):
                    servers.append(live.start_server(args.server, database, port, os.path.join(work, f"room-{index}.log")))
                for key, clients in (("baseline", args.baseline_clients), ("room", args.clients)):
                    print(f"room: {clients} clients, {args.drawers} drawing ...", file=sys.stderr)
                    result[key] = room_load(args.swarm, ports, servers, f"room-{clients}", clients, args.drawers,
                                            args.rate, args.presence_rate, args.seconds)
                    result[key]["loadAverageAfter"] = os.getloadavg()[0]
                    print(f"room: {json.dumps(result[key])}", file=sys.stderr)
            finally:
                for server in servers:
                    live.stop(server)
                if drop:
                    drop()
        if "idle" not in skip and not args.postgres:
            for key, clients in (("idleBaseline", args.idle_baseline), ("idle", args.idle)):
                print(f"room: {clients} idle connections ...", file=sys.stderr)
                result[key] = idle_load(args.server, args.swarm, work, clients, args.idle_per_drawing)
                print(f"room: {json.dumps(result[key])}", file=sys.stderr)
    result["loadAverageAfter"] = os.getloadavg()[0]
    text = json.dumps(result, indent=1)
    if args.out:
        pathlib.Path(args.out).write_text(text)
    print_rows([result])
    problems = sum(result.get(key, {}).get("problemCount", 0) for key in ("room", "baseline", "idle", "idleBaseline"))
    sys.exit(1 if problems else 0)


def met(condition, how):
    return ("met" if condition else "**missed**") + (f" ({how})" if how else "")


def rows(result):
    """The rows of BENCHMARKS.md (row 15) for one result of this script."""
    out = []
    where = f", {result['servers']} servers on PostgreSQL" if result.get("postgres") else ", one server"
    if "room" in result and "baseline" in result:
        room, base = result["room"], result["baseline"]
        state = "converged" if not room["problemCount"] else \
            f"NOT converged ({room['problemCount']} problems): {room['problems'][0][:160]}"
        for kind in ("changes", "presence"):
            ours, theirs = room[kind], base[kind]
            if ours["p99ms"] is None or theirs["p99ms"] is None:
                continue
            out.append((
                f"15. A room of {room['clients']:,}{where}: {room['drawers']} drawing at {room['rate']:g} changes/s "
                f"and {room['presenceRate']:g} presence/s, the rest watching; send to receipt of {kind}",
                f"p50 {ours['p50ms']:.1f} ms, p99 {ours['p99ms']:.1f} ms ({ours['receipts']:,} receipts)",
                f"the same at {base['clients']} clients: p50 {theirs['p50ms']:.1f} ms, p99 {theirs['p99ms']:.1f} ms",
                f"{ours['p99ms'] / max(theirs['p99ms'], 0.001):.1f}x (p99)",
                met(ours["p99ms"] <= result["p99TargetMs"] and not room["problemCount"],
                    f"p99 <= {result['p99TargetMs']} ms, converged"),
                (f"{state}; "
                 + (f"{room['resets']} resets, " if "resets" in room else "")
                 + f"{room['reconnects']} reconnects; "
                 f"server CPU {room['serverCpuPerSecond']:.2f} s/s, RSS peak {room['serverRssPeakBytes'] / 2**20:.0f} MiB "
                 f"({base['serverRssPeakBytes'] / 2**20:.0f} at {base['clients']}); "
                 f"harness {room['harnessCpuPerSecond']:.2f} s/s; load {room['loadAverageAfter']:.1f}"
                 + (f"; threads waiting for a CPU: server {room['serverWaitingForCpuPerSecond']:.2f} s/s, "
                    f"harness {room['harnessWaitingForCpuPerSecond']:.2f} s/s"
                    if room.get("serverWaitingForCpuPerSecond") is not None else ""))
                if kind == "changes" else
                f"{ours['receipts']:,} of {ours['sent'] * (room['clients'] - 1):,.0f} sent x receivers arrive "
                "(a slow reader's are coalesced: only a peer's newest waits)",
            ))
    if "idle" in result and "idleBaseline" in result:
        idle, base = result["idle"], result["idleBaseline"]
        if idle["bytesPerConnection"] and base["bytesPerConnection"]:
            held = idle["serverRssHeldBytes"]
            out.append((
                f"15. {idle['clients']:,} idle live connections on one server ({idle['perDrawing']} a drawing)",
                f"RSS {held / 2**20:.0f} MiB held ({idle['bytesPerConnection'] / 1024:.1f} KiB a connection)",
                f"{base['clients']:,} the same way: {base['bytesPerConnection'] / 1024:.1f} KiB a connection",
                f"{idle['bytesPerConnection'] / base['bytesPerConnection']:.2f}x a connection",
                met(held <= result["idleBudgetBytes"] and not idle["problemCount"],
                    f"<= {result['idleBudgetBytes'] / 2**30:.0f} GiB RSS"),
                f"{idle['welcomed']:,} welcomed; RSS before {idle['serverRssBeforeBytes'] / 2**20:.0f} MiB; "
                f"server CPU {idle['serverCpuSeconds']:.1f} s for the connects, the hold and the closes",
            ))
        else:
            out.append((f"15. {idle['clients']:,} idle live connections", "—", "—", "—", met(False, ""),
                        "; ".join(idle["problems"][:2] or base["problems"][:2])))
    return out


def print_rows(results):
    print("| Row | Ours | Baseline (same run) | Ratio | Target | Notes |")
    print("|---|---|---|---|---|---|")
    for result in results:
        for cells in rows(result):
            print("| " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
