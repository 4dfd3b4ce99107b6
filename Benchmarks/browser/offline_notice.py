"""How soon a page says it is offline when the server stops answering: from
SIGSTOP of `touchtracker serve` (its sockets stay open, so the browser still
believes it is online) to the banner "Offline — 1 change waits in this
browser", with a line drawn just after the stop, in headless Chromium.

    python3 Benchmarks/browser/offline_notice.py --binary BIN [--web-root Web] [--rounds 8] [--out RESULT.json]

The page's heartbeat pings every 0.7 s and gives up after 2 s without an
answer (Web/sync/live.js), so the aim is "said within 2 s"; the figure
reported is each round's delay, and its ratio to that 2 s deadline. After each
round the server is resumed and the page must deliver the line (a round that
loses it fails the run). Only loopback, one server, bounded rounds.
"""

import argparse
import json
import os
import pathlib
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "Tests" / "e2e"))

from playwright.sync_api import sync_playwright  # noqa: E402

from sync_pages import DESKTOP, SAVED, open_on, wait_for  # noqa: E402

DEADLINE_S = 2.0
OFFLINE = (
    "(() => { const b = document.getElementById('banner'); const t = b.hidden ? '' : b.textContent;"
    " return t.includes('Offline') && t.includes('1 change') && touchtracker.saving().offline; })()"
)


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def start_server(binary, web_root, directory):
    port = free_port()
    command = [str(binary), "serve", "--port", str(port), "--database", str(directory / "drawings.sqlite"),
               "--web-root", str(web_root)]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    for _ in range(300):
        try:
            urllib.request.urlopen(f"{url}/healthz", timeout=1).read()
            return process, url
        except OSError:
            time.sleep(0.1)
    process.kill()
    raise SystemExit("touchtracker serve did not answer within 30 s")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--binary", required=True)
    parser.add_argument("--web-root", default=str(ROOT / "Web"))
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--out")
    options = parser.parse_args()

    delays = []
    with tempfile.TemporaryDirectory() as directory, sync_playwright() as playwright:
        process, url = start_server(options.binary, options.web_root, pathlib.Path(directory))
        browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", headless=True, args=["--no-sandbox"])
        try:
            page, touch = open_on(browser, f"{url}/?drawing=offline-bench", DESKTOP)
            wait_for(touch, "touchtracker.live().status === 'live'", "the page went live", 15_000)
            for round_index in range(options.rounds):
                y = 60 + 40 * round_index
                time.sleep(1)  # a few heartbeats answered: the socket is settled
                stopped_at = page.evaluate("Date.now()")
                os.kill(process.pid, signal.SIGSTOP)
                try:
                    touch.line((100, y), (300, y))
                    page.wait_for_function(OFFLINE, timeout=30_000, polling=20)
                    delays.append((page.evaluate("Date.now()") - stopped_at) / 1000)
                finally:
                    os.kill(process.pid, signal.SIGCONT)
                wait_for(touch, SAVED, f"round {round_index + 1}: the line reached the server", 30_000)
                wait_for(touch, "touchtracker.live().status === 'live'", "the page went live again", 30_000)
            page.context.close()
        finally:
            browser.close()
            process.terminate()
            process.wait(timeout=10)

    delays.sort()
    result = {
        "rounds": len(delays),
        "deadline_s": DEADLINE_S,
        "median_s": round(statistics.median(delays), 3),
        "p90_s": round(delays[min(len(delays) - 1, int(0.9 * len(delays)))], 3),
        "max_s": round(delays[-1], 3),
        "median_vs_deadline": round(statistics.median(delays) / DEADLINE_S, 2),
        "delays_s": [round(delay, 3) for delay in delays],
    }
    print(json.dumps(result, indent=2))
    if options.out:
        pathlib.Path(options.out).write_text(json.dumps(result, indent=2) + "\n")


if __name__ == "__main__":
    main()
