"""Turns one run of Scripts/benchmark.sh (its results folder) into the table of BENCHMARKS.md.

    python3 Benchmarks/report.py Benchmarks/.build-results
"""

import datetime
import glob
import json
import os
import platform
import statistics
import subprocess
import sys

out = sys.argv[1]


def load(name):
    with open(os.path.join(out, name)) as handle:
        return json.load(handle)


def samples(target, benchmark, metric):
    name = f"Current_run.{target}.{benchmark}.{metric}.histogram.samples.tsv".replace(" ", "_")
    paths = glob.glob(os.path.join(out, "samples", name))
    if not paths:
        raise SystemExit(f"report: no samples {name}")
    with open(paths[0]) as handle:
        values = [int(line) for line in handle.read().split("\n")[1:] if line.strip()]
    return values


def median(target, benchmark, metric):
    return statistics.median(samples(target, benchmark, metric))


def version(command):
    try:
        return subprocess.run(command, capture_output=True, text=True, check=True).stdout.strip().split("\n")[0]
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def met(condition, how):
    return ("met" if condition else "**missed**") + (f" ({how})" if how else "")


rows = []
row = rows.append

# Row 1: hit test.
checks = {(c["lines"], c["lengths"]): c for c in load("hit-check.json")["hitTest"]}
for lines, lengths, name in [
    (1_000, "strokes", "lines=1000"),
    (10_000, "strokes", "lines=10000"),
    (100_000, "strokes", "lines=100000"),
    (1_000_000, "strokes", "lines=1000000"),
    (100_000, "anywhere", "long lines=100000"),
]:
    ours = median("HitTest", name, "ours ns per tap")
    classic = median("HitTest", name, "classic ns per tap")
    ratio = median("HitTest", name, "speedup x100") / 100
    check = checks[(lines, lengths)]
    differs = check["classicMissed"] + check["classicExtra"] + check["classicOtherLine"]
    label = f"1. Hit test, {lines:,} lines" + (" (long: ends anywhere)" if lengths == "anywhere" else "")
    target = met(ratio >= 1000, f"{ratio / 1000:.2f}x of the 1,000x") if lines == 100_000 and lengths == "strokes" else "—"
    row((
        label, f"{ours / 1000:.1f} µs/tap", f"classic 21-sample scan {classic / 1e6:.2f} ms/tap", f"{ratio:,.0f}x faster",
        target,
        f"ours = exact scan on {check['taps'] - check['oursWrong']}/{check['taps']} taps; "
        f"classic differs from it on {differs}/{check['classicTaps']}",
    ))

# Row 2: touch throughput.
trace = "fingers=10 updates=20400"
ours = median("TouchThroughput", trace, "ours updates per s")
classic = median("TouchThroughput", trace, "classic updates per s")
cost = median("TouchThroughput", trace, "ours cost vs classic x100") / 100
mallocs = median("TouchThroughput", trace, "mallocCountTotal") / 20400
row((
    "2. Touch updates/s, 10 fingers, native", f"{ours / 1e6:.2f} M/s", f"classic handler (no engine) {classic / 1e6:.1f} M/s",
    f"ours costs {cost:.1f}x the bare handler", met(ours >= 3e6, f"{ours / 3e6:.2f}x of 3 M/s"),
    f"{mallocs:.1f} mallocs per update",
))
steady = "steady moves fingers=10 updates=1000"
steady_ours = median("TouchThroughput", steady, "ours updates per s")
steady_classic = median("TouchThroughput", steady, "classic updates per s")
steady_cost = median("TouchThroughput", steady, "ours cost vs classic x100") / 100
steady_mallocs = median("TouchThroughput", steady, "mallocCountTotal") / 1000
row((
    "2. Touch updates/s, 10 fingers drawing, steady state", f"{steady_ours / 1e6:.2f} M/s, {steady_mallocs:g} mallocs per update",
    f"classic handler (no engine) {steady_classic / 1e6:.1f} M/s", f"ours costs {steady_cost:.1f}x the bare handler",
    met(steady_mallocs == 0 and ours >= 3e6, f"0 mallocs per update and {ours / 3e6:.2f}x of 3 M/s on the whole trace"),
    "100 events of 10 moved touches per iteration on one app; mallocs counted around ours only",
))
natives = [load("trace-native-1.json")["p50UpdatesPerSecond"], load("trace-native-2.json")["p50UpdatesPerSecond"]]
native = statistics.fmean(natives)
wasm = load("trace-wasm.json")["p50UpdatesPerSecond"]
row((
    "2. Touch updates/s, same trace, wasm in node", f"{wasm / 1e6:.2f} M/s", f"native, same trace through TouchTrackerApp.send {native / 1e6:.2f} M/s",
    f"wasm at {native / wasm:.2f}x native's time", met(native / wasm <= 2, "within 2x"),
    f"node {version(['node', '--version'])}; same drawing as native (byte for byte)",
))

