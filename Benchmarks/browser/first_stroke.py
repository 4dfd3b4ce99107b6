"""The first stroke on a phone: from navigation to the first line of a one-finger
stroke on screen, in a fresh phone-sized context on a throttled CPU and network,
ours (an empty drawing, and one of 10,000 lines) beside tldraw 3.11.1.

    python3 Benchmarks/browser/first_stroke.py --server .build/release/touchtracker
        [--web-root Web] [--runs 3] [--peer-cache DIR] [--out RESULT.json]

The profile (each run a fresh browser context: empty HTTP cache, no service worker):
  screen    390x844 CSS px at 3x, touch, mobile (an iPhone 12-14's size)
  CPU       CDP Emulation.setCPUThrottlingRate 4
  network   CDP Network.emulateNetworkConditions "fast 4G": 40 ms latency a request,
            9 Mbps down, 1.5 Mbps up (the numbers the issue names for Chrome DevTools'
            Fast 4G)

The pages:
  ours      `touchtracker serve` (the binary given; its built-in page unless --web-root)
            on loopback, a fresh SQLite database: /?drawing=first (empty) and
            /?drawing=big (10,000 random black lines over the screen, PUT before the runs).
  tldraw    the built bundle in PyPI's `streamlit-tldraw` wheel (tldraw 3.11.1, React,
            one 1.7 MB script; `pip download --no-deps streamlit-tldraw` into --peer-cache)
            from a loopback static server, gzipped as a CDN would send it. It is a Streamlit component: it renders once
            its host posts `streamlit:render`, which the harness posts at once (the
            message Streamlit sends). Requests beyond loopback (its fonts and
            translations on cdn.tldraw.com) are aborted, fonts answered with a local
            font, and listed. tldraw starts with its select tool: the finger first taps
            its draw tool (what a person does), then strokes.

The stroke: CDP `Input.dispatchTouchEvent`, one finger, a touchStart then 10 moves of
(22, 4) px 16 ms apart, then touchEnd, sent as soon as the page is ready for it (ours:
`touchtracker.ready`; tldraw: its draw tool pressed).

"On screen", read the same way for both in the page itself, in animation frames: ours
draws on canvases, so the first frame in which a canvas pixel under the first move's
segment differs from before the stroke; tldraw draws SVG, so the first frame in which a
new shape is in its canvas. The time is that frame's `performance.now()`, which counts
from the navigation's start.

Also per page: the bytes received from loopback (Resource Timing's `transferSize`:
compressed, headers included) and the requests made to it before the stroke was on screen; for ours, the wasm's
compile (`WebAssembly.compile` of its bytes, in the same throttled page afterwards).
Runs interleave (ours empty, ours 10k, tldraw, then again); medians are reported.
"""

import argparse
import contextlib
import functools
import gzip
import http.server
import threading
import json
import os
import pathlib
import statistics
import subprocess
import sys
import tempfile
import urllib.request
import zipfile

from playwright.sync_api import sync_playwright

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from change_cost import CHROMIUM, random_document  # noqa: E402
from download_cost import STAND_IN_FONT, free_port, wait_until_serving  # noqa: E402

PEER_PACKAGE = "streamlit-tldraw"
PEER_BUILD = "streamlit_tldraw/frontend/build/"

SCREEN = {"width": 390, "height": 844}
NETWORK = {"offline": False, "latency": 40, "downloadThroughput": 9_000_000 / 8, "uploadThroughput": 1_500_000 / 8}
CPU_RATE = 4
LINES = 10_000

START = (80, 420)
STEP = (22, 4)
MOVES = 10

