"""What the page costs on a first visit, against a peer's bundle in the same run, and the
wasm's size budget derived from it (issue 37).

    python3 Benchmarks/browser/download_cost.py --server BIN [--web Web] [--wasm WASM]
        [--runs 7] [--peer-cache DIR] [--out RESULT.json] [--derive Scripts/wasm-budget.json]

Three measurements, one run, headless Debian Chromium (Playwright from PyPI):

  download  a first visit to `BIN serve` (loopback, a free port, a fresh SQLite database in a
            temporary directory, WEB as its page with WASM in place of its module if given):
            every request the browser makes (the page's and its service worker's, which
            caches the page's files on the first visit), each distinct file of the page
            (not /api/) counted once, raw and gzip -9. `touchtracker serve` sends no
            Content-Encoding (the benchmark asks with Accept-Encoding: gzip, br and records
            what comes back), so gzip is what a CDN or proxy in front of it would send:
            Python's gzip at level 9, the level Scripts/build-wasm.sh reports. The
            browser's own Resource Timing sizes (transfer, encoded, decoded) are kept too.
  wasm      the module's start in Chromium, in a blank page from a second loopback server
            (no-store): `WebAssembly.compile(bytes)` then `WebAssembly.instantiate(module)`,
            each timed with performance.now() (the bytes already fetched), and
            `WebAssembly.instantiateStreaming(fetch(url))` from the fetch to the instance.
            Each in a browser of its own: V8 keeps compiled modules per renderer by their
            bytes, so a second compile in the same browser would be a cache hit. Chromium
            compiles wasm lazily (a function on its first call); the same is timed with
            --js-flags=--no-wasm-lazy-compilation, which compiles every function (Liftoff)
            before the promise resolves: the derivation uses that one, the whole module's
            compile.
  peer      tldraw 3.0.0's bundle as the PyPI package `tldraw` (jupyter-tldraw, an anywidget)
            ships it: static/minimal.js (tldraw, React and their dependencies as one ES
            module, what its TldrawWidget loads) and static/minimal.css; fetched with
            `pip download --no-deps tldraw==3.0.0` into --peer-cache (kept between runs).
            Its bytes raw and gzip -9 as above. In a blank page, its text already fetched:
              compile   `new Function(text)` (its one `export{...}` made a `return`): V8's
                        parse and compile of the top level, inner functions pre-parsed
              import    `await import(blobURL)`: parse, compile and the evaluation of the
                        module's top level (React, tldraw's registries, its schema)
              render    its widget's `render({model, el})` with a stand-in model (600x300)
                        until tldraw's `.tl-canvas` is in the page and a frame has passed;
                        its fonts, icons and translations come from cdn.tldraw.com, which
                        this machine cannot reach (those requests are aborted): the peer's
                        download here is its bundle alone, a lower bound of its page's
            Each run in a browser of its own too.

The runs interleave (the order rotates each run), so both sides meet the same load; each
ratio is taken within a run, reported as the median and the range over the runs.

--derive PATH writes the wasm's budget by the rule in docs/DESIGN.md, "The wasm's budget",
to PATH (Scripts/wasm-budget.json, which Scripts/build-wasm.sh and Scripts/benchmark.sh
read), with the measurement it came from. The rule's two shares are DOWNLOAD_SHARE and
START_SHARE below; changing them is changing the rule (DESIGN.md and a decision record).
"""

import argparse
import contextlib
import datetime
import gzip
import http.server
import json
import os
import pathlib
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
import zipfile

from playwright.sync_api import sync_playwright

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from change_cost import CHROMIUM, wait_until_serving  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parents[2]

# The rule (docs/DESIGN.md, "The wasm's budget"): the page's whole first download, gzip, at
# most DOWNLOAD_SHARE of the peer's bundle, gzip; the wasm's compile and instantiate (every
# function compiled) at most START_SHARE of the peer's import (parse, compile, top level).
DOWNLOAD_SHARE = 1.0
START_SHARE = 0.5

PEER_PACKAGE = "tldraw"
PEER_VERSION = "3.0.0"
PEER_FILES = ("tldraw/static/minimal.js", "tldraw/static/minimal.css")

