"""Saving against the real server: every finished change reaches it, comes
back after a reload or a restart, and no version is lost to a conflict or an
outage."""

import json
import time
import urllib.error
import urllib.request

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from conftest import open_page
from touchscreen import Touchscreen, without_ids

pytestmark = pytest.mark.server

EMPTY = {"format": "touchtracker", "version": 1, "lines": [], "circles": []}


def request(server, method, path, body=None, headers=None):
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(server.url + path, data=data, method=method, headers=headers or {})
    if data is not None:
        req.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(req, timeout=5) as response:
            return response.status, response.headers, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers, error.read()


def stored(server, name, ids=False):
    """The server's document of `name` (None if it has none), shapes without their ids unless `ids`."""
    status, _, body = request(server, "GET", f"/api/drawings/{name}")
    if status != 200:
        return None
    return json.loads(body) if ids else without_ids(json.loads(body))


def line(x1, y1, x2, y2, color="#000000"):
    return {"begin": {"x": x1, "y": y1}, "end": {"x": x2, "y": y2}, "color": color, "width": 10}


def eventually(read, within):
    """The first truthy `read()` within `within` seconds, polled; fails the test after that."""
    deadline = time.monotonic() + within
    while True:
        value = read()
        if value or time.monotonic() > deadline:
            assert value, f"nothing within {within} s"
            return value
        time.sleep(0.02)


def open_drawing(browser, server, name, live=True):
    """The page on drawing `name`; `live=False` saves over HTTP only (`?live=off`, no WebSocket)."""
    page = open_page(browser, f"{server.url}/?drawing={name}" + ("" if live else "&live=off"))
    return page, Touchscreen(page)


def wait_until_saved(touch):
    try:
        touch.wait_for("(() => { const s = touchtracker.saving(); return !s.dirty && !s.offline && !s.stopped; })()")
    except PlaywrightTimeout:
        state = touch.page.evaluate("touchtracker.saving()")
        banner = touch.page.evaluate("document.querySelector('#banner')?.textContent ?? ''")
        raise AssertionError(f"not saved: {state}, banner {banner!r}") from None


def test_the_server_serves_the_page_and_the_module(server):
    status, headers, body = request(server, "GET", "/")
    assert status == 200 and b"<canvas" in body
    status, headers, body = request(server, "GET", "/touchtracker.wasm")
    assert status == 200
    assert headers["Content-Type"].startswith("application/wasm")
    assert body[:4] == b"\0asm"


def test_a_missing_drawing_opens_empty(browser, server):
    page, touch = open_drawing(browser, server, "nothing-yet")
    assert touch.document() == EMPTY
    assert page.is_hidden("#banner")
    assert stored(server, "nothing-yet") is None, "opening alone saves nothing"


def test_each_finished_line_is_saved_within_a_second_and_back_after_a_reload(browser, server):
    page, touch = open_drawing(browser, server, "reload")
    touch.line((100, 100), (300, 100))
    assert eventually(lambda: stored(server, "reload"), within=1.0)["lines"] == [line(100, 100, 300, 100)]

    touch.line((100, 300), (300, 300))
    wait_until_saved(touch)
    page.reload()
    page.evaluate("touchtracker.ready")
    assert touch.document()["lines"] == [line(100, 100, 300, 100), line(100, 300, 300, 300)]


def test_the_drawing_survives_a_server_restart(browser, server):
    page, touch = open_drawing(browser, server, "restart")
    touch.line((100, 100), (300, 100))
    wait_until_saved(touch)
    page.context.close()

    server.restart()

    page, touch = open_drawing(browser, server, "restart")
    assert touch.document()["lines"] == [line(100, 100, 300, 100)]


def test_leaving_the_page_right_after_a_change_still_saves_it(browser, server):
    page, touch = open_drawing(browser, server, "pagehide")
    touch.line((100, 100), (300, 100))
    page.goto("about:blank")  # sooner than the save timer: pagehide must send it
    assert eventually(lambda: stored(server, "pagehide"), within=5.0)["lines"] == [line(100, 100, 300, 100)]


