"""The page's modules arrive at once. The server sends them as one script
(Sources/TouchTrackerServer/Web/PageBundle.swift): over HTTP/1.1 a browser
asks for forty modules six at a time, a round trip each, most of a phone's
wait for its first stroke. From a plain static server, index.html preloads
every module app.js imports at any depth, so the browser does not learn of
a module only when the one importing it has arrived (four round trips
before the drawing's download could start, ~0.4 s of a 100k-line drawing's
opening on loopback, more over a phone's network)."""

import pathlib
import re

import pytest

from conftest import open_page

pytestmark = pytest.mark.server

WEB = pathlib.Path(__file__).resolve().parents[2] / "Web"
IMPORT = re.compile(r"""^\s*(?:import|export)\b[^'";]*?(?:from\s+)?['"](\.{1,2}/[^'"]+)['"]""", re.MULTILINE)


def imported_modules(entry="app.js"):
    """Every module `entry` imports, at any depth, relative to Web/."""
    seen, todo = set(), [entry]
    while todo:
        module = todo.pop()
        if module in seen:
            continue
        seen.add(module)
        source = WEB / module
        for target in IMPORT.findall(source.read_text()):
            todo.append(str((source.parent / target).resolve().relative_to(WEB.resolve())))
    return seen - {entry}


def preloaded_modules():
    """The modules index.html asks for at once: preloaded, or loaded by a script of their own."""
    html = (WEB / "index.html").read_text()
    preloaded = re.findall(r'<link rel="modulepreload" href="([^"]+)">', html)
    scripts = re.findall(r'<script type="module" (?:async )?src="([^"]+)"></script>', html)
    return set(preloaded) | set(scripts) - {"app.js"}


def test_index_asks_at_once_for_exactly_the_modules_app_imports():
    imported = imported_modules()
    assert "ui/qr.js" in imported, "the import graph was read to its depth"
    assert preloaded_modules() == imported


def test_the_served_page_asks_for_its_modules_as_one_script(browser, server):
    page = open_page(browser, f"{server.url}/?drawing=modules&live=off")
    page.evaluate("touchtracker.ready")
    fetched = page.evaluate(
        """performance.getEntriesByType('resource')
             .map((entry) => new URL(entry.name).pathname.slice(1).replace(/^assets[/][0-9a-f]{16}[/]/, ''))"""
    )
    errors = page.errors
    page.context.close()
    assert fetched.count("app.bundle.js") == 1, fetched
    # The tile painters' worker loads its own modules; none of the page's is asked for on its own.
    worker = imported_modules("paint/tile-worker.js") | {"paint/tile-worker.js"}
    separately = sorted(name for name in imported_modules() | {"app.js"} if name in fetched and name not in worker)
    assert not separately, f"asked for beside the bundle: {separately}"
    # The download download.js starts at once is the one the saver opens: the drawing is fetched once.
    assert fetched.count("api/drawings/modules") == 1
    assert errors == []


def test_the_drawings_download_waits_for_no_module_of_app_js():
    # download.js starts the drawing's download once it and its imports have arrived: they are
    # asked for before app.js and its ~25 modules, which would take the browser's six connections
    # first (local-copy.js was eleventh: the download started ~10 ms later on loopback).
    html = (WEB / "index.html").read_text()
    order = re.findall(r'<(?:link rel="modulepreload" href|script type="module" (?:async )?src)="([^"]+)"', html)
    first = order.index("app.js")
    needed = imported_modules("sync/download.js") | {"sync/download.js"}
    assert "sync/local-copy.js" in needed, "the import graph was read"
    late = sorted(name for name in needed if order.index(name) > first)
    assert not late, f"asked for after app.js: {late}"