BLANK = b"<!doctype html><meta charset=utf-8><title>blank</title><body></body>"

WASM_IMPORTS = "{ tt: { read_input: () => 0 } }"

TIME_WASM_BYTES = """
async (url) => {
  const bytes = await (await fetch(url, { cache: 'no-store' })).arrayBuffer();
  const t0 = performance.now();
  const module = await WebAssembly.compile(bytes);
  const t1 = performance.now();
  const instance = await WebAssembly.instantiate(module, %s);
  const t2 = performance.now();
  if (!instance.exports.memory) throw new Error('no memory export');
  return { compileMs: t1 - t0, instantiateMs: t2 - t1, totalMs: t2 - t0 };
}
""" % WASM_IMPORTS

TIME_WASM_STREAMING = """
async (url) => {
  const t0 = performance.now();
  const { instance } = await WebAssembly.instantiateStreaming(fetch(url, { cache: 'no-store' }), %s);
  const t1 = performance.now();
  if (!instance.exports.memory) throw new Error('no memory export');
  return { totalMs: t1 - t0 };
}
""" % WASM_IMPORTS

TIME_PEER = """
async ({ js, css }) => {
  const text = await (await fetch(js, { cache: 'no-store' })).text();
  const cssText = await (await fetch(css, { cache: 'no-store' })).text();
  const marker = text.lastIndexOf('export{');
  const end = text.indexOf('}', marker);
  const exported = text.slice(marker + 'export{'.length, end).split(' as ')[0];
  const asFunction = text.slice(0, marker) + 'return ' + exported + ';' + text.slice(end + 1);
  const t0 = performance.now();
  const f = new Function(asFunction);
  const t1 = performance.now();
  const url = URL.createObjectURL(new Blob([text], { type: 'text/javascript' }));
  const t2 = performance.now();
  const mod = await import(url);
  const t3 = performance.now();
  if (typeof f !== 'function' || typeof mod.default.render !== 'function') throw new Error('not the widget');
  const style = document.createElement('style');
  style.textContent = cssText;
  document.head.append(style);
  const el = document.createElement('div');
  el.style.cssText = 'width:600px;height:300px';
  document.body.append(el);
  const values = { width: 600, height: 300 };
  const model = { get: (k) => values[k], set: (k, v) => { values[k] = v; }, on() {}, off() {}, save_changes() {}, send() {} };
  const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
  const t4 = performance.now();
  await mod.default.render({ model, el });
  const deadline = t4 + 30000;
  while (!el.querySelector('.tl-canvas')) {
    if (performance.now() > deadline) throw new Error('tldraw did not render');
    await frame();
  }
  await frame();
  const t5 = performance.now();
  return { compileMs: t1 - t0, importMs: t3 - t2, renderMs: t5 - t4 };
}
"""

FIRST_VISIT = """
async () => {
  await touchtracker.ready;
  const ready = performance.now();
  await navigator.serviceWorker.ready;
  return { readyMs: ready };
}
"""

RESOURCES = """
() => [...performance.getEntriesByType('navigation'), ...performance.getEntriesByType('resource')].map((e) => ({
  url: e.name, transferSize: e.transferSize, encodedBodySize: e.encodedBodySize, decodedBodySize: e.decodedBodySize,
}))
"""


def gzip9(data):
    return len(gzip.compress(data, compresslevel=9, mtime=0))


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@contextlib.contextmanager
def touchtracker_server(binary, web, wasm=None):
    """`binary serve` on loopback with a copy of WEB (WASM in place of its module) and a fresh
    SQLite database; yields its URL."""
    with tempfile.TemporaryDirectory() as root:
        root = pathlib.Path(root)
        shutil.copytree(web, root / "web")
        if wasm:
            shutil.copy(wasm, root / "web" / "touchtracker.wasm")
        port = free_port()
        log = open(root / "server.log", "wb")
        process = subprocess.Popen(
            [binary, "serve", "--host", "127.0.0.1", "--port", str(port),
             "--database", str(root / "drawings.sqlite"), "--web-root", str(root / "web")],
            stdout=log, stderr=subprocess.STDOUT,
        )
        url = f"http://127.0.0.1:{port}"
        try:
            wait_until_serving(process, url, root / "server.log", "download_cost")
            yield url
        finally:
            process.terminate()
            process.wait(timeout=30)
            log.close()