# Row 3: frames.
frames = load("frames.json")
cached, classic = frames["cached"], frames["classic"]
ratio = classic["p95ms"] / cached["p95ms"]
row((
    f"3. Frame script time, 1 finger over {frames['lines']:,} lines (p50 / p95)",
    f"{cached['p50ms']:.1f} / {cached['p95ms']:.1f} ms ({cached['framesWhileDrawing']} frames)",
    f"redraw every line each frame {classic['p50ms']:,.0f} / {classic['p95ms']:,.0f} ms ({classic['framesWhileDrawing']} frames)",
    f"{ratio:,.0f}x at p95",
    met(cached["p95ms"] < 4 and ratio >= 20, "p95 < 4 ms, >= 20x"),
    f"Chromium {frames['chromium']} headless; the frame that finishes the line: {cached['lineFinishedFrameMs']:,.0f} ms",
))

# Row 4: storage.
storage = load("storage.json")
row((
    f"4. Save {storage['lines']:,} lines, PUT (p50)", f"{storage['saveP50ms']:.0f} ms",
    f"same bytes to a file + fsync {storage['fileSaveP50ms']:.1f} ms", f"{storage['saveP50ms'] / storage['fileSaveP50ms']:.0f}x",
    "—", f"{storage['documentBytes'] / 1e6:.1f} MB document, {storage['repeats']} repeats",
))
row((
    f"4. Load {storage['lines']:,} lines, GET (p50)", f"{storage['loadP50ms']:.0f} ms",
    f"read the file {storage['fileLoadP50ms']:.1f} ms", f"{storage['loadP50ms'] / storage['fileLoadP50ms']:.0f}x", "—", "",
))
row((
    "4. Bytes per line on disk", f"{storage['diskBytesPerLine']:.0f} B", f"document JSON {storage['documentBytesPerLine']:.0f} B",
    f"{storage['diskBytesPerLine'] / storage['documentBytesPerLine']:.2f}x", "—",
    f"with the WAL before checkpoint {storage['diskBytesPerLineWithWAL']:.0f} B; "
    f"after {storage['repeats'] + 1} saves of it {storage['diskBytesPerLineAfterRepeats']:.0f} B (free pages)",
))

# Row 4: the checksum every read checks over the whole document (package-benchmark's Checksum).
crc_ours = median("Checksum", "CRC-32 of a 10 MB document", "ours us per 10 MB")
crc_classic = median("Checksum", "CRC-32 of a 10 MB document", "byte at a time us per 10 MB")
row((
    "4. CRC-32 of a 10 MB document (every read checks one)", f"{crc_ours / 1000:.1f} ms",
    f"the byte-at-a-time table CRC it replaced {crc_classic / 1000:.1f} ms", f"{crc_classic / crc_ours:.1f}x faster",
    "—", "slicing-by-8 over the document's UTF-8; the same checksum (Tests/TouchTrackerStoreTests/CRC32Tests.swift)",
))

