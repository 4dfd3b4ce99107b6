"""Opening 100,000 lines: how long the page's frames are while the drawing
appears, in headless Chromium, against another page (a baseline: the page
before a change) in the same run.

    python3 Benchmarks/browser/open_cost.py (--baseline-web DIR | --plain) [--lines 100000]
        [--document DOC.json] [--wasm WASM] [--runs 3] [--out RESULT.json]

The drawing and the page's server are change_cost.py's (`RandomDrawing.lines`,
seed 1, over 1280x720; GET /api/drawings/bench). An init script notes the
start of every requestAnimationFrame callback; a frame is from one start to
the next (script, paint and raster). Reported per page, median of the runs:

  ready     from navigation until `touchtracker.ready` (the document read
            and decoded, the core built)
  painted   from navigation until the static layer has no section left to
            paint (every line on screen)
  longest   the longest frame from `ready` to `painted`: the longest input
            waits while the drawing appears
  task      the longest task (of those over 50 ms: the browser's long tasks)
            from navigation to `painted`, 0 if none: input waits for a task's
            end while the drawing is read too, before `ready`

DIR is a copy of Web/ (for example `git worktree add /tmp/base HEAD~1`, then
its Web/ with this Web/touchtracker.wasm copied in).

--server BIN: both pages come from `BIN serve --web-root DIR` (a fresh SQLite database
each, the drawing PUT into it first), as a person opening a drawing gets them, instead of
the small Python server above: that one serves the page's ~25 modules one connection
at a time while the 10 MB drawing goes out, so a page of many files waits for them
(the plain page is one file). The plain page's inline script runs with the page's
Content-Security-Policy bypassed (the server allows no inline scripts).

--plain: the baseline is instead the page issue 15 measures opening against,
a plain page that fetches the same document, `JSON.parse`s it and strokes
each segment once onto a canvas in one task (no core, no checks, no
index): its `ready` is after the parse, `painted` after the strokes are
rasterized, and its `longest` is that one task, during which no input is
handled. Scripts/benchmark.sh runs it this way (row 11).
"""

import argparse
import contextlib
import json
import os
import pathlib
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import urllib.error
import urllib.request

from playwright.sync_api import sync_playwright

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from change_cost import CHROMIUM, page_server, random_document, wait_until_serving  # noqa: E402

INIT_SCRIPT = """
(() => {
  const raf = window.requestAnimationFrame.bind(window);
  const starts = [];
  const longTasks = [];
  window.__open = { starts, longTasks };
  window.requestAnimationFrame = (callback) => raf((time) => {
    starts.push(performance.now());
    callback(time);
  });
  // Tasks over 50 ms from the navigation on, before `ready` too (reading the drawing, compiling):
  // input waits for the end of a task.
  new PerformanceObserver((list) => {
    for (const task of list.getEntries()) longTasks.push([task.startTime, task.duration]);
  }).observe({ type: 'longtask', buffered: true });
})();
"""

MEASURE = """
async () => {
  await touchtracker.ready;
  const ready = performance.now();
  const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
  const busy = () => { const s = touchtracker.paintStats(); return s.pendingSections > 0 || s.repaintOwed; };
  await frame();
  while (busy()) await frame();
  await frame();
  const painted = performance.now();
  const starts = __open.starts.filter((t) => t >= ready - 1);
  let longest = 0;
  for (let i = 1; i < starts.length; i++) longest = Math.max(longest, starts[i] - starts[i - 1]);
  const tasks = __open.longTasks.filter(([start]) => start < painted).map(([, duration]) => duration);
  return { readyMs: ready, paintedMs: painted, longestFrameMs: longest, longestTaskMs: Math.max(0, ...tasks), frames: starts.length };
}
"""


PLAIN_PAGE = """<!doctype html>
<meta charset="utf-8">
<title>plain</title>
<canvas id="canvas" width="1280" height="720"></canvas>
<script>
window.plain = (async () => {
  const text = await (await fetch('/api/drawings/bench', { cache: 'no-store' })).text();
  const started = performance.now();
  const drawing = JSON.parse(text);
  const readyMs = performance.now();
  const ctx = document.getElementById('canvas').getContext('2d');
  ctx.lineCap = 'round';
  for (const line of drawing.lines) {
    ctx.beginPath();
    ctx.strokeStyle = line.color;
    ctx.lineWidth = line.width;
    ctx.moveTo(line.begin.x, line.begin.y);
    ctx.lineTo(line.end.x, line.end.y);
    ctx.stroke();
  }
  ctx.getImageData(0, 0, 1, 1); // rasterized
  const paintedMs = performance.now();
  return { readyMs, paintedMs, longestFrameMs: paintedMs - started, longestTaskMs: paintedMs - started, lines: drawing.lines.length };
})();
</script>
"""


