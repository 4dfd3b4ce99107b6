#!/usr/bin/env python3
"""Soak test of sync: randomized schedules of pages drawing, deleting, going
offline, reloading, with the server SIGKILLed and restarted, on one drawing.

Not a test (pytest does not collect it, CI does not run it): it measures the
targets of the sync rebuild (docs/DESIGN.md, "Sync: the client's contract"):

- no conflict banner ("... changed somewhere else ...") on any page, ever;
- no lost change: every line a page drew, unless someone deleted it, is on
  the server at the end (and no deleted line comes back);
- every page converges on the server's drawing (its lines, without ids, and
  nothing pending) within 30 s of the last restart or reconnection.

Each schedule gets its own server (`touchtracker serve` on loopback, SQLite in
a temporary directory) and 2-4 pages, each in its own browser context (its own
IndexedDB and service worker), all on the drawing "soak". It runs 20-40 random
steps: a page draws a line (real touches, Tests/e2e/touchscreen.py), deletes a
line (tap it, tap "Delete" in its menu), goes offline or back online
(context.set_offline plus closing the live socket), reloads, or waits; the
server is SIGKILLed once or twice and restarted on the same port and database
(half the schedules a few steps later as well, all of them at the end: the
last outage lasts to the end of the steps). Then everyone comes back (the
server restarted, the pages still offline back online, in a random order) and
the time from the last of these until every page holds the server's drawing
(its lines, without ids) with nothing pending is the convergence time. Every line is drawn in its own slot, so its begin and end
coordinates identify it.

    python3 Benchmarks/sync/soak.py --schedules 5 --seed 1 \\
        --binary .build/debug/touchtracker --web-root Web

Schedule i of a run with --seed S uses the seed S+i: `--seed S+i --schedules 1`
replays its steps (the timing, and so the interleaving, differs). A failing
schedule's steps and what each page and the server held are written to
--out (a temporary directory unless given). Exit status: 0 when every schedule
passed, 1 when any showed a conflict, lost a change, brought a deleted line
back or did not converge, 2 when only the harness itself failed somewhere.
"""

import argparse
import json
import os
import pathlib
import random
import signal
import sys
import tempfile
import time
import traceback

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "Tests" / "e2e"))

import pytest  # noqa: E402  (conftest's Server reports failures with pytest.fail)
from playwright.sync_api import Error as PlaywrightError  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402

from conftest import CHROMIUM, Server  # noqa: E402
from test_saving import request  # noqa: E402
from sync_pages import BANNER_LOG, CONFLICT_WORDS, DESKTOP, EMPTY, banner_now, banners, cut_off  # noqa: E402
from touchscreen import Touchscreen, without_ids  # noqa: E402

DRAWING = "soak"
CONVERGENCE_DEADLINE = 30.0  # seconds from "back"; later counts as a failure
STEP_TIMEOUT_MS = 20_000  # Playwright's default timeout for every action of a page

# Line slots: 3 columns x 13 rows of horizontal lines, 30 points apart (the selection radius is 20),
# clear of the toolbar and zoom buttons (top 50 points) and of the banner and notices (bottom).
COLUMNS = [(30, 250), (290, 510), (550, 770)]
ROWS = [80 + 30 * row for row in range(13)]  # 80 ... 440

KEPT_LOCALLY = "(() => { const l = touchtracker.saving().local; return l === undefined || l === 'saved'; })()"
SNAPSHOT = "({ document: touchtracker.document(), saving: touchtracker.saving(), live: touchtracker.live().status })"
READY = (
    "Promise.race([touchtracker.ready.then(() => true),"
    " new Promise((resolve) => setTimeout(() => resolve(false), 20000))])"
)


class Failed(Exception):
    pass


def key(line):
    """A line's identity: its begin and end (each slot is used once in a schedule)."""
    return (line["begin"]["x"], line["begin"]["y"], line["end"]["x"], line["end"]["y"])


def lines_of(document):
    return [] if document is None else without_ids(document)["lines"]


