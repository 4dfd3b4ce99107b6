"""Row 3: per-frame script time in headless Chromium while one finger draws
over a drawing of many finished lines.

    python3 Benchmarks/browser/frame_cost.py --document DOC.json --lines N [--wasm touchtracker.wasm] [--out RESULT.json]

The page (Web/) is used as it is. An init script, not a change to the page,
(1) times every requestAnimationFrame callback of the page and notes whether
it painted (drew the static layer onto the canvas), and (2) in "classic" mode,
from the moment the finger is down, makes `tt_static_version` change on every call and asks
`tt_render_static` for the whole layer, so the page's own code repaints every finished line every frame (the classic drawRect way) instead of
reusing its cached static layer. The drawing comes from a small static server
that answers GET /api/drawings/bench with DOC, so the page opens it the normal way.

Both wait until the opened drawing is all painted (a big one appears tile by
tile over many frames: that is opening's cost, open_cost.py's), and "classic"
sets `touchtracker.progressiveCommands(Infinity)`, so each of its frames
paints every line at once, as drawRect does (before this, from 2026-11-22 on,
both modes measured frames of the opening paint instead: p95 14 ms against a
baseline of 24 ms).

A finger (Chrome DevTools `Input.dispatchTouchEvent`, as Tests/e2e does) goes
down, moves once per animation frame, and lifts; in classic mode, where a
frame takes seconds, it goes down and stays down for a few frames. Reported: p50/p95 of the
frames that painted while the finger moved, and the frame that finished the
line (the page then repaints its static layer and saves the document).
"""

import argparse
import functools
import http.server
import json
import os
import pathlib
import shutil
import statistics
import sys
import tempfile
import threading
import time

from playwright.sync_api import sync_playwright

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
VIEWPORT = {"width": 1280, "height": 720}

INIT_SCRIPT = """
(() => {
  const mode = %(mode)s;
  const raf = window.requestAnimationFrame.bind(window);
  const frames = [];
  let painted = false;
  window.__bench = { frames, raf };
  const drawImage = CanvasRenderingContext2D.prototype.drawImage;
  CanvasRenderingContext2D.prototype.drawImage = function (...args) {
    if (this.canvas.id === 'canvas') painted = true;
    return drawImage.apply(this, args);
  };
  window.requestAnimationFrame = (callback) => raf((ms) => {
    painted = false;
    const start = performance.now();
    callback(ms);
    frames.push({ at: start, ms: performance.now() - start, painted });
  });
  if (mode !== 'classic') return;
  // The classic way: once __benchClassic is set, the page sees a new static
  // layer every frame and repaints every line.
  const wrap = (result) => {
    const exports = Object.assign(Object.create(null), result.instance.exports);
    const real = exports.tt_static_version;
    let version = 1e9;
    exports.tt_static_version = () => (window.__benchClassic ? ++version : real());
    // ...and asks for the whole layer, not just the lines added since the last repaint.
    const renderStatic = exports.tt_render_static;
    exports.tt_render_static = (whole) => renderStatic(window.__benchClassic ? 1 : whole);
    return { module: result.module, instance: { exports } };
  };
  const instantiateStreaming = WebAssembly.instantiateStreaming;
  WebAssembly.instantiateStreaming = async (...args) => wrap(await instantiateStreaming.apply(WebAssembly, args));
  const instantiate = WebAssembly.instantiate;
  WebAssembly.instantiate = async (...args) => wrap(await instantiate.apply(WebAssembly, args));
})();
"""


class Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, ".wasm": "application/wasm"}

    def log_message(self, *args):
        pass


class QuietServer(http.server.ThreadingHTTPServer):
    def handle_error(self, request, client_address):
        pass  # the page went away while a response was on its way


def serve(directory):
    server = QuietServer(("127.0.0.1", 0), functools.partial(Handler, directory=directory))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def percentile(values, p):
    ordered = sorted(values)
    if not ordered:
        return None
    rank = max(0, min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1))))
    return ordered[rank]