# Row 7: saving a change (after row 4 in the table: it is storage too).
if os.path.exists(os.path.join(out, "append.json")):
    append = load("append.json")
    a, ratios = append["append"], append["ratios"]
    # The target names the server's time: what it says in Server-Timing (append.py); the
    # round trip, this client's time included, is in the notes.
    server = ratios.get("appendServerP50VsFsync")
    row((
        f"7. Save one line into {append['lines']:,}, POST changes (p50)",
        (f"server {a['serverP50ms']:.2f} ms (round trip {a['p50ms']:.2f} ms)" if "serverP50ms" in a
         else f"{a['p50ms']:.1f} ms") + f", {a['wireBytes']:.0f} B on the wire, "
        f"{a['serverCpuMsPerRequest']:.2f} ms server CPU",
        f"{a['bodyBytes']} B to a file + fsync {append['fsyncSameSizeAsAppendP50ms']:.2f} ms; "
        f"whole-document PUT {append['put']['p50ms']:.0f} ms, {append['put']['wireBytes'] / 1e6:.1f} MB",
        (f"{server:.2f}x the fsync" if server is not None else "server time not measured (no Server-Timing)")
        + f"; PUT {ratios['putP50VsAppendP50']:.0f}x ours",
        met(a["wireBytes"] <= 1024 and server is not None and server <= 2, "<= 1 KB, server time <= 2x fsync"),
        f"{a['count']} appends; round trip {ratios['appendP50VsFsync']:.2f}x the fsync"
        + (f" (GET /healthz: server {append['healthz']['serverP50ms']:.2f} ms, round trip "
           f"{append['healthz']['p50ms']:.2f} ms)" if "serverP50ms" in append["healthz"] else "")
        + f"; first GET after them {append['firstGetAfterAppendsMs']:.0f} ms (replays the log), "
        f"then {append['getAfterCompactionMs']:.0f} ms",
    ))
    row((
        "7. GET /api/drawings with a 30 MB drawing stored", f"{append['listPerSecondWith30MB']:,.0f} req/s",
        f"1 KB drawings only {append['listPerSecondSmallOnly']:,.0f} req/s",
        f"{ratios['listSmallVsWith30MB']:.2f}x", met(ratios["listSmallVsWith30MB"] <= 1.2, "within 1.2x"),
        f"small only, again after: {append['listPerSecondSmallOnlyAgain']:,.0f} req/s",
    ))

# Rows 8 and 12: drawing together (live sync under load), on one server with SQLite (8) and on
# two servers sharing one PostgreSQL (12).
def live_rows(live, number, where, kill):
    post = live["baseline"]
    if "a" in live:
        a = live["a"]
        row((
            f"{number}. Live{where}: {live['clients']} clients on one drawing, {live['rate']:g} changes/s each, "
            "send to receipt",
            f"p50 {a['p50ms']:.1f} ms, p99 {a['p99ms']:.1f} ms ({a['deliveries']:,} receipts)",
            f"POST .../changes round trip p50 {post['p50ms']:.2f} ms, p99 {post['p99ms']:.2f} ms",
            f"{a['p50VsPost']:.1f}x / {a['p99VsPost']:.1f}x",
            met(a["p99ms"] <= 50 and not a["problems"], "p99 <= 50 ms, converged"),
            f"{'converged' if not a['problems'] else 'NOT converged'}; server CPU {a['serverCpuPerSecond']:.2f} s/s, "
            f"harness ({live.get('clientsIn', 'Python workers')}) {a['harnessCpuPerSecond']:.2f} s/s",
        ))
    if "b" in live:
        b = live["b"]
        row((
            f"{number}. Live{where}: {live['drawings']:,} drawings x 2 clients, {live['pairRate']:g} change/s each",
            f"p50 {b['p50ms']:.1f} ms, p99 {b['p99ms']:.1f} ms", f"POST round trip p99 {post['p99ms']:.2f} ms",
            f"{b['p99VsPost']:.1f}x", met(b["p99ms"] <= 50 and not b["problems"], "p99 <= 50 ms, converged"),
            f"server CPU {b['serverCpuPerSecond']:.2f} s/s, "
            f"harness ({live.get('clientsIn', 'Python workers')}) {b['harnessCpuPerSecond']:.2f} s/s",
        ))
    if "c" in live:
        c = live["c"]
        row((
            f"{number}. Live{where}: {kill}", f"{c['lost']} acknowledged changes lost",
            f"{c['acked']:,} acknowledged", "—", met(c["lost"] == 0 and not c["problems"], "0 lost, all converge"),
            f"{c['reconnects']} reconnects, {c['resets']} resets; "
            f"{'every client converged' if not c['problems'] else 'NOT converged: ' + c['problems'][0]}",
        ))


