"""Changes at 100,000 lines: the animation frame that paints an undo, a redo or
a delete, in headless Chromium, against a whole repaint in the same run.

    python3 Benchmarks/browser/change_cost.py [--lines 100000] [--document DOC.json] [--repeats 20]
        [--baselines 3] [--budget 250] [--scale 1] [--out RESULT.json]

The drawing is the one frame_cost.py uses (`RandomDrawing.lines`, seed 1:
black 10 pt strokes 10-200 pt long over 1280x720); without --document it is
generated here with the same SplitMix64 draws (numbers written with 4
decimals, as DocumentCoder writes them), so no Swift build is needed.
`bench-tool document N PATH` writes the same document.

The page (Web/) is used as it is, opened as /?drawing=bench from a small
static server that answers GET /api/drawings/bench with the document (ETag
"1") and accepts PUTs and POSTs of changes (discarded), so the page's saving runs as it would
against the real server instead of going offline and retrying. An init
script, not a change to the page, wraps requestAnimationFrame and the wasm
exports to time, in every frame of the page's loop:

  frame   the whole rAF callback (commit, tick, draw, afterFrame)
  paint   draw(): from tt_static_version to the next tt_change_count
          (render the static list, paint it into the cached layer, copy the
          layer to the screen, paint the live layer)
  core    tt_render_static alone (finding what meets the damaged tiles)
  keep    afterFrame: for a change, exporting the whole document for this
          browser's copy (saver.keepChange)

and which static mode the frame painted (whole / append / repaint) and how
many tiles (clip commands) and segments its list had. A repaint is painted
over as many frames as it takes (a few ms of each, repaint.js): a change's
"frame" is the worst of the frames from the one that took its list to the
one that copied its last section into the cache, and the JSON also has the
first of them (firstFrameMs), how many there were (frameCount) and how long
from the start of the first to the end of the last (visibleMs: when the
change is on screen).

It draws 23 lines (CDP touch, in seeded places), then undoes them one by
one (`touchtracker.core().tt_undo()`), redoes them (`tt_redo()`), and 23
times taps somewhere (at this density a line is always within reach), waits
for the selection and deletes it (`tt_delete_selected()`, what the Delete key
calls). Of each 23, 20 are ours and 3, spread among them, are the baseline:
the same change followed by `touchtracker.repaintAll()` in the same task, so
its frame repaints the whole layer (what every change cost before). Since a
big drawing's whole layer is painted in parts by the tile painters
(STATIC.wholeInParts), the baseline's frames are short and what to compare
is when it is on screen (its visibleMs: ~1.4 s at 100k lines). A whole
repaint takes ~5 s at 100k lines, hence only 3 of each kind; all 9 paint the
same 15 tiles and are also reported together ("whole"). Before each measured
change the page's saving is idle (saved at once with `touchtracker.save()`
rather than after the page's 250 ms delay; the server and this browser have
the last change), so no save runs between the change and its frame. Also
reported: the slowest frame of each tap before a delete (the first tap after
a change rebuilds LineIndex).

Then 20 long presses in seeded places (`touchStart`, the core's clock moved
0.5 s on with `touchtracker.skipTime`): each takes the nearest line out of
the static layer ("take": a repaint of its tiles without it; the line
follows the finger in the live layer), moves it 8 frames by (6, 4) pt each
("move": every frame while it moves), and lets it go ("release": a repaint
of the tiles where it now is; the move is one change). Their baseline is the
whole repaint above: it costs the same whatever the change.

About 1 minute on a 2-core VM (4.5 minutes when a whole repaint was one
5 s frame); on a loaded machine --budget (250 s) trims the changes of ours,
and "counts" says how many ran.
"""

import argparse
import contextlib
import http.server
import json
import math
import os
import pathlib
import random
import statistics
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request

from playwright.sync_api import sync_playwright

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
VIEWPORT = {"width": 1280, "height": 720}

