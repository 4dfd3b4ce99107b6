"""The "⋯" menu's list of drawings with 20,000 of them, in headless Chromium,
timed by the page's own clock (`performance.now()`, up to the frame after):

- open: from the click on ⋯ to the list shown;
- keystroke, blocked: from a keystroke in the search field to the next frame
  (what typing feels like: the page answers nothing meanwhile);
- keystroke, shown: from a keystroke to the list showing that search's
  drawings (the paged list waits 200 ms after the last keystroke, then asks
  the server).

    python3 Benchmarks/browser/drawings_list.py --binary BIN [--web-root Web]
        [--old-binary OLD --old-web-root OLDWEB] [--count 20000] [--out RESULT.json]

With `--old-binary` and `--old-web-root` (a server and page from before the
paged list: one response of every drawing, filtered in the page) the same
figures are measured for them in the same run, on a database of the same
drawings. The drawings are written straight into each server's SQLite file
(every one empty, a millisecond apart) while it is stopped. Only loopback,
one server at a time, bounded keystrokes.
"""

import argparse
import json
import os
import pathlib
import socket
import sqlite3
import subprocess
import tempfile
import time
import urllib.request
import zlib

from playwright.sync_api import sync_playwright

ROOT = pathlib.Path(__file__).resolve().parents[2]
EMPTY = '{"format":"touchtracker","version":1,"lines":[],"circles":[]}'
KEYS = "123"

# Times, in the page, from a click or keystroke to the frame after the list
# is shown. `shown(text)`: every visible drawing's name holds `text`, and the
# items from before the keystroke (marked stale) are gone unless the page
# filters in place (the old page hides items instead of replacing them).
MEASURE = """async ([action, text, inPlace]) => {
  const list = document.getElementById('drawing-list');
  const frame = () => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
  const shown = () => {
    if (list.hasAttribute('aria-busy')) return false;
    if (!inPlace && list.querySelector('[data-stale]')) return false;
    const items = [...list.querySelectorAll('.drawing-item')].filter((item) => !item.hidden);
    return items.length > 0 && items.every((item) => item.dataset.name.includes(text));
  };
  for (const item of list.querySelectorAll('.drawing-item')) item.dataset.stale = '1';
  const start = performance.now();
  if (action === 'open') {
    list.replaceChildren();
    document.querySelector('#file-menu summary').click();
  } else {
    const field = document.getElementById('drawing-filter');
    field.value = text;
    field.dispatchEvent(new Event('input', { bubbles: true }));
  }
  await frame();
  const blocked = performance.now() - start;
  const deadline = start + 120000;
  while (!shown() && performance.now() < deadline) await frame();
  return { blocked, shown: performance.now() - start, items: list.querySelectorAll('.drawing-item').length };
}"""


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def start(binary, web_root, database):
    port = free_port()
    command = [str(binary), "serve", "--port", str(port), "--database", str(database), "--web-root", str(web_root)]
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


def stop(process):
    process.terminate()
    process.wait(timeout=15)


def fill(database, count):
    """`count` empty drawings `drawing-00001`..., a millisecond apart, the last newest."""
    checksum = zlib.crc32(EMPTY.encode())
    base = time.time() - count / 1000 - 60
    rows = []
    for index in range(1, count + 1):
        stamp = base + index / 1000
        text = time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime(stamp)) + f".{int(stamp * 1000) % 1000:03}"
        rows.append((f"drawing-{index:05}", text))
    with sqlite3.connect(database) as db:
        db.executemany(
            "INSERT INTO drawing (name, revision, isDeleted, lineCount, circleCount, updatedAt, snapshotRevision,"
            " logBytes) VALUES (?, 1, 0, 0, 0, ?, 1, 0)", rows)
        db.executemany("INSERT INTO drawingSnapshot (name, document, checksum) VALUES (?, ?, ?)",
                       [(name, EMPTY, checksum) for name, _ in rows])


def measure(browser, binary, web_root, count, directory, label):
    database = directory / f"{label}.sqlite"
    process, _ = start(binary, web_root, database)  # makes the schema
    stop(process)
    fill(database, count)
    process, url = start(binary, web_root, database)
    try:
        with urllib.request.urlopen(f"{url}/api/drawings/drawing-00001/thumbnail", timeout=30) as response:
            assert response.status == 200
        context = browser.new_context(viewport={"width": 1280, "height": 800})
        context.add_init_script("localStorage.setItem('touchtracker.helpSeen', '1')")
        page = context.new_page()
        page.goto(f"{url}/?drawing=bench-{label}")
        page.evaluate("window.touchtracker.ready")
        in_place = label == "old"
        opened = page.evaluate(MEASURE, ["open", "", in_place])
        keystrokes = []
        for length in range(1, len(KEYS) + 1):
            keystrokes.append(page.evaluate(MEASURE, ["key", KEYS[:length], in_place]))
        context.close()
        return {"open": opened, "keystrokes": keystrokes}
    finally:
        stop(process)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--binary", required=True)
    parser.add_argument("--web-root", default=str(ROOT / "Web"))
    parser.add_argument("--old-binary")
    parser.add_argument("--old-web-root")
    parser.add_argument("--count", type=int, default=20000)
    parser.add_argument("--out")
    options = parser.parse_args()
    result = {"count": options.count}
    with tempfile.TemporaryDirectory() as directory, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", headless=True, args=["--no-sandbox"])
        try:
            runs = [("paged", options.binary, options.web_root)]
            if options.old_binary and options.old_web_root:
                runs.insert(0, ("old", options.old_binary, options.old_web_root))
            for label, binary, web_root in runs:
                result[label] = measure(browser, binary, web_root, options.count, pathlib.Path(directory), label)
        finally:
            browser.close()
    for label in ("old", "paged"):
        if label not in result:
            continue
        run = result[label]
        keys = run["keystrokes"]
        blocked = ", ".join("%.0f" % k["blocked"] for k in keys)
        shown = ", ".join("%.0f" % k["shown"] for k in keys)
        print(f"{label}: open {run['open']['shown']:.0f} ms ({run['open']['items']} items);"
              f" per keystroke blocked {blocked} ms, shown {shown} ms")
    text = json.dumps(result, indent=2)
    if options.out:
        pathlib.Path(options.out).write_text(text + "\n")
    else:
        print(text)


if __name__ == "__main__":
    main()