class NoStoreHandler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {".html": "text/html", ".js": "text/javascript", ".css": "text/css",
                      ".wasm": "application/wasm", "": "application/octet-stream"}

    def end_headers(self):
        self.send_header("Cache-Control", "no-store")
        super().end_headers()

    def log_message(self, *args):
        pass


@contextlib.contextmanager
def static_server(directory):
    handler = lambda *a, **k: NoStoreHandler(*a, directory=str(directory), **k)  # noqa: E731
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def fetch_peer(cache):
    """The peer's files as {name: bytes}, or (None, why)."""
    cache = pathlib.Path(cache)
    cache.mkdir(parents=True, exist_ok=True)
    wheels = sorted(cache.glob(f"{PEER_PACKAGE}-{PEER_VERSION}-*.whl"))
    if not wheels:
        done = subprocess.run(
            [sys.executable, "-m", "pip", "download", "--no-deps", "--disable-pip-version-check",
             f"{PEER_PACKAGE}=={PEER_VERSION}", "-d", str(cache)],
            capture_output=True, text=True, timeout=600,
        )
        wheels = sorted(cache.glob(f"{PEER_PACKAGE}-{PEER_VERSION}-*.whl"))
        if done.returncode != 0 or not wheels:
            return None, f"pip download {PEER_PACKAGE}=={PEER_VERSION} failed: {(done.stderr or done.stdout).strip()[-500:]}"
    try:
        with zipfile.ZipFile(wheels[0]) as wheel:
            return {name: wheel.read(name) for name in PEER_FILES}, wheels[0].name
    except (KeyError, zipfile.BadZipFile) as error:
        return None, f"{wheels[0].name}: {error}"


def first_visit(playwright, url):
    """Every request of a first visit (a fresh browser), and the distinct files of the page."""
    browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox"])
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    requests = []

    def finished(request):
        response = request.response()
        sizes = request.sizes()
        requests.append({
            "url": request.url, "method": request.method, "type": request.resource_type,
            "fromServiceWorker": request.service_worker is not None,
            "status": response.status if response else None,
            "contentEncoding": (response.headers.get("content-encoding") if response else None),
            "responseBodySize": sizes["responseBodySize"],
        })

    context.on("requestfinished", finished)
    page = context.new_page()
    started = time.monotonic()
    page.goto(url + "/")
    visit = page.evaluate(FIRST_VISIT)
    page.wait_for_load_state("networkidle")
    time.sleep(2)  # idle-time fetches, the service worker's caching
    resources = page.evaluate(RESOURCES)
    visit["wallSeconds"] = time.monotonic() - started
    browser.close()
    return requests, resources, visit


def measure_files(url, requests):
    """Each distinct same-origin file the visit fetched (not the API), raw and gzip -9, with
    the Content-Encoding the server sends when asked for gzip or br."""
    paths = []
    for request in requests:
        parsed = urllib.parse.urlparse(request["url"])
        if request["url"].startswith(url) and request["method"] == "GET" and not parsed.path.startswith("/api/"):
            path = parsed.path
            if path not in paths:
                paths.append(path)
    files = []
    for path in paths:
        asked = urllib.request.Request(url + path, headers={"Accept-Encoding": "gzip, br"})
        with urllib.request.urlopen(asked, timeout=30) as response:
            body = response.read()
            encoding = response.headers.get("Content-Encoding")
        raw = body if not encoding else None
        if raw is None:
            with urllib.request.urlopen(url + path, timeout=30) as response:
                raw = response.read()
        files.append({"path": path, "rawBytes": len(raw), "gzipBytes": gzip9(raw),
                      "sentBytes": len(body), "contentEncoding": encoding})
    return files


def launch(playwright, eager=False):
    args = ["--no-sandbox"]
    if eager:
        args.append("--js-flags=--no-wasm-lazy-compilation")
    return playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=args)


