"""The page starts without its server (issue 10, item 7): a service worker
keeps the page's files, and a drawing opened before comes back from this
browser's copy, drawable, and reaches the server once it is back."""

import pathlib
import re
import shutil

import pytest

from conftest import VIEWPORT, Server, touchtracker_binary
from test_changes import big_drawing
from test_saving import eventually, line, open_drawing, request, stored, wait_until_saved
from touchscreen import Touchscreen

pytestmark = pytest.mark.server

WEB = pathlib.Path(__file__).resolve().parents[2] / "Web"


def test_the_service_worker_keeps_every_file_the_page_needs():
    listed = set(re.findall(r"^  '([^']+)',$", (WEB / "sw.js").read_text(), re.MULTILINE))
    needed = {
        str(path.relative_to(WEB))
        for path in WEB.rglob("*")
        if path.is_file() and path.name != "sw.js" and path.suffix in {".js", ".css", ".html", ".svg", ".wasm", ".webmanifest"}
        # The engine's example is a page of its own, not the app's.
        and path.relative_to(WEB).parts[0] != "examples"
    }
    assert listed - {"./"} == needed


def test_a_drawing_opened_before_opens_and_draws_while_the_server_is_down(browser, server):
    page, touch = open_drawing(browser, server, "trip")
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    touch.line((100, 100), (300, 100))
    wait_until_saved(touch)

    server.stop()
    page.reload()
    page.evaluate("touchtracker.ready")
    touch = Touchscreen(page)
    assert touch.document()["lines"] == [line(100, 100, 300, 100)], "this browser's copy, without the server"
    touch.line((100, 300), (300, 300))
    assert len(touch.document()["lines"]) == 2
    assert page.errors == []

    server.start()
    page.evaluate("touchtracker.save()")
    eventually(lambda: stored(server, "trip") and len(stored(server, "trip")["lines"]) == 2, within=30)
    assert stored(server, "trip")["lines"] == [line(100, 100, 300, 100), line(100, 300, 300, 300)]
    page.context.close()


# The paths of the page's own files it fetched: scripts, styles and the wasm.
PAGE_FETCHES = """performance.getEntriesByType('resource').map((entry) => new URL(entry.name).pathname)
  .filter((path) => /[.](js|css|wasm)$/.test(path) && path !== '/sw.js')"""


def in_version_folder(paths):
    return [path for path in paths if not re.match(r"^/assets/[0-9a-f]{16}/", path)]


def test_the_page_loads_its_files_from_its_version_folder_online_and_offline(browser, server):
    """index.html names every file by the page's version (kept a year by the HTTP cache);
    the service worker keeps them under those names, so the page starts without the server."""
    page, touch = open_drawing(browser, server, "versions")
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    fetched = page.evaluate(PAGE_FETCHES)
    assert any(path.endswith("/app.bundle.js") for path in fetched) and any(path.endswith("/touchtracker.wasm") for path in fetched), fetched
    assert in_version_folder(fetched) == [], fetched
    touch.line((100, 100), (300, 100))
    wait_until_saved(touch)

    server.stop()
    page.reload()
    page.evaluate("touchtracker.ready")
    touch = Touchscreen(page)
    fetched = page.evaluate(PAGE_FETCHES)
    assert any(path.endswith("/touchtracker.wasm") for path in fetched) and in_version_folder(fetched) == [], fetched
    assert any(path.endswith("/app.bundle.js") for path in fetched), "the bundle, from the service worker's cache"
    touch.line((100, 300), (300, 300))
    assert touch.document()["lines"] == [line(100, 100, 300, 100), line(100, 300, 300, 300)]
    assert page.errors == []
    server.start()
    page.context.close()


# Notes what the page had painted when it registered its service worker.
REGISTRATIONS = """
(() => {
  window.__registered = [];
  const container = navigator.serviceWorker;
  if (!container) return;
  const register = container.register.bind(container);
  container.register = (...args) => {
    const stats = window.touchtracker?.paintStats?.();
    window.__registered.push(stats ? { painted: stats.whole + stats.append + stats.repaint, pending: stats.pendingSections } : null);
    return register(...args);
  };
})();
"""


def test_the_page_keeps_its_files_for_offline_only_once_the_opened_drawing_is_painted(browser, server):
    """The service worker's install fetches and stores every file of the page, the core
    included: registered as the page started, it did that beside the tile painters, and
    frames were 50-85 ms while 100k lines appeared (27 ms without it;
    docs/benchmarks/2026-11-27.md)."""
    status, _, _ = request(server, "PUT", "/api/drawings/big", big_drawing(20000))
    assert status == 200
    context = browser.new_context(viewport=VIEWPORT, bypass_csp=True)
    context.add_init_script(REGISTRATIONS)
    page = context.new_page()
    page.goto(f"{server.url}/?drawing=big&live=off")
    page.evaluate("touchtracker.ready")
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    registered = page.evaluate("window.__registered")
    assert len(registered) == 1, registered
    assert registered[0] is not None and registered[0]["painted"] >= 1 and registered[0]["pending"] == 0, registered
    assert page.evaluate("touchtracker.state().lines") == 20000
    context.close()


KEPT_FOLDERS = """caches.open('touchtracker-page-v1').then((cache) => cache.keys()).then((keys) =>
  [...new Set(keys.map((r) => /assets[/]([0-9a-f]{16})[/]/.exec(new URL(r.url).pathname)?.[1]).filter(Boolean))])"""


def test_the_service_worker_keeps_the_files_of_two_versions_only(browser, tmp_path, monkeypatch):
    """Each deploy names every file anew (one version folder for the page): the service
    worker keeps the current version's files and the one before (a tab open across a deploy
    still finds its own), and lets older ones go instead of keeping every version ever seen."""
    web = tmp_path / "web"
    shutil.copytree(WEB, web)
    monkeypatch.delenv("TOUCHTRACKER_WEB_ROOT", raising=False)
    server = Server(touchtracker_binary(), tmp_path / "drawings.sqlite", ["--web-root", str(web)])
    server.start()
    context = browser.new_context(viewport=VIEWPORT, bypass_csp=True)
    try:
        page = context.new_page()
        page.goto(f"{server.url}/?drawing=deploys&live=off")
        page.evaluate("touchtracker.ready")
        page.evaluate("navigator.serviceWorker.ready.then(() => true)")
        page.wait_for_function("navigator.serviceWorker.controller !== null", timeout=30_000)
        folders = []
        for deploy in range(3):
            folders.append(re.search(r"assets/([0-9a-f]{16})/", page.content()).group(1))
            with open(web / "style.css", "a") as style:
                style.write(f"\n/* deploy {deploy} */\n")
            page.reload()
            page.evaluate("touchtracker.ready")
        folders.append(re.search(r"assets/([0-9a-f]{16})/", page.content()).group(1))
        assert len(set(folders)) == 4, folders
        kept = page.evaluate(KEPT_FOLDERS)
        assert set(kept) <= set(folders[-2:]), f"kept {kept} of versions {folders}"
        assert folders[-1] in kept
        # The version before is still there for a tab open on it (the server answers 404 for it;
        # `no-store` leaves the HTTP cache, which keeps every version's files a year, out of it).
        status = """(folder) => fetch(`/assets/${folder}/paint/tile-worker.js`, { cache: 'no-store' })
          .then((response) => response.status)"""
        assert page.evaluate(status, folders[-2]) == 200
        assert page.evaluate(status, folders[0]) == 404
    finally:
        context.close()
        server.stop()