INIT_SCRIPT = """
(() => {
  const raf = window.requestAnimationFrame.bind(window);
  const frames = [];
  let current = null;
  let real = null;
  window.__bench = {
    frames,
    appFrames: () => frames.length,
    // The frames that painted the first change at or after frame n: the first that painted the static
    // layer and the next ones while its repaint was still under way (pendingSections, repaint.js), as
    // one record: the worst of their frames (`ms`, `paintMs`), the first one's own (`firstMs`), how many
    // there were, and how long until the last had copied the change into the cache (`visibleMs`).
    painted: (n) => {
      for (let i = n; i < frames.length; i++) {
        if (frames[i].mode === null) continue;
        let j = i;
        while (j < frames.length && frames[j].pending > 0) j++;
        const next = frames[j + 1];
        if (!next) return null;
        const span = frames.slice(i, j + 1);
        return {
          ...frames[i],
          index: i,
          ms: Math.max(...span.map((f) => f.ms)),
          paintMs: Math.max(...span.map((f) => f.paintMs)),
          firstMs: frames[i].ms,
          frameCount: span.length,
          visibleMs: frames[j].at + frames[j].ms - frames[i].at,
          intervalMs: next.at - frames[j].at,
        };
      }
      return null;
    },
  };
  window.requestAnimationFrame = (callback) => raf((ms) => {
    const frame = { at: performance.now(), drawAt: null, afterAt: null, coreMs: 0, mode: null, count: 0 };
    current = frame;
    try {
      callback(ms);
    } finally {
      const end = performance.now();
      current = null;
      if (frame.drawAt !== null) {  // a frame of the page's loop (app.js), not another rAF user
        frame.ms = end - frame.at;
        frame.paintMs = (frame.afterAt ?? end) - frame.drawAt;
        frame.keepMs = frame.afterAt === null ? 0 : end - frame.afterAt;
        frame.pending = window.touchtracker?.paintStats?.().pendingSections ?? 0;
        if (frame.mode !== null) {
          // Counted after the frame's end time: the list is still in the core's buffer.
          const floats = new Float32Array(real.memory.buffer, real.tt_static_ptr() >>> 0, frame.count * 8);
          let clips = 0;
          let segments = 0;
          for (let i = 0; i < floats.length; i += 8) {
            if (floats[i] === 5) clips++;
            if (floats[i] === 1) segments++;
          }
          frame.tiles = clips;
          frame.segments = segments;
        }
        frames.push(frame);
      }
    }
  });
  const wrap = (result) => {
    real = result.instance.exports;
    const exports = Object.assign(Object.create(null), real);
    exports.tt_static_version = () => {
      if (current && current.drawAt === null) current.drawAt = performance.now();
      return real.tt_static_version();
    };
    exports.tt_change_count = () => {
      if (current && current.drawAt !== null && current.afterAt === null) current.afterAt = performance.now();
      return real.tt_change_count();
    };
    exports.tt_render_static = (whole) => {
      const start = performance.now();
      const count = real.tt_render_static(whole);
      if (current) {
        current.coreMs += performance.now() - start;
        current.count = count;
      }
      return count;
    };
    exports.tt_static_mode = () => {
      const mode = real.tt_static_mode();
      if (current) current.mode = mode;
      return mode;
    };
    return { module: result.module, instance: { exports } };
  };
  const instantiateStreaming = WebAssembly.instantiateStreaming;
  WebAssembly.instantiateStreaming = async (...args) => wrap(await instantiateStreaming.apply(WebAssembly, args));
  const instantiate = WebAssembly.instantiate;
  WebAssembly.instantiate = async (...args) => wrap(await instantiate.apply(WebAssembly, args));
})();
"""

# STATIC in Web/core/bridge.js; a whole layer of a big drawing comes in parts (the tile painters paint it).
MODES = {0: "whole", 1: "append", 2: "repaint", 3: "whole in parts"}


# MARK: The drawing (RandomDrawing.lines, SeededGenerator, DocumentCoder)