# Notes, in animation frames, when the stroke is on screen (see the docstring).
INK = """
(() => {
  const raf = window.requestAnimationFrame.bind(window);
  const ink = { at: null, armed: false, samples: [], before: [], shapes: 0 };
  window.__ink = ink;
  function canvases() { return [...document.querySelectorAll('canvas')]; }
  function read() {
    const values = [];
    for (const canvas of canvases()) {
      let context = null;
      try { context = canvas.getContext('2d', { willReadFrequently: false }); } catch { context = null; }
      const box = canvas.getBoundingClientRect();
      if (!context || canvas.width === 0 || box.width === 0 || box.height === 0) { values.push(''); continue; }
      const sx = canvas.width / box.width, sy = canvas.height / box.height;
      let text = '';
      for (const [x, y] of ink.samples) {
        const px = Math.round((x - box.left) * sx), py = Math.round((y - box.top) * sy);
        text += context.getImageData(px, py, 1, 1).data.join(',') + ';';
      }
      values.push(text);
    }
    return values;
  }
  function shapes() { return document.querySelectorAll('.tl-shape').length; }
  ink.arm = (kind, samples) => {
    ink.kind = kind;
    ink.samples = samples;
    if (kind === 'canvas') ink.before = read(); else ink.shapes = shapes();
    ink.armed = true;
    const frame = (now) => {
      if (ink.at !== null) return;
      const changed = ink.kind === 'canvas'
        ? read().some((value, index) => value !== (ink.before[index] ?? ''))
        : shapes() > ink.shapes;
      if (changed) { ink.at = performance.now(); return; }
      raf(frame);
    };
    raf(frame);
  };
})();
"""

# The Streamlit host's part: once the component says it is ready, the render message.
RENDER = """
window.addEventListener('message', (event) => {
  if (event.data?.type !== 'streamlit:componentReady') return;
  window.postMessage({ isStreamlitMessage: true, type: 'streamlit:render', dfs: [],
    args: { key: 'bench', width: 390, height: 844, read_only: false, dark_mode: false, show_ui: true, initial_data: null } }, '*');
});
"""

# What came over the network from loopback until now (Resource Timing's transferSize: compressed
# body and headers; 0 for what a cache answered).
TRANSFER = """
(() => {
  const entries = [...performance.getEntriesByType('navigation'), ...performance.getEntriesByType('resource')]
    .filter((e) => e.name.startsWith('http://127.0.0.1'));
  return { bytes: entries.reduce((sum, e) => sum + e.transferSize, 0), count: entries.length };
})()
"""

# Times the wasm's compile from bytes the page already has (its HTTP cache).
COMPILE = """
async () => {
  const entry = performance.getEntriesByType('resource').find((e) => e.name.endsWith('/touchtracker.wasm'));
  const bytes = await (await fetch(entry.name)).arrayBuffer();
  const t0 = performance.now();
  await WebAssembly.compile(bytes);
  return { compileMs: performance.now() - t0, wasmBytes: bytes.byteLength };
}
"""


def fetch_peer(cache):
    cache = pathlib.Path(cache)
    cache.mkdir(parents=True, exist_ok=True)
    wheels = sorted(cache.glob("streamlit_tldraw-*.whl"))
    if not wheels:
        subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "--disable-pip-version-check",
                        PEER_PACKAGE, "-d", str(cache)], check=True, timeout=600)
        wheels = sorted(cache.glob("streamlit_tldraw-*.whl"))
    site = cache / "site"
    if not (site / "index.html").exists():
        site.mkdir(exist_ok=True)
        with zipfile.ZipFile(wheels[-1]) as wheel:
            for name in wheel.namelist():
                if name.startswith(PEER_BUILD) and not name.endswith((".map", ".LICENSE.txt")):
                    target = site / name[len(PEER_BUILD):]
                    target.parent.mkdir(parents=True, exist_ok=True)
                    target.write_bytes(wheel.read(name))
    return site, wheels[-1].name


class GzipHandler(http.server.SimpleHTTPRequestHandler):
    """Files gzipped (level 9) to a browser that accepts it, as a CDN would send tldraw's."""

    extensions_map = {".html": "text/html", ".js": "text/javascript", ".css": "text/css", ".json": "application/json"}

    def do_GET(self):
        path = pathlib.Path(self.translate_path(self.path.split("?")[0]))
        if not path.is_file() or "gzip" not in self.headers.get("Accept-Encoding", ""):
            return super().do_GET()
        body = gzipped(path)
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(str(path)))
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-cache")
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