class SoakServer(Server):
    """conftest's Server (restartable on the same port and database), without pytest around it."""

    def start(self):
        try:
            super().start()
        except pytest.fail.Exception as error:
            raise Failed(str(error)) from None

    def up(self):
        return self.process is not None and self.process.poll() is None

    def sigkill(self):
        if self.process is not None:
            self.process.kill()
            self.process.wait()
        self.process = None

    def cleanup(self):
        if self.process is not None and self.process.poll() is None:
            try:
                os.kill(self.process.pid, signal.SIGCONT)
            except ProcessLookupError:
                pass
        self.stop()

    def document(self):
        """The stored drawing (ids kept), or None (down, missing, or not answering)."""
        if not self.up():
            return None
        try:
            status, _, body = request(self, "GET", f"/api/drawings/{DRAWING}")
        except OSError:
            return None
        return json.loads(body) if status == 200 else None


class Pane:
    """One page in its own browser context (as sync_pages' `open_on`), its banners logged."""

    def __init__(self, browser, name, url):
        self.name = name
        self.offline = False
        self.errors = []
        self.dialogs = []
        self.context = browser.new_context(has_touch=True, bypass_csp=True, **DESKTOP)
        self.context.set_default_timeout(STEP_TIMEOUT_MS)
        self.context.add_init_script("localStorage.setItem('touchtracker.helpSeen', '1')")
        self.context.add_init_script(BANNER_LOG)
        self.page = self.context.new_page()
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))
        self.page.on("dialog", self._dialog)
        self.page.goto(url)
        self._ready()
        # The page's files kept by its service worker, so that a reload offline or with the server down starts.
        self.page.wait_for_function("navigator.serviceWorker.controller !== null", timeout=STEP_TIMEOUT_MS)

    def _dialog(self, dialog):
        self.dialogs.append(dialog.message)
        try:
            dialog.dismiss()
        except PlaywrightError:
            pass

    def _ready(self):
        if not self.page.evaluate(READY):
            raise Failed(f"{self.name}: touchtracker.ready did not resolve within 20 s")
        self.touch = Touchscreen(self.page)

    def reload(self):
        self.page.reload()
        self._ready()

    def snapshot(self):
        return self.page.evaluate(SNAPSHOT)

    def lines(self):
        return lines_of(self.page.evaluate("touchtracker.document()"))

    def conflicts(self):
        """Conflict texts the page showed (its banner log, its banner now, any native dialog)."""
        texts = [entry["text"] for entry in banners(self.page)]
        now = banner_now(self.page)
        if now and now not in texts:
            texts.append(now)
        texts += [f"dialog: {message}" for message in self.dialogs]
        return [text for text in texts if any(words in text for words in CONFLICT_WORDS)]

    def describe(self):
        try:
            state = self.snapshot()
            return {
                "offline": self.offline,
                "saving": state["saving"],
                "live": state["live"],
                "banner": banner_now(self.page),
                "banners": [entry["text"] for entry in banners(self.page)],
                "lines": [list(key(line)) for line in lines_of(state["document"])],
                "errors": self.errors,
            }
        except PlaywrightError as error:
            return {"unreadable": str(error)}

    def close(self):
        try:
            self.context.close()
        except PlaywrightError:
            pass


def wait_until(predicate, within):
    deadline = time.monotonic() + within
    while True:
        if predicate():
            return True
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)