MASK = (1 << 64) - 1


class SplitMix64:
    def __init__(self, seed):
        self.state = seed

    def next(self):
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        return z ^ (z >> 31)

    def uniform(self, low, high):
        return low + (self.next() >> 11) * 2.0**-53 * (high - low)


def wait_until_serving(process, url, log, who):
    """Waits (60 s at most) for `touchtracker serve` at `url` to answer /healthz; exits naming `who` and the log if it does not."""
    deadline = time.monotonic() + 60
    while True:
        if process.poll() is not None or time.monotonic() > deadline:
            raise SystemExit(f"{who}: the server did not start:\n{pathlib.Path(log).read_text()}")
        try:
            urllib.request.urlopen(url + "/healthz", timeout=1).close()
            return
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            time.sleep(0.1)


def number(value):
    """NumberText.format for the values here (0 <= value < 1e6): at most 4 decimals, rounded half away from 0."""
    scaled = value * 10_000
    whole = math.floor(scaled)
    scaled = whole + (1 if scaled - whole >= 0.5 else 0)
    integer, fraction = divmod(scaled, 10_000)
    return str(integer) if fraction == 0 else f"{integer}.{fraction:04d}".rstrip("0")


def random_document(count, seed=1, width=1280.0, height=720.0):
    random_ = SplitMix64(seed)
    lines = []
    for _ in range(count):
        bx, by = random_.uniform(0, width), random_.uniform(0, height)
        while True:
            dx, dy = random_.uniform(-1, 1), random_.uniform(-1, 1)
            if not (dx * dx + dy * dy > 1 or dx * dx + dy * dy < 1e-6):
                break
        norm = math.sqrt(dx * dx + dy * dy)
        length = random_.uniform(10, 200)
        ex = min(max(bx + dx / norm * length, 0), width)
        ey = min(max(by + dy / norm * length, 0), height)
        lines.append(
            '{"begin":{"x":%s,"y":%s},"end":{"x":%s,"y":%s},"color":"#000000","width":10}'
            % (number(bx), number(by), number(ex), number(ey))
        )
    return '{"format":"touchtracker","version":1,"lines":[' + ",".join(lines) + '],"circles":[]}'


# MARK: The server


def make_handler(directory, document):
    class Handler(http.server.SimpleHTTPRequestHandler):
        extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, ".wasm": "application/wasm"}
        revision = 1

        def __init__(self, *args, **kwargs):
            super().__init__(*args, directory=directory, **kwargs)

        def log_message(self, *args):
            pass

        def do_GET(self):
            if self.path.split("?")[0] != "/api/drawings/bench":
                return super().do_GET()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("ETag", f'"{Handler.revision}"')
            self.send_header("Content-Length", str(len(document)))
            self.end_headers()
            self.wfile.write(document)

        def do_PUT(self):
            self.rfile.read(int(self.headers.get("Content-Length", 0)))  # kept nowhere: only the page's cost counts
            Handler.revision += 1
            body = json.dumps({"revision": Handler.revision}).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("ETag", f'"{Handler.revision}"')
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        # The page sends change records (POST .../changes); acknowledged the same way.
        do_POST = do_PUT

    return Handler


@contextlib.contextmanager
def page_server(web, document, wasm=None):
    """The page's files (WEB, with the module WASM in place of its own if given) and
    GET /api/drawings/bench answering DOCUMENT, on loopback; yields the page's URL."""
    with tempfile.TemporaryDirectory() as root:
        for item in pathlib.Path(web).iterdir():
            if wasm and item.name == "touchtracker.wasm":
                continue
            os.symlink(item.resolve(), pathlib.Path(root) / item.name)
        if wasm:
            os.symlink(pathlib.Path(wasm).resolve(), pathlib.Path(root) / "touchtracker.wasm")
        server = QuietServer(("127.0.0.1", 0), make_handler(root, document))
        threading.Thread(target=server.serve_forever, daemon=True).start()
        try:
            yield f"http://127.0.0.1:{server.server_address[1]}"
        finally:
            server.shutdown()