# tldraw waits for its four fonts (from cdn.tldraw.com) before it renders; unreachable here,
# each is answered with this one (Debian's fonts-dejavu-core), not counted in its bytes.
STAND_IN_FONT = pathlib.Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")


def in_fresh_browser(playwright, url, script, argument, eager=False):
    """SCRIPT(ARGUMENT) in a blank page of a browser of its own; requests beyond loopback are
    aborted (fonts answered with STAND_IN_FONT) and listed in the result's `elsewhere`."""
    browser = launch(playwright, eager)
    page = browser.new_page()
    elsewhere = []

    def route(route):
        address = route.request.url
        if address.startswith("http://127.0.0.1"):
            return route.continue_()
        elsewhere.append(address)
        if address.endswith(".woff2") and STAND_IN_FONT.exists():
            return route.fulfill(body=STAND_IN_FONT.read_bytes(), content_type="font/ttf",
                                 headers={"Access-Control-Allow-Origin": "*"})
        return route.abort()

    page.route("**/*", route)
    page.goto(url + "/blank.html")
    result = page.evaluate(script, argument)
    browser.close()
    if elsewhere:
        result["elsewhere"] = elsewhere
    return result


def spread(values):
    return {"median": statistics.median(values), "min": min(values), "max": max(values)}


def derive(result):
    """max_bytes by the rule: the smaller of what the download share and the start share allow,
    solved for the wasm's raw size with this run's gzip ratio and compile time per byte,
    rounded down to a whole KB."""
    download, peer = result["download"], result["peer"]
    wasm_raw = download["wasm"]["rawBytes"]
    gzip_ratio = download["wasm"]["gzipBytes"] / wasm_raw
    others_gzip = download["total"]["gzipBytes"] - download["wasm"]["gzipBytes"]
    allowed_gzip = DOWNLOAD_SHARE * peer["gzipBytes"]
    by_download = (allowed_gzip - others_gzip) / gzip_ratio
    # The start ratio within each run, its median: ours (eager compile + instantiate) / peer import.
    start_ratio = result["ratios"]["wasmEagerOverPeerImport"]["median"]
    by_start = wasm_raw * START_SHARE / start_ratio
    limit = min(by_download, by_start)
    max_bytes = int(limit // 1024) * 1024
    return {
        "maxBytes": max_bytes,
        "maxKB": max_bytes // 1024,
        "rule": {
            "downloadShare": DOWNLOAD_SHARE, "startShare": START_SHARE,
            "text": "the page's whole first download (gzip -9) at most downloadShare of the peer bundle's; "
                    "the wasm's compile (every function) and instantiate at most startShare of the peer's import "
                    "(parse, compile, top level), as medians of same-run ratios; max_bytes is the smaller raw size "
                    "either allows, rounded down to a whole KB",
        },
        "byDownloadBytes": round(by_download),
        "byStartBytes": round(by_start),
        "binding": "download" if by_download <= by_start else "start",
        "inputs": {
            "wasmRawBytes": wasm_raw, "wasmGzipBytes": download["wasm"]["gzipBytes"], "wasmGzipRatio": round(gzip_ratio, 4),
            "otherFilesGzipBytes": others_gzip, "peerGzipBytes": peer["gzipBytes"],
            "startRatioMedian": start_ratio,
        },
        "currentWasmFits": wasm_raw <= max_bytes,
        "headroomBytes": max_bytes - wasm_raw,
    }


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--server", required=True, help="the touchtracker binary (`serve` hosts the page)")
    parser.add_argument("--web", default=str(ROOT / "Web"))
    parser.add_argument("--wasm", help="the module to serve instead of WEB/touchtracker.wasm")
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--peer-cache", default=os.path.join(tempfile.gettempdir(), "touchtracker-peer"))
    parser.add_argument("--out")
    parser.add_argument("--derive", help="write the derived budget (and the measurement) to this file")
    args = parser.parse_args()
    wasm_path = pathlib.Path(args.wasm or pathlib.Path(args.web) / "touchtracker.wasm")

    peer_files, peer_source = fetch_peer(args.peer_cache)
    if peer_files is None:
        print(f"download_cost: the peer could not be fetched ({peer_source}): only our side is measured, "
              "and nothing is derived", file=sys.stderr)

    result = {
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "machine": {"cpus": os.cpu_count(), "loadavg": os.getloadavg()},
        "runs": args.runs,
    }
    with tempfile.TemporaryDirectory() as timing_root, sync_playwright() as playwright:
        timing_root = pathlib.Path(timing_root)
        (timing_root / "blank.html").write_bytes(BLANK)
        shutil.copy(wasm_path, timing_root / "touchtracker.wasm")
        if peer_files:
            (timing_root / "peer.js").write_bytes(peer_files[PEER_FILES[0]])
            (timing_root / "peer.css").write_bytes(peer_files[PEER_FILES[1]])

        print("download_cost: a first visit to touchtracker serve", file=sys.stderr)
        with touchtracker_server(args.server, args.web, args.wasm) as url:
            requests, resources, visit = first_visit(playwright, url)
            files = measure_files(url, requests)
        for request in requests:
            request["url"] = request["url"].replace(url, "")
        for resource in resources:
            resource["url"] = resource["url"].replace(url, "")
        wasm_file = next(f for f in files if f["path"].endswith("/touchtracker.wasm"))
        result["chromium"] = None
        result["download"] = {
            "server": "touchtracker serve (sends no Content-Encoding; gzip is gzip -9 of each file, as a CDN would send)",
            "contentEncodings": sorted({str(f["contentEncoding"]) for f in files}),
            "files": files,
            "total": {"files": len(files), "rawBytes": sum(f["rawBytes"] for f in files),
                      "gzipBytes": sum(f["gzipBytes"] for f in files)},
            "wasm": {"rawBytes": wasm_file["rawBytes"], "gzipBytes": wasm_file["gzipBytes"]},
            "requests": requests,
            "resourceTiming": resources,
            "pageReadyMs": visit["readyMs"],
        }
        if peer_files:
            result["peer"] = {
                "package": f"{PEER_PACKAGE}=={PEER_VERSION} (PyPI, {peer_source})",
                "files": [{"path": name, "rawBytes": len(data), "gzipBytes": gzip9(data)} for name, data in peer_files.items()],
                "note": "the bundle alone: its fonts, icons and translations come from cdn.tldraw.com at run time (not counted)",
            }
            result["peer"]["rawBytes"] = sum(f["rawBytes"] for f in result["peer"]["files"])
            result["peer"]["gzipBytes"] = sum(f["gzipBytes"] for f in result["peer"]["files"])
        else:
            result["peer"] = {"fetched": False, "why": peer_source}

        runs = []
        with static_server(timing_root) as timing:
            probe = launch(playwright)
            result["chromium"] = probe.version
            probe.close()
            for run in range(args.runs):
                steps = [
                    ("wasm", lambda: in_fresh_browser(playwright, timing, TIME_WASM_BYTES, timing + "/touchtracker.wasm")),
                    ("wasmEager", lambda: in_fresh_browser(playwright, timing, TIME_WASM_BYTES, timing + "/touchtracker.wasm", eager=True)),
                    ("wasmStreaming", lambda: in_fresh_browser(playwright, timing, TIME_WASM_STREAMING, timing + "/touchtracker.wasm")),
                    ("wasmStreamingEager", lambda: in_fresh_browser(playwright, timing, TIME_WASM_STREAMING, timing + "/touchtracker.wasm", eager=True)),
                ]
                if peer_files:
                    steps.append(("peer", lambda: in_fresh_browser(playwright, timing, TIME_PEER,
                                                                   {"js": timing + "/peer.js", "css": timing + "/peer.css"})))
                shift = run % len(steps)
                steps = steps[shift:] + steps[:shift]
                measured = {name: step() for name, step in steps}
                runs.append(measured)
                print(f"download_cost: run {run + 1}/{args.runs}: " + json.dumps(measured), file=sys.stderr)
    result["timingRuns"] = runs
    timings = {
        "wasmCompileMs": spread([r["wasm"]["compileMs"] for r in runs]),
        "wasmInstantiateMs": spread([r["wasm"]["instantiateMs"] for r in runs]),
        "wasmTotalMs": spread([r["wasm"]["totalMs"] for r in runs]),
        "wasmEagerCompileMs": spread([r["wasmEager"]["compileMs"] for r in runs]),
        "wasmEagerInstantiateMs": spread([r["wasmEager"]["instantiateMs"] for r in runs]),
        "wasmEagerTotalMs": spread([r["wasmEager"]["totalMs"] for r in runs]),
        "wasmStreamingMs": spread([r["wasmStreaming"]["totalMs"] for r in runs]),
        "wasmStreamingEagerMs": spread([r["wasmStreamingEager"]["totalMs"] for r in runs]),
    }
    result["timings"] = timings
    if peer_files:
        timings["peerCompileMs"] = spread([r["peer"]["compileMs"] for r in runs])
        timings["peerImportMs"] = spread([r["peer"]["importMs"] for r in runs])
        timings["peerRenderMs"] = spread([r["peer"]["renderMs"] for r in runs])
        download, peer = result["download"], result["peer"]
        result["ratios"] = {
            "downloadGzipOursOverPeer": round(download["total"]["gzipBytes"] / peer["gzipBytes"], 4),
            "downloadRawOursOverPeer": round(download["total"]["rawBytes"] / peer["rawBytes"], 4),
            "wasmGzipOverPeerGzip": round(download["wasm"]["gzipBytes"] / peer["gzipBytes"], 4),
            "wasmOverPeerImport": spread([r["wasm"]["totalMs"] / r["peer"]["importMs"] for r in runs]),
            "wasmEagerOverPeerImport": spread([r["wasmEager"]["totalMs"] / r["peer"]["importMs"] for r in runs]),
            "wasmStreamingEagerOverPeerImport": spread([r["wasmStreamingEager"]["totalMs"] / r["peer"]["importMs"] for r in runs]),
            "wasmEagerOverPeerCompile": spread([r["wasmEager"]["totalMs"] / r["peer"]["compileMs"] for r in runs]),
        }
        result["budget"] = derive(result)

    if args.out:
        pathlib.Path(args.out).write_text(json.dumps(result, indent=1) + "\n")
    summary = {k: v for k, v in result.items() if k not in ("timingRuns",)}
    summary["download"] = {k: v for k, v in result["download"].items() if k not in ("requests", "resourceTiming", "files")}
    print(json.dumps(summary, indent=1))

    if args.derive:
        if "budget" not in result:
            raise SystemExit("download_cost: no peer, so no budget derived; the budget file is unchanged")
        budget = result["budget"]
        record = {
            "maxBytes": budget["maxBytes"],
            "derivedBy": "python3 Benchmarks/browser/download_cost.py --derive (docs/DESIGN.md, \"The wasm's budget\")",
            "date": result["date"],
            "chromium": result["chromium"],
            "machine": result["machine"],
            "runs": result["runs"],
            "rule": budget["rule"],
            "byDownloadBytes": budget["byDownloadBytes"],
            "byStartBytes": budget["byStartBytes"],
            "binding": budget["binding"],
            "inputs": budget["inputs"],
            "peer": {k: result["peer"][k] for k in ("package", "rawBytes", "gzipBytes", "note")},
            "ours": {"files": result["download"]["total"]["files"], "rawBytes": result["download"]["total"]["rawBytes"],
                     "gzipBytes": result["download"]["total"]["gzipBytes"]},
            "timings": {k: result["timings"][k] for k in ("wasmEagerTotalMs", "wasmTotalMs", "wasmStreamingMs",
                                                         "peerCompileMs", "peerImportMs", "peerRenderMs")},
            "ratios": result["ratios"],
        }
        # maxBytes first and on a line of its own: Scripts/build-wasm.sh reads it with sed.
        pathlib.Path(args.derive).write_text(json.dumps(record, indent=1) + "\n")
        print(f"download_cost: wrote {args.derive}: maxBytes {budget['maxBytes']} ({budget['maxKB']} KB; "
              f"by download {budget['byDownloadBytes']}, by start {budget['byStartBytes']}; "
              f"the module is {budget['inputs']['wasmRawBytes']} B)", file=sys.stderr)


if __name__ == "__main__":
    main()