if os.path.exists(os.path.join(out, "live.json")):
    live_rows(load("live.json"), 8, "", "kill -9 of the server under load (a), restart")
if os.path.exists(os.path.join(out, "live-postgres.json")):
    live_rows(load("live-postgres.json"), 12, ", two servers on PostgreSQL",
              "kill -9 of one server under load (a), its clients move to the other")

# Row 15: a room of 1,000 on one server and on two on PostgreSQL; 10,000 idle connections.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "server"))
import room  # noqa: E402

for name in ("room.json", "room-postgres.json"):
    if os.path.exists(os.path.join(out, name)):
        for cells in room.rows(load(name)):
            row(cells)

# Row 12: saves per second with 8 concurrent writers, the stores against pgbench's own inserts.
def writer_rows(writers):
    pgbench = writers["pgbenchInsertsPerSecond"]
    if "postgresStore" in writers:  # writers.py --store-writers
        store, sqlite_store = writers["postgresStore"], writers["sqliteStore"]
        row((
            f"12. Saves/s, {writers['writers']} writers through the PostgreSQL store (no HTTP)",
            f"{store['savesPerSecond']:,.0f}/s (p50 {store['p50Ms']:.2f} ms, p99 {store['p99Ms']:.2f} ms)",
            f"pgbench, {writers['writers']} clients, one INSERT a transaction: {pgbench:,.0f} tps",
            f"{store['savesPerSecond'] / pgbench:.2f}x pgbench",
            met(store["savesPerSecond"] >= 0.5 * pgbench, ">= 0.5x"),
            f"SQLite store, same run: {sqlite_store['savesPerSecond']:,.0f}/s; one small keyed change a save",
        ))
    http, sqlite_http, ceiling = writers["postgres"], writers["sqlite"], writers["healthzCeiling"]
    row((
        f"12. Saves/s, {writers['writers']} writers over HTTP (POST .../changes)",
        f"PostgreSQL {http['savesPerSecond']:,.0f}/s, SQLite {sqlite_http['savesPerSecond']:,.0f}/s",
        f"GET /healthz ceiling {ceiling['savesPerSecond']:,.0f} req/s; pgbench {pgbench:,.0f} tps",
        f"PostgreSQL {http['savesPerSecond'] / ceiling['savesPerSecond']:.2f}x the ceiling, "
        f"{http['savesPerSecond'] / pgbench:.2f}x pgbench",
        "—",
        f"server CPU per save {http['serverCpuMsPerSave']:.2f} ms (PostgreSQL), "
        f"{sqlite_http['serverCpuMsPerSave']:.2f} ms (SQLite); clients in {writers['clientsIn']}",
    ))


if os.path.exists(os.path.join(out, "writers.json")):
    writer_rows(load("writers.json"))