class QuietServer(http.server.ThreadingHTTPServer):
    def handle_error(self, request, client_address):
        pass  # the page went away while a response was on its way


# MARK: Measuring


def percentile(values, p):
    ordered = sorted(values)
    if not ordered:
        return None
    rank = max(0, min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1))))
    return ordered[rank]


class Page:
    def __init__(self, context, url, expected_lines):
        self.page = context.new_page()
        self.errors = []
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))
        self.page.goto(url + "/?drawing=bench")
        self.page.evaluate("window.touchtracker.ready")
        lines = self.state()["lines"]
        if lines != expected_lines:
            raise SystemExit(f"change_cost: the page opened {lines} lines, expected {expected_lines}")
        self.cdp = context.new_cdp_session(self.page)

    def state(self):
        return self.page.evaluate("touchtracker.state()")

    def frames(self, count):
        """Waits until the page's loop has run `count` more frames."""
        target = self.page.evaluate("__bench.appFrames()") + count
        self.page.wait_for_function("n => __bench.appFrames() >= n", arg=target, timeout=120_000, polling=10)

    def idle(self):
        """Saves now (what the page does 250 ms after a change) and waits until the server and this
        browser have the latest change."""
        self.page.evaluate("touchtracker.save()")
        self.page.wait_for_function(
            "(() => { const s = touchtracker.saving(); return !s.dirty && s.local === 'saved' && !s.stopped; })()",
            timeout=60_000,
            polling=20,
        )
        self.frames(2)

    def touch(self, kind, point=None):
        points = [] if point is None else [{"id": 1, "x": point[0], "y": point[1]}]
        self.cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})

    def draw_line(self, start, end, steps=4):
        """One finger from `start` to `end`. The touches are sent back to back: a save running between
        them must not hold the finger still for the long press's 0.5 s (it would take a line instead)."""
        self.touch("touchStart", start)
        for step in range(1, steps + 1):
            t = step / steps
            self.touch("touchMove", (start[0] + (end[0] - start[0]) * t, start[1] + (end[1] - start[1]) * t))
        self.touch("touchEnd")
        self.frames(1)

    def select(self, point):
        """Taps near `point` (a line is always within reach at this density) and waits for the selection.
        Returns the slowest frame of the tap: after a change, the first tap rebuilds LineIndex."""
        start = self.page.evaluate("__bench.appFrames()")
        self.touch("touchStart", point)
        self.touch("touchEnd")
        self.frames(2)
        self.page.evaluate("touchtracker.skipTime(0.5)")  # past the double-tap interval: the tap selects
        self.frames(3)
        slowest = self.page.evaluate("n => Math.max(...__bench.frames.slice(n).map(f => f.ms))", start)
        selected = self.state().get("selectedLine")
        if selected is None:
            raise SystemExit(f"change_cost: a tap at {point} selected no line")
        return slowest

    def hold(self, point, moves=8, step=(6.0, 4.0)):
        """A long press near `point` (a line is always within reach) that takes the nearest line, moves it
        `moves` frames by `step` each, and lets it go. Returns the frame that took it (its tiles repainted
        without it), the frames while it moved, and the frame that let it go (its tiles repainted with it)."""
        before = self.state()
        start = self.page.evaluate("__bench.appFrames()")
        self.touch("touchStart", point)
        self.page.evaluate("touchtracker.skipTime(0.5)")  # the long press's 0.5 s, without sleeping
        take = self.painted(start)
        if self.state().get("selectedLine") is None:
            raise SystemExit(f"change_cost: a long press at {point} took no line")
        start = self.page.evaluate("__bench.appFrames()")
        for k in range(1, moves + 1):
            self.touch("touchMove", (point[0] + step[0] * k, point[1] + step[1] * k))
            self.frames(1)
        self.frames(1)
        moving = self.page.evaluate("n => __bench.frames.slice(n).map(f => f.ms)", start)
        start = self.page.evaluate("__bench.appFrames()")
        self.touch("touchEnd")
        release = self.painted(start)
        after = self.state()
        if after["changeCount"] != before["changeCount"] + 1 or after["lines"] != before["lines"]:
            raise SystemExit(f"change_cost: a long press at {point} moved no line (changes {before['changeCount']} "
                             f"-> {after['changeCount']}, lines {before['lines']} -> {after['lines']})")
        return take, moving, release

    def painted(self, start):
        """The frame at or after frame `start` that painted the static layer (and those that finished it)."""
        self.page.wait_for_function("n => __bench.painted(n) !== null", arg=start, timeout=120_000, polling=10)
        frame = self.page.evaluate("n => __bench.painted(n)", start)
        frame["lastRepaint"] = self.page.evaluate("touchtracker.paintStats().lastRepaint")
        return frame

    def change(self, expression):
        """Runs `expression` in one task and returns the frame that painted its static layer."""
        start = self.page.evaluate("__bench.appFrames()")
        self.page.evaluate(expression)
        return self.painted(start)


