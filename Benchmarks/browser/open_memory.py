"""Page memory after opening a million lines (issue 15: page memory, JS heap +
wasm, at most 3x the lines' own bytes), in headless Chromium.

    python3 Benchmarks/browser/open_memory.py [--web Web] [--wasm WASM] [--lines 1000000] [--out RESULT.json]

Serves WEB (with the module WASM in place of its own if given) on loopback
with change_cost.py's page server, opens an empty drawing, builds the
document inside the page (as its own fetch would hold it: 90 MB through the
DevTools protocol would measure the protocol; the builder is
Tests/e2e/test_big_drawings.py's, so it is the drawing that test opens), opens it with `touchtracker.loadDocument`, drops the
text, waits until every line is painted, collects garbage twice and reads
the wasm memory (`memory.buffer.byteLength`: it never shrinks, so this is
its high-water mark) and the JS heap (`performance.memory.usedJSHeapSize`,
precise). Baselines from the same run: the document's own bytes, and the
lines' own bytes (`Line`'s stride, 56 B, times the lines: the `[Line]` the
core cannot do without).
"""

import argparse
import json
import pathlib
import sys
import time

from playwright.sync_api import sync_playwright

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "Tests" / "e2e"))
from change_cost import page_server  # noqa: E402
from test_big_drawings import BUILD  # noqa: E402  the same million lines the end-to-end test opens

LINE_STRIDE = 56  # MemoryLayout<Line>.stride: id, two points, color, width




EMPTY = b'{"format":"touchtracker","version":1,"lines":[],"circles":[]}'


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--web", default=str(pathlib.Path(__file__).resolve().parents[2] / "Web"))
    parser.add_argument("--wasm", help="the module to serve instead of WEB/touchtracker.wasm")
    parser.add_argument("--lines", type=int, default=1_000_000)
    parser.add_argument("--out")
    args = parser.parse_args()
    with page_server(args.web, EMPTY, args.wasm) as url, sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path="/usr/bin/chromium", headless=True,
            args=["--no-sandbox", "--enable-precise-memory-info", "--js-flags=--expose-gc"])
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        page.goto(url + "/?drawing=bench")
        page.evaluate("touchtracker.ready")
        length = page.evaluate(BUILD, args.lines)
        start = time.perf_counter()
        problem = page.evaluate("touchtracker.loadDocument(window.__big)")
        opened = time.perf_counter() - start
        if problem is not None:
            raise SystemExit(f"open_memory: the page refused the document: {problem}")
        page.evaluate("delete window.__big")
        page.wait_for_function("touchtracker.paintStats().pendingSections === 0", timeout=600_000)
        for _ in range(2):
            page.evaluate("gc()")
            time.sleep(0.5)
        wasm = page.evaluate("touchtracker.core().memory.buffer.byteLength")
        heap = page.evaluate("performance.memory.usedJSHeapSize")
        lines = page.evaluate("touchtracker.state().lines")
        browser.close()
    if lines != args.lines:
        raise SystemExit(f"open_memory: the page holds {lines} lines, not {args.lines}")
    own = args.lines * LINE_STRIDE
    result = {
        "lines": lines, "documentBytes": length, "openSeconds": round(opened, 2),
        "wasmBytes": wasm, "jsHeapBytes": heap, "pageBytes": wasm + heap, "linesOwnBytes": own,
        "pageVsLines": round((wasm + heap) / own, 2), "pageVsDocument": round((wasm + heap) / length, 2),
    }
    text = json.dumps(result, indent=2)
    if args.out:
        pathlib.Path(args.out).write_text(text + "\n")
    print(text)


if __name__ == "__main__":
    main()