# Row 5: memory.
count = 1_000_000
drawn = median("Memory", "drawn lines=1000000", "memoryLeakedBytes") / count
opened = median("Memory", "opened lines=1000000", "memoryLeakedBytes") / count
lines_part = median("Memory", "part-drawing lines=1000000", "memoryLeakedBytes") / count
index_part = median("Memory", "part-index lines=1000000", "memoryLeakedBytes") / count
static_part = median("Memory", "part-staticLayer lines=1000000", "memoryLeakedBytes") / count
row((
    "5. Bytes held per finished line at 1M lines", f"{drawn:.1f} B drawn by hand, {opened:.1f} B opened",
    f"the lines alone ([Line], 56 B each) {lines_part:.1f} B", f"{drawn / lines_part:.2f}x", met(drawn <= 64, "<= 64"),
    f"index {index_part:.1f} B; a static layer, built per call, not kept: {static_part:.1f} B",
))

# Row 10: a million lines through the CLI and the API.
render = load("render-memory.json")
api = render["api"]
row((
    f"10. `touchtracker render` of {render['lines']:,} lines, peak RSS", f"{render['renderPeakRSSBytes'] / 2**20:.0f} MiB ({render['renderSeconds']:.1f} s)",
    f"the document file {render['documentBytes'] / 2**20:.0f} MiB; Python `json.load` of it {render['pythonJSONLoadPeakRSSBytes'] / 2**20:.0f} MiB ({render['pythonJSONLoadSeconds']:.1f} s)",
    f"{render['renderPeakRSSBytes'] / render['documentBytes']:.2f}x the file, {render['renderPeakRSSBytes'] / render['pythonJSONLoadPeakRSSBytes']:.2f}x json.load",
    met(render["renderPeakRSSBytes"] <= 150 * 2**20, "<= 150 MB"),
    f"API: PUT {api['putStatus']} in {api['putSeconds']:.1f} s, GET {api['getStatus']} in {api['getSeconds']:.1f} s "
    f"({api['getLines']:,} lines, {api['getIDs']:,} ids), server peak RSS {api['serverPeakRSSBytes'] / 2**20:.0f} MiB",
))

# Row 9: opening a document in the wasm.
decode = load("wasm-decode.json")
row((
    f"9. Open {decode['lines']:,} lines in the wasm (`tt_load_document_streamed`, as the page does, node)", f"{decode['loadDocumentMs']:.0f} ms",
    f"`JSON.parse` of the same {decode['bytes'] / 1e6:.1f} MB text {decode['jsonParseMs']:.0f} ms", f"{decode['ratio']:.2f}x JSON.parse's time",
    met(decode["ratio"] <= 1.0, "<= 1.0x"), f"median of {decode['repeats']}; ours also checks every number, assigns ids and loads the DrawView",
))

# Row 14: changes at 100k lines in the page (issue 15: frame p95 <= 16 ms), against the same change
# followed by a whole repaint (what every change cost before).
if os.path.exists(os.path.join(out, "changes.json")):
    changes = load("changes.json")
    whole = changes["whole"]
    for name, title in (("undo", "Undo of the last line"), ("delete", "Delete of a selected line"),
                        ("redo", "Redo (an add again)"), ("take", "Long press taking a line"),
                        ("release", "Letting go of a line moved by a long press")):
        if name not in changes["changes"]:
            continue
        change = changes["changes"][name]
        frame, visible = change["frameMs"], change["visibleMs"]
        row((
            f"14. {title} at {changes['lines']:,} lines (Chromium): its frames, p50 / p95",
            f"{frame['p50']:.1f} / {frame['p95']:.1f} ms ({change['n']} changes)",
            f"the same change with the whole layer repainted (by the tile painters, over frames): frames "
            f"{whole['frameMs']['p50']:,.0f} / {whole['frameMs']['p95']:,.0f} ms, on screen after "
            f"{whole['visibleMs']['p50']:,.0f} ms" if whole else "no whole repaints in this run",
            f"on screen {whole['visibleMs']['p50'] / max(visible['p50'], 1):,.0f}x sooner (p50)" if whole else "—",
            met(frame["p95"] <= 16, "p95 <= 16 ms"),
            f"on screen after {visible['p50']:.0f} / {visible['p95']:.0f} ms (p50 / p95); "
            f"{', '.join(change['modes'])} of {change['tiles']['p50']} tiles at p50 (`change_cost.py`)",
        ))

    move = changes.get("moveFrameMs")
    if move and move["n"]:
        row((
            f"14. Moving a line held by a long press at {changes['lines']:,} lines (Chromium): frames, p50 / p95",
            f"{move['p50']:.1f} / {move['p95']:.1f} ms ({move['n']} frames, longest {move['max']:.1f} ms)",
            f"a whole repaint (above): on screen after {whole['visibleMs']['p50']:,.0f} ms" if whole else "—",
            "—",
            met(move["p95"] <= 16, "p95 <= 16 ms"),
            "the held line is painted in the live layer each frame; the static layer is untouched (`change_cost.py`)",
        ))