UNDO = "touchtracker.core().tt_undo()"
REDO = "touchtracker.core().tt_redo()"
DELETE = "touchtracker.core().tt_delete_selected()"
WHOLE = "; touchtracker.repaintAll()"


def summary(frames):
    def stat(key):
        values = [f[key] for f in frames]
        return {"p50": percentile(values, 50), "p95": percentile(values, 95), "mean": statistics.fmean(values)}

    return {
        "n": len(frames),
        "frameMs": stat("ms"),
        "firstFrameMs": stat("firstMs"),
        "visibleMs": stat("visibleMs"),
        "frameCount": stat("frameCount"),
        "paintMs": stat("paintMs"),
        "coreMs": stat("coreMs"),
        "keepMs": stat("keepMs"),
        "intervalMs": stat("intervalMs"),
        "modes": sorted({MODES[f["mode"]] for f in frames}),
        "tiles": {"min": min(f["tiles"] for f in frames), "max": max(f["tiles"] for f in frames),
                  "p50": percentile([f["tiles"] for f in frames], 50)},
        "segments": {"p50": percentile([f["segments"] for f in frames], 50)},
    }


def spread(total, count):
    """`total` changes, `count` of them (spread evenly) the baseline."""
    whole = {int((k + 0.5) * total / count) for k in range(count)} if count else set()
    return [i in whole for i in range(total)]