def test_a_drawing_replaced_elsewhere_gets_my_new_line_on_top_without_asking(browser, server):
    """A whole document saved over the drawing (an import elsewhere) while this page
    saves over HTTP: the page's next line goes on top of it by itself, nothing asks
    the person to choose, and a notice says what happened."""
    page, touch = open_drawing(browser, server, "shared", live=False)
    touch.line((100, 100), (300, 100))
    wait_until_saved(touch)
    theirs = {**EMPTY, "lines": [line(10, 10, 20, 20, "#ff0000")]}
    status, _, _ = request(server, "PUT", "/api/drawings/shared", theirs, {"If-Match": '"1"'})
    assert status == 200

    touch.line((100, 300), (300, 300))
    wait_until_saved(touch)
    merged = theirs["lines"] + [line(100, 300, 300, 300)]
    assert stored(server, "shared")["lines"] == merged, "theirs stays; my new line is added to it"
    touch.wait_for(f"touchtracker.document().lines.length === {len(merged)}")
    assert touch.document()["lines"] == merged, "the page shows the server's drawing"
    assert "as the server has it now, with your change added" in page.inner_text("#notice")
    assert not page.evaluate("touchtracker.saving().conflict")
    assert "changed somewhere else" not in page.inner_text("#banner")


def test_offline_the_drawing_stays_in_the_browser_and_is_saved_when_the_server_is_back(browser, server):
    page, touch = open_drawing(browser, server, "offline")
    touch.line((100, 100), (300, 100))
    wait_until_saved(touch)

    server.stop()
    touch.line((100, 300), (300, 300))
    touch.wait_for("touchtracker.saving().offline && touchtracker.saving().local === 'saved'")
    assert "Offline — 1 change waits in this browser" in page.inner_text("#banner")
    kept = page.evaluate("touchtracker.localCopy('offline')")
    assert kept["pending"] == 1 and any('"own"' in entry for entry in kept["entries"]), "the change is in the copy"

    server.start()
    page.wait_for_function("!touchtracker.saving().offline && !touchtracker.saving().dirty", timeout=15000)
    assert len(stored(server, "offline")["lines"]) == 2
    assert page.is_hidden("#banner")


def test_a_change_made_offline_is_saved_on_the_next_visit(browser, server):
    page, touch = open_drawing(browser, server, "next-visit")
    touch.line((100, 100), (300, 100))
    wait_until_saved(touch)
    server.stop()
    touch.line((100, 300), (300, 300))
    # Closed once the page says "saved in this browser": a tab closed before that (while the
    # strict IndexedDB write runs, which can take a while on a busy disk) may lose the change.
    touch.wait_for("touchtracker.saving().offline && touchtracker.saving().local === 'saved'")
    context = page.context
    page.close()

    server.start()
    page = context.new_page()  # same browser profile: same IndexedDB
    page.goto(f"{server.url}/?drawing=next-visit")
    page.evaluate("touchtracker.ready")
    touch = Touchscreen(page)
    wait_until_saved(touch)
    assert len(stored(server, "next-visit")["lines"]) == 2


def test_the_open_list_shows_saved_drawings_and_opens_one(browser, server):
    request(server, "PUT", "/api/drawings/first", {**EMPTY, "lines": [line(1, 2, 3, 4)]})
    request(server, "PUT", "/api/drawings/second", EMPTY)
    page, touch = open_drawing(browser, server, "second")

    page.click("#file-menu summary")
    page.wait_for_selector("#drawing-list a")
    assert page.inner_text("#drawing-list a[href='?drawing=first']").startswith("first\n1 line, 0 circles")

    page.click("#drawing-list a[href='?drawing=first']")
    page.wait_for_url("**/?drawing=first")
    page.evaluate("touchtracker.ready")
    assert touch.document()["lines"] == [line(1, 2, 3, 4)]


def test_new_opens_an_empty_drawing_under_the_name_given(browser, server):
    page, touch = open_drawing(browser, server, "old")
    touch.line((100, 100), (300, 100))
    page.click("#file-menu summary")
    page.click("[data-command=new]")
    page.fill("#dialog-input", "brand-new")  # the page's own dialog, not prompt() (issue 10)
    page.click("#dialog-ok")
    page.wait_for_url("**/?drawing=brand-new")
    page.evaluate("touchtracker.ready")
    assert touch.document() == EMPTY
    assert len(stored(server, "old")["lines"]) == 1, "the old drawing was saved before leaving"