@functools.lru_cache(maxsize=None)
def gzipped(path):
    return gzip.compress(path.read_bytes(), 9)


@contextlib.contextmanager
def static_server(directory):
    handler = functools.partial(GzipHandler, directory=str(directory))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def serve(binary, web_root, directory):
    port = free_port()
    arguments = [binary, "serve", "--host", "127.0.0.1", "--port", str(port),
                 "--database", str(directory / "drawings.sqlite")]
    if web_root:
        arguments += ["--web-root", str(web_root)]
    log = open(directory / "server.log", "wb")
    process = subprocess.Popen(arguments, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    wait_until_serving(process, url, directory / "server.log", "first_stroke")
    return process, url


def put_drawing(url, name, text):
    request = urllib.request.Request(f"{url}/api/drawings/{name}", data=text.encode(), method="PUT",
                                     headers={"Content-Type": "application/json", "If-Match": '"0"'})
    with urllib.request.urlopen(request, timeout=60) as response:
        assert response.status in (200, 201), response.status


def touch(cdp, kind, point):
    points = [] if kind == "touchEnd" else [{"x": point[0], "y": point[1], "id": 1, "radiusX": 4, "radiusY": 4}]
    cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})


def stroke(page, cdp):
    point = START
    touch(cdp, "touchStart", point)
    for _ in range(MOVES):
        page.wait_for_timeout(16)
        point = (point[0] + STEP[0], point[1] + STEP[1])
        touch(cdp, "touchMove", point)
    touch(cdp, "touchEnd", point)