def run(browser, url, lines, repeats, baselines, budget, scale=1):
    clock = time.monotonic()
    context = browser.new_context(viewport=VIEWPORT, device_scale_factor=scale, has_touch=True, bypass_csp=True)
    context.add_init_script(INIT_SCRIPT)
    page = Page(context, url, lines)
    page.frames(3)
    page.idle()
    print(f"change_cost: opened {lines} lines in {time.monotonic() - clock:.0f} s", file=sys.stderr)
    stats_before = page.page.evaluate("touchtracker.paintStats()")
    places = random.Random(3)
    kinds = spread(repeats + baselines, baselines)
    results = {name: [] for name in ("undo", "redo", "delete", "take", "release", "undo-whole", "redo-whole",
                                     "delete-whole")}
    taps = []
    moves = []  # every frame while a held line moved

    # One line per change to undo, in different places (and so tiles).
    for _ in kinds:
        x, y = places.uniform(60, 1080), places.uniform(60, 600)
        angle, length = places.uniform(0, 2 * math.pi), places.uniform(40, 160)
        page.draw_line((x, y), (x + length * math.cos(angle), y + length * math.sin(angle)))
    page.idle()
    if page.state()["lines"] != lines + len(kinds):
        raise SystemExit("change_cost: the lines drawn did not all count")
    print(f"change_cost: drew {len(kinds)} lines, {time.monotonic() - clock:.0f} s", file=sys.stderr)

    # A loaded machine (a build next to it) can double every frame: past its share of --budget, a phase
    # skips its remaining changes of ours (never the baseline's), and the counts say so.
    counts = {"drawn": len(kinds), "undo": 0, "redo": 0, "delete": 0, "skipped": 0}
    phases = (("undo", UNDO), ("redo", REDO), ("delete", DELETE))
    for number, (name, expression) in enumerate(phases):
        phase_start = time.monotonic()
        share = (budget - (phase_start - clock)) / (len(phases) + 1 - number)  # + 1: the long presses
        for whole in kinds:
            late = not whole and time.monotonic() - phase_start > share
            if late or (name == "redo" and counts["redo"] == counts["undo"]):
                counts["skipped"] += 1
                continue
            if name == "delete":
                taps.append(page.select((places.uniform(40, 1240), places.uniform(40, 680))))
            results[name + ("-whole" if whole else "")].append(page.change(expression + (WHOLE if whole else "")))
            counts[name] += 1
            page.idle()
        print(f"change_cost: {name}, {time.monotonic() - clock:.0f} s", file=sys.stderr)

    # Long presses: take the nearest line, move it, let it go (no baseline of their own: a whole repaint
    # costs the same whatever the change, so "whole" above is theirs too).
    counts["hold"] = 0
    share = max(budget - (time.monotonic() - clock), 0)
    hold_start = time.monotonic()
    for _ in range(repeats):
        if counts["hold"] and time.monotonic() - hold_start > share:
            counts["skipped"] += 1
            continue
        point = (places.uniform(60, 1080), places.uniform(60, 600))
        take, moving, release = page.hold(point)
        take["point"] = release["point"] = point
        results["take"].append(take)
        results["release"].append(release)
        moves.extend(moving)
        counts["hold"] += 1
        page.idle()
    print(f"change_cost: long presses, {time.monotonic() - clock:.0f} s", file=sys.stderr)
    if counts["skipped"]:
        print(f"change_cost: skipped {counts['skipped']} changes of ours to stay within --budget", file=sys.stderr)

    stats_after = page.page.evaluate("touchtracker.paintStats()")
    final_lines = page.state()["lines"]
    errors = page.errors
    context.close()
    if errors:
        raise SystemExit(f"change_cost: page errors: {errors}")
    if final_lines != lines + counts["drawn"] - counts["undo"] + counts["redo"] - counts["delete"]:
        raise SystemExit(f"change_cost: {final_lines} lines at the end, expected otherwise: {counts}")
    for name, frames in results.items():
        # Redoing an add puts the line back on top: painted over the cached layer, like a new line.
        wanted = ("whole", "whole in parts") if name.endswith("-whole") else ("append",) if name == "redo" else ("repaint",)
        wrong = [(i, MODES[f["mode"]], f["tiles"], f["lastRepaint"]) for i, f in enumerate(frames)
                 if MODES[f["mode"]] not in wanted]
        if wrong:
            raise SystemExit(f"change_cost: {name} painted (which, mode, tiles, last repaint) {wrong}, expected {wanted}")
    return {
        "repeats": repeats,
        "counts": counts,
        "baselines": baselines,
        "seconds": round(time.monotonic() - clock),
        "paintStats": {k: stats_after[k] - stats_before[k] for k in ("whole", "append", "repaint")},
        "tapFrameMs": {"p50": percentile(taps, 50), "p95": percentile(taps, 95), "n": len(taps)},
        "moveFrameMs": {"p50": percentile(moves, 50), "p95": percentile(moves, 95),
                        "max": max(moves) if moves else None, "n": len(moves)},
        "changes": {name: summary(frames) for name, frames in results.items() if frames},
        "whole": summary([f for name, frames in results.items() if name.endswith("-whole") for f in frames])
        if baselines else None,
        "samples": {name: [{k: f[k] for k in ("ms", "firstMs", "visibleMs", "frameCount", "paintMs", "coreMs",
                                                "keepMs", "intervalMs", "tiles", "segments", "lastRepaint")} for f in frames]
                    for name, frames in results.items()},
    }