# Row 14: the next line's input latency (issue 15: within 1.2x of a bare canvas page) and the frame
# that finishes a line (<= 8 ms).
if os.path.exists(os.path.join(out, "latency.json")):
    latency = load("latency.json")
    ours, bare = latency["ours"], latency["bare"]
    row((
        f"14. The next line's input latency at {latency['lines']:,} lines (Chromium): p50 / p95",
        f"{ours['latencyMs']['p50']:.1f} / {ours['latencyMs']['p95']:.1f} ms ({ours['latencyMs']['n']} positions)",
        f"a bare canvas page, same strokes: {bare['latencyMs']['p50']:.1f} / {bare['latencyMs']['p95']:.1f} ms",
        f"{latency['ratioP95']:.2f}x at p95",
        met(latency["ratioP95"] <= 1.2, "within 1.2x at p95"),
        f"pointer event to the end of the frame that handled it; strokes 150 ms after the last; "
        f"tasks over 50 ms: {ours['longTasks']} (ours), {bare['longTasks']} (bare) (`input_latency.py`)",
    ))
    finish = ours["finishFrameMs"]
    row((
        f"14. The frame that finishes a line at {latency['lines']:,} lines (Chromium): p50 / p95",
        f"{finish['p50']:.1f} / {finish['p95']:.1f} ms ({finish['n']} lines)",
        f"the bare page's frame that takes the finger's lift: {bare['finishFrameMs']['p50']:.1f} / "
        f"{bare['finishFrameMs']['p95']:.1f} ms",
        "—",
        met(finish["p95"] <= 8, "<= 8 ms"),
        "the whole requestAnimationFrame callback (commit, tick, paint) (`input_latency.py`)",
    ))

# Row 11: opening in the page against a plain page that strokes each segment once.
opening = load("open.json")
ours, plain = opening["ours"], opening["baseline"]
# The longest task from navigation on (runs before 2026-11-27 21:00 measured frames after `ready` only).
ours_task = ours.get("longestTaskMs")
row((
    f"11. Open {opening['lines']:,} lines in the page (Chromium): every line painted / ready / longest frame"
    + ("" if ours_task is None else " / longest task from navigation (0: none over 50 ms)"),
    f"{ours['paintedMs']:.0f} / {ours['readyMs']:.0f} / {ours['longestFrameMs']:.0f}"
    + ("" if ours_task is None else f" / {ours_task:.0f}") + " ms",
    f"a plain page (`JSON.parse`, each segment stroked once, in one task): {plain['paintedMs']:.0f} / {plain['readyMs']:.0f} / "
    f"{plain['longestFrameMs']:.0f} ms",
    f"painted at {ours['paintedMs'] / plain['paintedMs']:.2f}x the plain page's time; longest frame "
    f"{plain['longestFrameMs'] / max(ours['longestFrameMs'], 0.1):.0f}x shorter",
    met(ours["paintedMs"] <= plain["paintedMs"] and max(ours["longestFrameMs"], ours_task or 0) <= 50,
        "no later than the plain page, no input blocked > 50 ms"),
    f"medians of {len(opening['runs']['ours'])} interleaved runs; ours paints tile by tile over frames (`open_cost.py --plain`)",
))