@contextlib.contextmanager
def real_server(binary, web, document, wasm=None):
    """`binary serve` on loopback with WEB as its page (WASM in place of its module if
    given) and DOCUMENT stored as drawing `bench`; yields its URL."""
    with tempfile.TemporaryDirectory() as root:
        root = pathlib.Path(root)
        shutil.copytree(web, root / "web", symlinks=False)
        if wasm:
            shutil.copy(wasm, root / "web" / "touchtracker.wasm")
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        log = open(root / "server.log", "wb")
        process = subprocess.Popen(
            [binary, "serve", "--port", str(port), "--database", str(root / "drawings.sqlite"),
             "--web-root", str(root / "web")],
            stdout=log, stderr=subprocess.STDOUT,
        )
        url = f"http://127.0.0.1:{port}"
        try:
            wait_until_serving(process, url, root / "server.log", "open_cost")
            put = urllib.request.Request(url + "/api/drawings/bench", data=document, method="PUT",
                                         headers={"Content-Type": "application/json"})
            urllib.request.urlopen(put, timeout=120).close()
            yield url
        finally:
            process.terminate()
            process.wait(timeout=30)
            log.close()


def open_plain(browser, url, lines):
    context = browser.new_context(viewport={"width": 1280, "height": 720}, bypass_csp=True)
    page = context.new_page()
    page.goto(url + "/")
    result = page.evaluate("window.plain")
    context.close()
    if result.pop("lines") != lines:
        raise SystemExit("open_cost: the plain page read a different drawing")
    return result


def open_once(browser, url, lines):
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    context.add_init_script(INIT_SCRIPT)
    page = context.new_page()
    page.goto(url + "/?drawing=bench&live=off")
    result = page.evaluate(MEASURE)
    opened = page.evaluate("touchtracker.state().lines")
    context.close()
    if opened != lines:
        raise SystemExit(f"open_cost: the page opened {opened} lines, expected {lines}")
    return result


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--lines", type=int, default=100_000)
    parser.add_argument("--document", help="the document to open (default: change_cost.py's random drawing of --lines)")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--web", default=str(pathlib.Path(__file__).resolve().parents[2] / "Web"))
    parser.add_argument("--wasm", help="the module to serve instead of WEB/touchtracker.wasm")
    baseline = parser.add_mutually_exclusive_group(required=True)
    baseline.add_argument("--baseline-web")
    baseline.add_argument("--plain", action="store_true", help="the baseline is a plain page stroking each segment once")
    parser.add_argument("--server", help="touchtracker's path: both pages served by `touchtracker serve`")
    parser.add_argument("--out")
    args = parser.parse_args()
    document = pathlib.Path(args.document).read_bytes() if args.document else random_document(args.lines).encode()
    runs = {"ours": [], "baseline": []}
    with tempfile.TemporaryDirectory() as plain_web:
        (pathlib.Path(plain_web) / "index.html").write_text(PLAIN_PAGE)
        baseline_web, open_baseline = (plain_web, open_plain) if args.plain else (args.baseline_web, open_once)
        if args.server:
            serve = lambda web, wasm=None: real_server(args.server, web, document, wasm)  # noqa: E731
        else:
            serve = lambda web, wasm=None: page_server(web, document, wasm)  # noqa: E731
        with serve(args.web, args.wasm) as ours, serve(baseline_web) as base:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox"])
                for _ in range(args.runs):  # interleaved, so both meet the same load
                    runs["ours"].append(open_once(browser, ours, args.lines))
                    runs["baseline"].append(open_baseline(browser, base, args.lines))
                version = browser.version
                browser.close()
    result = {
        "chromium": version, "lines": args.lines, "baselinePage": "plain" if args.plain else args.baseline_web,
        "server": "touchtracker serve" if args.server else "python", "runs": runs,
    }
    for name, measured in runs.items():
        result[name] = {
            key: statistics.median(run[key] for run in measured) for key in ("readyMs", "paintedMs", "longestFrameMs", "longestTaskMs")
        }
    if args.out:
        pathlib.Path(args.out).write_text(json.dumps(result))
    print(json.dumps({k: v for k, v in result.items() if k != "runs"}, indent=1))
    ours, base = result["ours"], result["baseline"]
    print(
        f"open {args.lines} lines, medians of {args.runs}: ready {ours['readyMs']:.0f} vs {base['readyMs']:.0f} ms; "
        f"all painted {ours['paintedMs']:.0f} vs {base['paintedMs']:.0f} ms; longest frame meanwhile "
        f"{ours['longestFrameMs']:.0f} vs {base['longestFrameMs']:.0f} ms "
        f"(the baseline's is {base['longestFrameMs'] / max(ours['longestFrameMs'], 0.1):.1f}x ours); longest task "
        f"from navigation {ours['longestTaskMs']:.0f} vs {base['longestTaskMs']:.0f} ms",
        file=sys.stderr,
    )


if __name__ == "__main__":
    main()