def add_page_arguments(parser):
    """--lines, --document, --web and --wasm: the drawing and the page a harness here opens."""
    parser.add_argument("--lines", type=int, default=100_000)
    parser.add_argument("--document", help="a document with --lines lines (default: generated here, the same drawing)")
    parser.add_argument("--web", default=str(pathlib.Path(__file__).resolve().parents[2] / "Web"))
    parser.add_argument("--wasm", help="the module to serve instead of WEB/touchtracker.wasm")


def main():
    parser = argparse.ArgumentParser()
    add_page_arguments(parser)
    parser.add_argument("--repeats", type=int, default=20, help="changes of each kind measured (ours)")
    parser.add_argument("--baselines", type=int, default=3,
                        help="of each kind followed by a whole repaint (~5 s each at 100k lines)")
    parser.add_argument("--budget", type=float, default=250,
                        help="seconds for the whole run, past which changes of ours are skipped (the run can exceed it "
                        "by the baselines left)")
    parser.add_argument("--scale", type=float, default=1,
                        help="device pixel ratio (a phone's is 3: 9x the pixels; --repeats 23 --baselines 0 keeps "
                        "the same places without the slow whole repaints)")
    parser.add_argument("--out")
    args = parser.parse_args()

    if args.document:
        document = pathlib.Path(args.document).read_bytes()
    else:
        document = random_document(args.lines).encode()

    with page_server(args.web, document, args.wasm) as url, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox"])
        measured = run(browser, url, args.lines, args.repeats, args.baselines, args.budget, args.scale)
        version = browser.version
        browser.close()
    result = {"chromium": version, "scale": args.scale, "lines": args.lines, "documentBytes": len(document), **measured}
    if args.out:
        pathlib.Path(args.out).write_text(json.dumps(result))
    brief = {k: v for k, v in result.items() if k != "samples"}
    print(json.dumps(brief, indent=1))
    table = [("undo", "undo-whole"), ("redo", "redo-whole"), ("delete", "delete-whole"), ("take", None),
             ("release", None)]
    for ours, whole in table:
        b = result["changes"].get(whole) if whole else result["whole"]
        if ours not in result["changes"] or b is None:
            continue
        a = result["changes"][ours]
        print(
            f"{ours:7s} frame p50/p95 {a['frameMs']['p50']:.1f}/{a['frameMs']['p95']:.1f} ms "
            f"(paint {a['paintMs']['p50']:.1f}/{a['paintMs']['p95']:.1f}, core {a['coreMs']['p50']:.1f}, "
            f"keep {a['keepMs']['p50']:.1f}; tiles {a['tiles']['p50']}, segments {a['segments']['p50']}; "
            f"{a['frameCount']['p50']:.0f}/{a['frameCount']['p95']:.0f} frames, on screen after "
            f"{a['visibleMs']['p50']:.0f}/{a['visibleMs']['p95']:.0f} ms)  |  whole repaint "
            f"{b['frameMs']['p50']:.1f}/{b['frameMs']['p95']:.1f} ms (paint {b['paintMs']['p50']:.1f}/"
            f"{b['paintMs']['p95']:.1f}; tiles {b['tiles']['p50']})  |  paint ratio at p95 "
            f"{b['paintMs']['p95'] / max(a['paintMs']['p95'], 0.1):.0f}x",
            file=sys.stderr,
        )
    move = result["moveFrameMs"]
    if move["n"]:
        print(f"move    frame p50/p95 {move['p50']:.1f}/{move['p95']:.1f} ms, longest {move['max']:.1f} "
              f"({move['n']} frames while a held line moved)", file=sys.stderr)


if __name__ == "__main__":
    sys.exit(main())