def tap(page, cdp, selector):
    box = page.locator(selector).first.bounding_box()
    center = (box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    touch(cdp, "touchStart", center)
    touch(cdp, "touchEnd", center)


def measure(browser, url, kind):
    """One fresh context: navigation to the stroke on screen; returns the figures."""
    # bypass_csp: Playwright polls with eval, which our CSP forbids; the page loads the same.
    context = browser.new_context(viewport=SCREEN, device_scale_factor=3, is_mobile=True, has_touch=True, bypass_csp=True)
    context.add_init_script(INK)
    if kind == "tldraw":
        context.add_init_script(RENDER)
    elsewhere = []

    def route(route):
        elsewhere.append(route.request.url)
        if route.request.url.endswith((".woff2", ".woff", ".ttf")) and STAND_IN_FONT.exists():
            return route.fulfill(body=STAND_IN_FONT.read_bytes(), content_type="font/ttf",
                                 headers={"Access-Control-Allow-Origin": "*"})
        return route.abort()

    context.route(lambda address: not address.startswith("http://127.0.0.1"), route)
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    requests, received = {}, {}
    cdp.on("Network.requestWillBeSent", lambda e: requests.setdefault(e["requestId"], e["request"]["url"]))
    cdp.on("Network.loadingFinished", lambda e: received.__setitem__(e["requestId"], e["encodedDataLength"]))
    cdp.send("Network.enable")
    cdp.send("Network.setCacheDisabled", {"cacheDisabled": False})
    cdp.send("Network.emulateNetworkConditions", NETWORK)
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": CPU_RATE})
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(url, wait_until="commit")
    segment = [(START[0] + STEP[0] * f, START[1] + STEP[1] * f) for f in (0.3, 0.45, 0.6, 0.75, 0.9)]
    if kind == "ours":
        page.wait_for_function("window.touchtracker !== undefined", timeout=120_000, polling=20)
        page.evaluate("touchtracker.ready")
        ready = page.evaluate("performance.now()")
        page.evaluate("([kind, samples]) => __ink.arm(kind, samples)", ["canvas", segment])
    else:
        page.wait_for_selector('[data-testid="tools.draw"]', timeout=120_000)
        ready = page.evaluate("performance.now()")
        tap(page, cdp, '[data-testid="tools.draw"]')
        page.wait_for_selector('[data-testid="tools.draw"][aria-pressed="true"], [data-testid="tools.draw"][aria-checked="true"]',
                               timeout=60_000)
        page.evaluate("([kind, samples]) => __ink.arm(kind, samples)", ["svg", segment])
    stroke(page, cdp)
    page.wait_for_function("__ink.at !== null", timeout=120_000, polling=50)
    painted = page.evaluate("__ink.at")
    transfer = page.evaluate(TRANSFER)
    result = {
        "readyMs": ready, "paintedMs": painted,
        "requests": len([u for u in requests.values() if u.startswith("http://127.0.0.1")]),
        "cdpBytes": sum(size for key, size in received.items() if requests.get(key, "").startswith("http://127.0.0.1")),
        "bytes": transfer["bytes"], "resources": transfer["count"],
        "errors": errors,
    }
    if kind == "ours":
        result.update(page.evaluate(COMPILE))
    if elsewhere:
        result["elsewhere"] = sorted(set(elsewhere))
    context.close()
    return result


def median(values):
    return statistics.median(values) if values else None


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--server", required=True, help="the touchtracker binary")
    parser.add_argument("--web-root", help="serve this Web/ instead of the binary's built-in page")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--peer-cache", default=os.path.join(tempfile.gettempdir(), "touchtracker-peer"))
    parser.add_argument("--out")
    args = parser.parse_args()
    site, wheel = fetch_peer(args.peer_cache)
    with tempfile.TemporaryDirectory() as directory, static_server(site) as peer_url:
        process, url = serve(args.server, args.web_root, pathlib.Path(directory))
        try:
            put_drawing(url, "big", random_document(LINES, width=390.0, height=844.0))
            pages = {
                "ours, empty": (f"{url}/?drawing=first", "ours"),
                f"ours, {LINES:,} lines": (f"{url}/?drawing=big", "ours"),
                "tldraw 3.11.1, empty": (f"{peer_url}/index.html", "tldraw"),
            }
            runs = {name: [] for name in pages}
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox"])
                for run in range(args.runs):
                    for name, (address, kind) in pages.items():
                        figures = measure(browser, address, kind)
                        runs[name].append(figures)
                        print(f"run {run + 1} {name}: {figures['paintedMs']:.0f} ms, {figures['requests']} requests, "
                              f"{figures['bytes']:,} B", file=sys.stderr)
                chromium = browser.version
                browser.close()
        finally:
            process.terminate()
            process.wait(timeout=30)
    summary = {}
    for name, figures in runs.items():
        summary[name] = {key: median([f[key] for f in figures if key in f])
                         for key in ("paintedMs", "readyMs", "requests", "bytes", "compileMs")}
    peer = summary["tldraw 3.11.1, empty"]["paintedMs"]
    result = {"profile": {"screen": "390x844 at 3x", "cpuThrottling": CPU_RATE, "network": NETWORK},
              "peer": wheel, "chromium": chromium, "runs": runs, "summary": summary,
              "ratio": {name: s["paintedMs"] / peer for name, s in summary.items()}}
    if args.out:
        pathlib.Path(args.out).write_text(json.dumps(result, indent=2))
    print(report(result))


def report(result):
    rows = ["| Page | Navigation to the stroke on screen (median) | Ready for it | Requests | Bytes received | wasm compile | Ratio to tldraw |",
            "|---|---|---|---|---|---|---|"]
    for name, s in result["summary"].items():
        compile_ms = f"{s['compileMs']:.1f} ms" if s["compileMs"] is not None else ""
        rows.append(f"| {name} | {s['paintedMs']:.0f} ms | {s['readyMs']:.0f} ms | {s['requests']:.0f} | "
                    f"{s['bytes']:,.0f} B | {compile_ms} | {result['ratio'][name]:.2f} |")
    return "\n".join(rows)


if __name__ == "__main__":
    main()
