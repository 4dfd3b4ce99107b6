"""Pan and zoom over 100,000 lines: the frames of a pan, a zoom and the
repaint once the viewport is still, in headless Chromium, against panning
with a whole repaint every step (what every pan did before) in the same run.

    python3 Benchmarks/browser/pan_cost.py [--lines 100000] [--steps 20] [--baselines 3] [--out RESULT.json]

The drawing and the page's server are change_cost.py's (`RandomDrawing.lines`,
seed 1, over 1280x720; GET /api/drawings/bench). An init script times every
frame of the page's loop from the start of one requestAnimationFrame
callback to the next (commit, tick, draw, and the canvas's raster after it). A step is `touchtracker.changeViewport(0, -8, -5)` (a pan of about
10 pt, as a two-finger pan or a wheel gives each frame) or a zoom by 1.02
about the window's center, one a frame; reported:

  step     from a step to the start of the second frame after it (the
           frame that paints it, raster included), and the longest frame
  settle   from the last step until the repaint has copied its last tile
           (the drawing crisp again), and the longest frame meanwhile
           (what input waits for at worst)

The baseline is the page made to treat its whole paint as fast
(`touchtracker.slowPaintMs(Infinity)`), so each step repaints the whole
layer in its frame.
"""

import argparse
import json
import pathlib
import sys

from playwright.sync_api import sync_playwright

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from change_cost import CHROMIUM, page_server, percentile, random_document  # noqa: E402

INIT_SCRIPT = """
(() => {
  const raf = window.requestAnimationFrame.bind(window);
  const frames = [];
  window.__pan = { frames };
  // A canvas rasterizes what it was given after the callback, when the frame is drawn: the time from
  // one callback's start to the next one's is what a frame costs, raster included.
  let last = null;
  window.requestAnimationFrame = (callback) => raf((time) => {
    const start = performance.now();
    if (last !== null) frames.push({ start, ms: start - last });
    last = start;
    callback(time);
  });
})();
"""

STEPS = """
async ([kind, steps]) => {
  const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
  await frame();
  const first = __pan.frames.length;
  const stepMs = [];
  for (let i = 0; i < steps; i++) {
    const start = performance.now();
    if (kind === 'pan') touchtracker.changeViewport(0, -8, -5);
    else touchtracker.changeViewport(1, 1.02, 640, 360);
    await frame(); // the page's frame paints the step
    await frame(); // and this one starts once that frame (raster included) is done
    stepMs.push(performance.now() - start);
  }
  const stepFrames = __pan.frames.slice(first).map((f) => f.ms);
  const still = performance.now();
  const settled = __pan.frames.length;
  const busy = () => touchtracker.paintStats().pendingSections > 0 || touchtracker.paintStats().repaintOwed;
  while (busy() || __pan.frames.length < settled + 12) await frame();
  const settleFrames = __pan.frames.slice(settled).map((f) => f.ms);
  return { stepMs, stepFrames, settleMs: performance.now() - still, settleFrames };
}
"""


def summary(values):
    return {"p50": percentile(values, 50), "p95": percentile(values, 95), "max": max(values), "count": len(values)}


def measure(page, kind, steps):
    result = page.evaluate(STEPS, [kind, steps])
    return {
        "stepMs": summary(result["stepMs"]),
        "stepFrameMs": summary(result["stepFrames"]),
        "settleMs": result["settleMs"],
        "settleLongestFrameMs": max(result["settleFrames"]),
    }


def run(browser, url, lines, steps, baselines):
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    context.add_init_script(INIT_SCRIPT)
    page = context.new_page()
    page.goto(url + "/?drawing=bench")
    page.evaluate("window.touchtracker.ready")
    opened = page.evaluate("touchtracker.state().lines")
    if opened != lines:
        raise SystemExit(f"pan_cost: the page opened {opened} lines, expected {lines}")
    page.wait_for_function("touchtracker.paintStats().pendingSections === 0", timeout=120_000)
    result = {"ours": {}, "baseline": {}}
    for kind in ("pan", "zoom"):
        result["ours"][kind] = measure(page, kind, steps)
    page.evaluate("touchtracker.slowPaintMs(Infinity)")
    for kind in ("pan", "zoom"):
        if baselines:
            result["baseline"][kind] = measure(page, kind, baselines)
    context.close()
    return result


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--lines", type=int, default=100_000)
    parser.add_argument("--steps", type=int, default=20)
    parser.add_argument("--baselines", type=int, default=3, help="steps with a whole repaint each (seconds each at 100k)")
    parser.add_argument("--web", default=str(pathlib.Path(__file__).resolve().parents[2] / "Web"))
    parser.add_argument("--out")
    args = parser.parse_args()
    document = random_document(args.lines).encode()
    with page_server(args.web, document) as url, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox"])
        measured = run(browser, url, args.lines, args.steps, args.baselines)
        version = browser.version
        browser.close()
    result = {"chromium": version, "lines": args.lines, **measured}
    if args.out:
        pathlib.Path(args.out).write_text(json.dumps(result))
    print(json.dumps(result, indent=1))
    for kind in ("pan", "zoom"):
        ours, base = result["ours"][kind], result["baseline"].get(kind)
        line = (
            f"{kind}: step p50/max {ours['stepMs']['p50']:.1f}/{ours['stepMs']['max']:.1f} ms (two frames), "
            f"longest frame {ours['stepFrameMs']['max']:.1f} ms; crisp again {ours['settleMs']:.0f} ms after the "
            f"last step, longest frame meanwhile {ours['settleLongestFrameMs']:.1f} ms"
        )
        if base:
            ratio = base["stepMs"]["p50"] / max(ours["stepMs"]["p50"], 0.1)
            line += f"  |  whole repaint each step: p50 {base['stepMs']['p50']:.0f} ms ({ratio:.0f}x)"
        print(line, file=sys.stderr)


if __name__ == "__main__":
    main()