class Schedule:
    def __init__(self, browser, binary, web_root, seed, directory, min_steps, max_steps):
        self.browser = browser
        self.seed = seed
        self.random = random.Random(seed)
        arguments = ["--web-root", str(web_root)] if web_root else []
        self.server = SoakServer(binary, directory / "drawings.sqlite", arguments)
        self.log = []  # the steps as run, with what went wrong in them
        self.anomalies = []  # the harness could not do what a step meant to (not a sync failure by itself)
        self.drawn = {}  # key -> page that drew it
        self.deleted = {}  # key -> page whose delete took it away
        self.on_server = set()  # keys the server was seen holding at some point
        self.panes = []
        self.page_count = self.random.randint(2, 4)
        self.steps = self.random.randint(min_steps, max_steps)
        slots = [(x1, y, x2) for (x1, x2) in COLUMNS for y in ROWS]
        self.random.shuffle(slots)
        # Ends moved by a few points, so that every line of a run is told apart by its coordinates too.
        self.slots = [(x1 + self.random.randint(0, 9), y, x2 - self.random.randint(0, 9)) for x1, y, x2 in slots]

    def note(self, text):
        self.log.append(f"{time.monotonic() - self.started:7.2f}s {text}")

    def anomaly(self, text):
        self.anomalies.append(text)
        self.note(f"  ! {text}")

    # MARK: Steps

    def draw(self, pane):
        if not self.slots:
            return self.pause()
        x1, y, x2 = self.slots.pop()
        self.note(f"{pane.name} draws ({x1},{y})-({x2},{y})")
        pane.touch.line((x1, y), (x2, y))
        wanted = (x1, y, x2, y)
        if wait_until(lambda: wanted in map(key, pane.lines()), 3):
            self.drawn[wanted] = pane.name
        else:
            self.anomaly(f"{pane.name}: the line ({x1},{y})-({x2},{y}) is not on the page after drawing it")

    def delete(self, pane):
        candidates = [line for line in pane.lines() if key(line) in self.drawn and key(line) not in self.deleted]
        if not candidates:
            return self.draw(pane)
        target = self.random.choice(candidates)
        x1, y, x2, _ = key(target)
        self.note(f"{pane.name} deletes ({x1},{y})-({x2},{y})")
        pane.touch.tap(((x1 + x2) / 2, y))
        try:
            # The menu shows once the double-tap interval has run out.
            pane.touch.wait_for("touchtracker.state().menu.length === 1", timeout=5_000)
            state = pane.page.evaluate("({ state: touchtracker.state(), document: touchtracker.document() })")
            index = state["state"]["selectedLine"]
            lines = lines_of(state["document"])
            selected = key(lines[index]) if index is not None and index < len(lines) else None
            item = next(t for t in pane.page.evaluate("touchtracker.texts()") if t["text"] == "Delete")
        except (PlaywrightError, StopIteration):
            self.anomaly(f"{pane.name}: tapping ({x1},{y})-({x2},{y}) opened no Delete menu")
            pane.page.keyboard.press("Escape")
            time.sleep(0.35)  # past the double-tap interval: the next tap is not a double tap (a clear)
            return
        if selected != key(target):
            self.note(f"  the tap selected {selected} instead")
        pane.touch.tap((item["x"], item["y"]))
        pane.touch.settle()
        if selected is not None and wait_until(lambda: selected not in map(key, pane.lines()), 3):
            self.deleted[selected] = pane.name
        else:
            self.anomaly(f"{pane.name}: {selected} still on the page after its Delete")
        time.sleep(0.35)

    def toggle_network(self, pane):
        if pane.offline:
            self.note(f"{pane.name} back online")
            pane.context.set_offline(False)
            pane.offline = False
        else:
            self.note(f"{pane.name} goes offline")
            pane.offline = True
            try:
                cut_off(pane.page)
            except AssertionError as error:
                self.anomaly(f"{pane.name}: {error}")

    def reload(self, pane):
        self.note(f"{pane.name} reloads ({'offline' if pane.offline else 'online'})")
        # What the page holds is in this browser's copy first, as a person's browser keeps it before a reload.
        try:
            pane.touch.wait_for(KEPT_LOCALLY, timeout=10_000)
        except PlaywrightError:
            self.anomaly(f"{pane.name}: its changes were not kept in this browser within 10 s: {pane.describe()}")
        pane.reload()

    def pause(self):
        seconds = self.random.uniform(0.2, 1.5)
        self.note(f"everyone waits {seconds:.1f} s")
        time.sleep(seconds)

    def kill_server(self):
        self.note("server SIGKILLed")
        self.server.sigkill()

    def restart_server(self):
        self.server.start()
        self.note("server restarted (same port, same database)")

    # MARK: The schedule

    def plan_outages(self):
        """One or two (kill, restart) step indices. The last outage starts in the last third of the
        steps and lasts to their end: its restart is part of everyone coming back, so the convergence
        time is always measured from a restart (or a page back online after it). An earlier one lasts
        1-6 steps, the pages going on meanwhile and after."""
        last_kill = self.random.randint(self.steps * 2 // 3, self.steps - 1)
        outages = []
        if self.random.random() < 0.5 and last_kill >= 10:
            kill = self.random.randint(2, last_kill - 8)
            outages.append((kill, kill + self.random.randint(1, 6)))
        outages.append((last_kill, self.steps))  # restarted when everyone comes back
        return outages

    def run(self):
        self.started = time.monotonic()
        result = {"seed": self.seed, "pages": self.page_count, "steps": self.steps}
        try:
            self.server.start()
            status, _, body = request(self.server, "PUT", f"/api/drawings/{DRAWING}", EMPTY)
            if status != 200:
                raise Failed(f"PUT of the empty drawing answered {status}: {body[:200]!r}")
            url = f"{self.server.url}/?drawing={DRAWING}"
            for index in range(self.page_count):
                self.panes.append(Pane(self.browser, f"page {chr(ord('A') + index)}", url))
            for pane in self.panes:
                pane.touch.wait_for("touchtracker.live().status === 'live'", timeout=15_000)
            self.note(f"{self.page_count} pages open and live; {self.steps} steps")

            outages = self.plan_outages()
            kills = {kill for kill, _ in outages}
            restarts = {restart for _, restart in outages}
            result["kills"] = len(outages)
            kinds = ["draw"] * 8 + ["delete"] * 4 + ["network"] * 3 + ["reload"] * 2 + ["pause"] * 2
            for step in range(self.steps):
                if step in restarts and not self.server.up():
                    self.restart_server()
                if step in kills and self.server.up():
                    self.kill_server()
                kind = self.random.choice(kinds)
                pane = self.random.choice(self.panes)
                if kind == "pause":
                    self.pause()
                else:
                    {"draw": self.draw, "delete": self.delete, "network": self.toggle_network, "reload": self.reload}[kind](pane)
                theirs = self.server.document()
                if theirs is not None:
                    self.on_server.update(map(key, lines_of(theirs)))
                time.sleep(self.random.uniform(0, 0.3))

            # Everyone back: the server up, every page online, in a random order; "back" is the last of these.
            back = [("server", None)] if not self.server.up() else []
            back += [("online", pane) for pane in self.panes if pane.offline]
            self.random.shuffle(back)
            back_at = time.monotonic()
            for what, pane in back:
                if what == "server":
                    self.restart_server()
                else:
                    self.toggle_network(pane)
                back_at = time.monotonic()
            self.note(f"everyone back ({', '.join(w if p is None else p.name for w, p in back) or 'nothing to do'})")
            result["back"] = [what if pane is None else f"{pane.name} online" for what, pane in back]
            result.update(self.converge(back_at))
        except (Failed, PlaywrightError, AssertionError, OSError) as error:
            self.note(f"harness error: {error}")
            result["error"] = f"{type(error).__name__}: {error}"
            result["traceback"] = traceback.format_exc()
        finally:
            result["log"] = self.log
            result["anomalies"] = self.anomalies
            try:
                result["final"] = {pane.name: pane.describe() for pane in self.panes}
                theirs = self.server.document()
                result["final"]["server"] = None if theirs is None else [list(key(line)) for line in lines_of(theirs)]
            except Exception as error:  # noqa: BLE001  (a description must not hide the cleanup)
                result.setdefault("final", {})["unreadable"] = str(error)
            for pane in self.panes:
                pane.close()
            self.server.cleanup()
        return result

    def converge(self, back_at):
        """Polls the server and every page until they agree with nothing pending, or the deadline."""
        result = {"converged": False}
        while True:
            theirs = self.server.document()
            states = [pane.snapshot() for pane in self.panes]
            now = time.monotonic()
            if theirs is not None and all(
                lines_of(state["document"]) == lines_of(theirs) and state["saving"]["pending"] == 0 for state in states
            ):
                result["converged"] = True
                result["convergence_ms"] = (now - back_at) * 1000
                self.note(f"converged after {result['convergence_ms']:.0f} ms")
                break
            if now - back_at > CONVERGENCE_DEADLINE:
                self.note(f"not converged within {CONVERGENCE_DEADLINE:g} s")
                break
            time.sleep(0.05)

        # A late resend must not change anything once everyone agrees.
        if result["converged"]:
            time.sleep(1.0)
            theirs = self.server.document()
            later = [lines_of(pane.snapshot()["document"]) for pane in self.panes]
            if theirs is None or any(lines != lines_of(theirs) for lines in later):
                result["unstable"] = True
                self.note("the drawing changed again after everyone agreed")

        theirs = self.server.document()
        held = set(map(key, lines_of(theirs)))
        expected = set(self.drawn) - set(self.deleted)
        lost = sorted(expected - held)
        result["drawn"] = len(self.drawn)
        result["deleted"] = len(self.deleted)
        result["server_lines"] = len(held)
        result["lost"] = [
            {"line": list(line), "drawn_by": self.drawn[line], "seen_on_server": line in self.on_server} for line in lost
        ]
        result["came_back"] = [
            {"line": list(line), "deleted_by": self.deleted[line]} for line in sorted(held & set(self.deleted))
        ]
        result["unexpected"] = [list(line) for line in sorted(held - set(self.drawn) - set(self.deleted))]
        result["conflicts"] = {pane.name: pane.conflicts() for pane in self.panes if pane.conflicts()}
        result["page_errors"] = {pane.name: pane.errors for pane in self.panes if pane.errors}
        return result


def failures(result):
    """What makes a schedule fail (sync, not the harness)."""
    found = []
    if result.get("conflicts"):
        found.append(f"conflict banner on {', '.join(result['conflicts'])}")
    if result.get("lost"):
        found.append(f"{len(result['lost'])} lost")
    if result.get("came_back"):
        found.append(f"{len(result['came_back'])} deleted line(s) came back")
    if "converged" in result and not result["converged"]:
        found.append(f"not converged within {CONVERGENCE_DEADLINE:g} s")
    if result.get("unstable"):
        found.append("changed again after converging")
    return found


def percentile(values, fraction):
    """Nearest rank."""
    ordered = sorted(values)
    return ordered[max(0, min(len(ordered) - 1, int(-(-fraction * len(ordered) // 1)) - 1))]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--schedules", type=int, default=200, help="how many schedules (default 200)")
    parser.add_argument("--seed", type=int, default=None, help="schedule i uses seed SEED+i (default: from the clock)")
    parser.add_argument(
        "--binary",
        type=pathlib.Path,
        default=ROOT / ".build" / "debug" / "touchtracker",
        help="touchtracker binary (default: .build/debug/touchtracker, i.e. $(swift build --show-bin-path)/touchtracker)",
    )
    parser.add_argument(
        "--web-root",
        type=pathlib.Path,
        default=os.environ.get("TOUCHTRACKER_WEB_ROOT") or None,
        help="passed to `touchtracker serve --web-root` (default: $TOUCHTRACKER_WEB_ROOT, else the binary's own files)",
    )
    parser.add_argument("--min-steps", type=int, default=20)
    parser.add_argument("--max-steps", type=int, default=40)
    parser.add_argument("--time-limit", type=float, default=None, help="start no schedule after this many minutes")
    parser.add_argument("--verbose", action="store_true", help="print every schedule's steps")
    parser.add_argument("--out", type=pathlib.Path, default=None, help="where failing schedules are written (JSON)")
    args = parser.parse_args()

    binary = args.binary if args.binary.is_absolute() else pathlib.Path.cwd() / args.binary
    if not binary.exists():
        parser.error(f"no touchtracker binary at {binary}")
    web_root = None
    if args.web_root:
        web_root = args.web_root.resolve()
        if not (web_root / "touchtracker.wasm").exists():
            parser.error(f"{web_root}/touchtracker.wasm is missing (Scripts/build-wasm.sh)")
    os.environ.pop("TOUCHTRACKER_WEB_ROOT", None)  # conftest's Server would add it a second time
    seed = args.seed if args.seed is not None else int(time.time())
    out = args.out or pathlib.Path(tempfile.mkdtemp(prefix="touchtracker-soak-"))
    out.mkdir(parents=True, exist_ok=True)

    # SIGTERM ends the run as Ctrl-C does: the finally blocks stop the servers and close the browser.
    def terminate(*_):
        raise KeyboardInterrupt()

    signal.signal(signal.SIGTERM, terminate)

    print(
        f"soak: {args.schedules} schedules, seed {seed}, binary {binary}, web root {web_root or '(built in)'}, "
        f"failures to {out}",
        flush=True,
    )
    results = []
    started = time.monotonic()
    interrupted = False
    with sync_playwright() as playwright:
        browser = None
        try:
            for index in range(args.schedules):
                if args.time_limit is not None and time.monotonic() - started > args.time_limit * 60:
                    print(f"time limit of {args.time_limit:g} min reached", flush=True)
                    break
                if browser is None or not browser.is_connected() or index % 25 == 0:
                    if browser is not None:
                        try:
                            browser.close()
                        except PlaywrightError:
                            pass
                    browser = playwright.chromium.launch(
                        executable_path=CHROMIUM, headless=True, args=["--no-sandbox"]
                    )
                with tempfile.TemporaryDirectory(prefix="touchtracker-soak-") as directory:
                    schedule = Schedule(
                        browser, binary, web_root, seed + index, pathlib.Path(directory), args.min_steps, args.max_steps
                    )
                    result = schedule.run()
                results.append(result)
                found = failures(result)
                conv = f"{result['convergence_ms']:.0f} ms" if result.get("converged") else "-"
                status = "FAIL: " + "; ".join(found) if found else ("ERROR: " + result["error"] if "error" in result else "ok")
                print(
                    f"[{index + 1}/{args.schedules}] seed {result['seed']}: {result['pages']} pages, "
                    f"{result['steps']} steps, {result.get('kills', 0)} kill(s), drawn {result.get('drawn', '-')}, "
                    f"deleted {result.get('deleted', '-')}, server {result.get('server_lines', '-')}, "
                    f"convergence {conv}, anomalies {len(result['anomalies'])}: {status}",
                    flush=True,
                )
                if args.verbose:
                    print("\n".join("    " + line for line in result["log"]), flush=True)
                if found or "error" in result:
                    path = out / f"schedule-{result['seed']}.json"
                    path.write_text(json.dumps(result, indent=2))
                    print(f"    details: {path}", flush=True)
        except KeyboardInterrupt:
            interrupted = True
            print("interrupted", flush=True)
        finally:
            if browser is not None:
                try:
                    browser.close()
                except PlaywrightError:
                    pass

    wall = time.monotonic() - started
    times = [r["convergence_ms"] for r in results if r.get("converged")]
    conflicts = sum(len(texts) for r in results for texts in r.get("conflicts", {}).values())
    lost = sum(len(r.get("lost", [])) for r in results)
    came_back = sum(len(r.get("came_back", [])) for r in results)
    unconverged = sum(1 for r in results if "converged" in r and not r["converged"])
    errors = sum(1 for r in results if "error" in r)
    failed = [r["seed"] for r in results if failures(r)]
    print()
    print(f"schedules run:          {len(results)}{' (interrupted)' if interrupted else ''}, seeds {seed}..{seed + len(results) - 1}")
    print(f"conflict dialogs:       {conflicts}")
    print(f"lost changes:           {lost}")
    print(f"deleted lines back:     {came_back}")
    print(f"not converged (30 s):   {unconverged}")
    print(f"harness errors:         {errors}")
    print(f"lines drawn / deleted:  {sum(r.get('drawn', 0) for r in results)} / {sum(r.get('deleted', 0) for r in results)}")
    print(f"server kills:           {sum(r.get('kills', 0) for r in results)}")
    if times:
        print(
            f"convergence (ms):       p50 {percentile(times, 0.5):.0f}, p95 {percentile(times, 0.95):.0f}, "
            f"max {max(times):.0f} (over {len(times)} converged schedules)"
        )
    else:
        print("convergence (ms):       none converged")
    print(f"wall time:              {wall:.0f} s ({wall / 60:.1f} min)")
    if failed:
        print(f"failing seeds:          {failed} (details in {out})")
    if failed:
        return 1
    if errors or interrupted:
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