# Row 11: page memory after opening a million lines.
if os.path.exists(os.path.join(out, "open-memory.json")):
    memory = load("open-memory.json")
    row((
        f"11. Page memory after opening {memory['lines']:,} lines (wasm memory + JS heap)",
        f"{memory['pageBytes'] / 1e6:.1f} MB ({memory['wasmBytes'] / 1e6:.1f} + {memory['jsHeapBytes'] / 1e6:.1f}); "
        f"opened in {memory['openSeconds']:.2f} s",
        f"the lines' own bytes ({memory['lines']:,} x 56 B) {memory['linesOwnBytes'] / 1e6:.1f} MB; "
        f"the document {memory['documentBytes'] / 1e6:.1f} MB",
        f"{memory['pageVsLines']:.2f}x the lines; {memory['pageVsDocument']:.2f}x the document",
        met(memory["pageVsLines"] <= 3, "<= 3x the lines' own bytes"),
        "after every line is painted and two GCs; wasm memory never shrinks, so it is the high-water mark "
        "(`open_memory.py`)",
    ))

# Row 16: the first stroke on a phone, beside tldraw (Benchmarks/browser/first_stroke.py).
if os.path.exists(os.path.join(out, "first-stroke.json")):
    stroke = load("first-stroke.json")
    peer_name = next(name for name in stroke["summary"] if name.startswith("tldraw"))
    peer = stroke["summary"][peer_name]
    for name, figures in stroke["summary"].items():
        if name == peer_name:
            continue
        row((
            f"16. The first stroke on a phone ({name.removeprefix('ours, ')} drawing): navigation to the line on screen",
            f"{figures['paintedMs']:,.0f} ms (ready {figures['readyMs']:,.0f} ms; {figures['requests']:.0f} requests, "
            f"{figures['bytes'] / 1e3:,.0f} KB)",
            f"{peer_name}: {peer['paintedMs']:,.0f} ms ({peer['requests']:.0f} requests, {peer['bytes'] / 1e3:,.0f} KB)",
            f"{stroke['ratio'][name]:.2f}x tldraw's time",
            met(stroke["ratio"][name] <= 1 / 3, "<= 1/3 of the peer's time"),
            f"390x844 at 3x, CPU 4x, 40 ms / 9 Mbps; medians of {len(stroke['runs'][name])} interleaved runs; "
            f"wasm compile {figures['compileMs']:.1f} ms (`first_stroke.py`)",
        ))

# Row 6: size.
size = load("size.json")
row((
    "6. touchtracker.wasm", f"{size['rawBytes'] / 1024:.1f} KB raw", f"gzipped {size['gzippedBytes'] / 1024:.1f} KB",
    f"{size['rawBytes'] / size['budgetBytes']:.3f} of the budget", met(size["rawBytes"] <= size["budgetBytes"], f"<= {size['budgetBytes'] // 1024} KB"),
    "",
))

cpu = "unknown"
try:
    with open("/proc/cpuinfo") as handle:
        cpu = next(line.split(":", 1)[1].strip() for line in handle if line.startswith("model name"))
except (OSError, StopIteration):
    pass
memory = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30
print(f"Run {datetime.datetime.now().strftime('%Y-%m-%d %H:%M')} on {platform.node()}: {cpu}, {os.cpu_count()} cores, "
      f"{memory:.0f} GiB, {platform.system()} {platform.release()}; {version(['swift', '--version'])}; "
      f"load average {os.getloadavg()[0]:.1f} at the end")
print()
print("| Row | Ours | Baseline (same run) | Ratio | Target | Notes |")
print("|---|---|---|---|---|---|")
for cells in rows:
    print("| " + " | ".join(cells) + " |")