def run(browser, url, mode, moves, expected_lines, settle_frames, hold_frames=0, finish=True):
    clock = time.monotonic()
    context = browser.new_context(viewport=VIEWPORT, has_touch=True)
    context.add_init_script(INIT_SCRIPT % {"mode": json.dumps(mode)})
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(url + "/?drawing=bench")
    page.evaluate("window.touchtracker.ready")
    lines = page.evaluate("touchtracker.state().lines")
    if lines != expected_lines:
        raise SystemExit(f"frame_cost: the page opened {lines} lines, expected {expected_lines}")
    cdp = context.new_cdp_session(page)

    def frames(count):
        """Waits until the page has run `count` more animation frames."""
        target = page.evaluate("__bench.frames.length") + count
        page.wait_for_function("n => __bench.frames.length >= n", arg=target, timeout=120_000, polling=5)

    def touch(kind, x, y):
        points = [] if kind == "touchEnd" else [{"id": 1, "x": x, "y": y}]
        cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})

    frames(settle_frames)  # the first frames paint the static layer
    # A big drawing appears tile by tile over many frames: those are opening's cost (open_cost.py), not drawing's.
    page.wait_for_function("!touchtracker.paintStats().pendingSections", timeout=120_000, polling=50)
    if mode == "classic":
        # The classic way paints every line at once each frame, not tile by tile over frames.
        page.evaluate("touchtracker.progressiveCommands(Infinity)")
    page.evaluate("__bench.frames.length = 0")
    start = (200.0, 150.0)
    touch("touchStart", *start)
    frames(1)
    began = page.evaluate("window.__benchClassic = %s; performance.now()" % json.dumps(mode == "classic"))
    for step in range(1, moves + 1):
        touch("touchMove", start[0] + 4.0 * step, start[1] + 2.5 * step)
        frames(1)
    frames(hold_frames)  # the finger stays down (classic frames take seconds; moving is not what they cost)
    ended = page.evaluate("performance.now()")
    if finish:
        touch("touchEnd", 0, 0)
        frames(settle_frames)
    print(f"frame_cost: {mode}: {time.monotonic() - clock:.0f} s", file=sys.stderr)
    recorded = page.evaluate("__bench.frames")
    final_lines = page.evaluate("touchtracker.state().lines")
    context.close()
    if errors:
        raise SystemExit(f"frame_cost: page errors: {errors}")
    if finish and final_lines != expected_lines + 1:
        raise SystemExit(f"frame_cost: the finger drew {final_lines - expected_lines} lines, expected 1")
    drawing = [f["ms"] for f in recorded if began <= f["at"] <= ended and f["painted"]]
    # The frames after the finger lifted: the line is committed, saved, and added to the static layer.
    finishing = [f["ms"] for f in recorded if f["at"] > ended and f["painted"]]
    return {
        "mode": mode,
        "framesWhileDrawing": len(drawing),
        "p50ms": percentile(drawing, 50),
        "p95ms": percentile(drawing, 95),
        "meanMs": statistics.fmean(drawing) if drawing else None,
        "lineFinishedFrameMs": max(finishing) if finish and finishing else None,
    }


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--document", required=True)
    parser.add_argument("--lines", type=int, required=True, help="lines in the document")
    parser.add_argument("--web", default=str(pathlib.Path(__file__).resolve().parents[2] / "Web"))
    parser.add_argument("--wasm", help="the module to serve instead of WEB/touchtracker.wasm")
    parser.add_argument("--moves", type=int, default=90)
    parser.add_argument("--classic-frames", type=int, default=3)
    parser.add_argument("--out")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as root:
        for item in pathlib.Path(args.web).iterdir():
            if args.wasm and item.name == "touchtracker.wasm":
                continue
            os.symlink(item.resolve(), pathlib.Path(root) / item.name)
        if args.wasm:
            os.symlink(pathlib.Path(args.wasm).resolve(), pathlib.Path(root) / "touchtracker.wasm")
        api = pathlib.Path(root) / "api" / "drawings"
        api.mkdir(parents=True)
        shutil.copyfile(args.document, api / "bench")
        server = serve(root)
        url = f"http://127.0.0.1:{server.server_address[1]}"
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox"])
                cached = run(browser, url, "cached", args.moves, args.lines, settle_frames=6)
                # Every classic frame repaints every line and takes seconds, and each
                # touch waits for a frame to be acknowledged: the finger goes down and
                # stays down for a few frames; the page is closed with it still down.
                classic = run(
                    browser, url, "classic", 0, args.lines, settle_frames=6, hold_frames=args.classic_frames,
                    finish=False,
                )
                version = browser.version
                browser.close()
        finally:
            server.shutdown()
    result = {"chromium": version, "lines": args.lines, "cached": cached, "classic": classic}
    text = json.dumps(result)
    if args.out:
        pathlib.Path(args.out).write_text(text)
    print(text)


if __name__ == "__main__":
    sys.exit(main())
