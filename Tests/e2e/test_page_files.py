"""The page's modules load at once (issue 15, opening): index.html names
every module app.js imports with `<link rel="modulepreload">`, so the
browser fetches them all while it reads the HTML instead of one import
level after another (five levels, ~200 ms of a 100k-line opening before the
drawing's download could start)."""

import pathlib
import re

import pytest

from test_saving import open_drawing

pytestmark = pytest.mark.server

WEB = pathlib.Path(__file__).resolve().parents[2] / "Web"


def imported_modules():
    """Every module reachable from app.js by its static imports, relative to Web/."""
    found = set()
    todo = [WEB / "app.js"]
    while todo:
        module = todo.pop()
        if module in found:
            continue
        found.add(module)
        for name in re.findall(r"^import [^;]*? from '([^']+)';", module.read_text(), re.MULTILINE):
            todo.append((module.parent / name).resolve())
    return {str(module.relative_to(WEB)) for module in found} - {"app.js"}


def preloaded_modules():
    return set(re.findall(r'<link rel="modulepreload" href="([^"]+)">', (WEB / "index.html").read_text()))


def test_index_preloads_exactly_the_modules_app_imports():
    modules = imported_modules()
    assert "ui/qr.js" in modules, "the deepest import (app → toolbar → share → qr) is followed"
    assert preloaded_modules() == modules


def test_every_module_is_requested_before_app_js_has_arrived_and_only_once(browser, server):
    page, _ = open_drawing(browser, server, "preloads", live=False)
    entries = page.evaluate(
        """() => performance.getEntriesByType('resource')
             .map((e) => ({ path: new URL(e.name).pathname.slice(1), start: e.startTime, end: e.responseEnd }))"""
    )
    page.context.close()
    app = next(entry for entry in entries if entry["path"] == "app.js")
    # The tile painters are module workers with module maps of their own:
    # what they import is fetched again (from the HTTP cache) after them.
    workers = min(entry["start"] for entry in entries if entry["path"] == "paint/tile-worker.js")
    requested = [entry for entry in entries if entry["path"] in imported_modules() and entry["start"] < workers]
    # Without the preloads a module is asked for only once the module importing it has arrived.
    late = [entry["path"] for entry in requested if entry["start"] > app["end"]]
    assert not late, f"requested only after app.js arrived: {late}"
    paths = [entry["path"] for entry in requested]
    assert sorted(paths) == sorted(imported_modules()), "each module once (a preload the page cannot use is fetched again)"
