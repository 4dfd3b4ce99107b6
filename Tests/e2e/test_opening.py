"""Opening a drawing from its download: the core reads it as it comes in
(where Chromium lets wasm wait for JavaScript: JSPI), keeps its bytes as
this browser's copy, and a download that breaks off costs nothing.

The drawings come from a small server here, not `touchtracker serve`, so a
test can hold a download back or cut it off part of the way."""

import functools
import http.server
import json
import threading

import pytest

from conftest import WEB, QuietServer, StaticHandler, open_page
from touchscreen import Touchscreen

LINES = 3000


def document(count=LINES, color='"#000000"'):
    lines = [
        '{"id":%d,"begin":{"x":%d,"y":%d},"end":{"x":%d,"y":%d},"color":%s,"width":2}'
        % (i + 1, 10 + i % 700, 40 + i // 700 * 20, 20 + i % 700, 50 + i // 700 * 20, color)
        for i in range(count)
    ]
    return ('{"format":"touchtracker","version":1,"lines":[' + ",".join(lines) + '],"circles":[]}').encode()


class DrawingServer:
    """Web/ and GET /api/drawings/NAME answering `body` with revision 1:
    whole, or its first `held` bytes until `release()` (then the rest), or
    only its first `cut` bytes before the connection closes."""

    def __init__(self, body):
        self.body = body
        self.held = None
        self.cut = None
        self.released = threading.Event()
        self.downloads = 0
        owner = self

        class Handler(StaticHandler):
            def do_GET(self):
                if not self.path.startswith("/api/drawings/"):
                    return super().do_GET()
                if self.path.split("?")[0].endswith("/links"):
                    self.send_error(404)  # a server without share links: the page opens it as before
                    return
                owner.downloads += 1
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("ETag", '"1"')
                self.send_header("Content-Length", str(len(owner.body)))
                self.end_headers()
                if owner.cut is not None:
                    self.wfile.write(owner.body[: owner.cut])
                    self.wfile.flush()
                    self.close_connection = True
                    return
                if owner.held is not None:
                    self.wfile.write(owner.body[: owner.held])
                    self.wfile.flush()
                    owner.released.wait(30)
                    self.wfile.write(owner.body[owner.held :])
                else:
                    self.wfile.write(owner.body)

        self.server = QuietServer(("127.0.0.1", 0), functools.partial(Handler, directory=str(WEB)))
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"

    def close(self):
        self.released.set()
        self.server.shutdown()


@pytest.fixture
def drawings():
    server = DrawingServer(document())
    yield server
    server.close()


def start(browser, url, hide_jspi=False):
    """The page, navigated but not waited for."""
    context = browser.new_context(bypass_csp=True, viewport={"width": 800, "height": 600})
    if hide_jspi:
        # A browser without JSPI: the page reads the whole text first, as before.
        context.add_init_script("delete WebAssembly.Suspending; delete WebAssembly.promising;")
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda error: page.errors.append(str(error)))
    page.goto(url, wait_until="commit")
    return page


def test_the_core_reads_the_drawing_while_the_rest_is_still_downloading(browser, drawings):
    body = drawings.body
    drawings.held = len(body) * 3 // 4
    page = start(browser, drawings.url + "/?drawing=held&live=off")
    try:
        # Three quarters have come: the core has read most of them before the rest is sent.
        page.wait_for_function(f"window.touchtracker?.openingBytes() >= {drawings.held // 2}", timeout=30_000)
        assert page.evaluate("touchtracker.state().lines") == 0, "nothing is shown before the end"
        drawings.released.set()
        page.evaluate("touchtracker.ready")
        assert page.evaluate("touchtracker.state().lines") == LINES
        assert page.evaluate("touchtracker.saving()")["revision"] == 1
        assert page.evaluate("touchtracker.openingBytes()") == 0, "nothing left under way"
        assert drawings.downloads == 1
        assert page.errors == []
    finally:
        page.context.close()


def test_a_recording_cannot_take_the_screen_while_the_drawing_is_still_opening(browser, drawings):
    drawings.held = len(drawings.body) // 2
    page = start(browser, drawings.url + "/?drawing=held&live=off")
    try:
        page.wait_for_function("window.touchtracker !== undefined", timeout=30_000)
        trace = json.dumps({"events": [{"time": 0, "touches": [{"id": 1, "phase": "began", "x": 10, "y": 10}]}]})
        problem = page.evaluate("text => touchtracker.playTrace(text)", trace)
        assert problem and "still opening" in problem
        assert page.evaluate("touchtracker.recorder().playback.on") is False
        drawings.released.set()
        page.evaluate("touchtracker.ready")
        assert page.evaluate("touchtracker.state().lines") == LINES, "the drawing, not a playback"
        assert drawings.downloads == 1, "trying to play did not open the drawing again"
        assert page.errors == []
    finally:
        page.context.close()


def test_without_jspi_the_page_reads_the_whole_text_and_opens_the_same_drawing(browser, drawings):
    drawings.held = len(drawings.body) * 3 // 4
    page = start(browser, drawings.url + "/?drawing=held&live=off", hide_jspi=True)
    try:
        page.wait_for_function("window.touchtracker !== undefined", timeout=30_000)
        page.wait_for_timeout(300)
        assert page.evaluate("touchtracker.openingBytes()") == 0, "the core waits for the whole text"
        drawings.released.set()
        page.evaluate("touchtracker.ready")
        assert page.evaluate("touchtracker.state().lines") == LINES
        assert page.errors == []
    finally:
        page.context.close()


def test_a_drawing_in_another_shape_is_read_again_from_its_start(browser):
    # An escape in a color: the fast reader gives up, and the tree decoder reads the same bytes from 0.
    server = DrawingServer(document(color='"#00000\\u0030"'))
    try:
        page = open_page(browser, server.url + "/?drawing=other&live=off")
        assert page.evaluate("touchtracker.state().lines") == LINES
        assert page.evaluate("touchtracker.document().lines[0].color") == "#000000"
        assert page.errors == []
        page.context.close()
    finally:
        server.close()


def test_the_kept_copy_opens_when_a_later_download_breaks_off(browser, drawings):
    page = open_page(browser, drawings.url + "/?drawing=kept&live=off")
    try:
        page.wait_for_function("touchtracker.saving().local === 'saved'", timeout=30_000)
        # What this browser kept is the download's bytes, and it reads back as the drawing.
        copy = page.evaluate("touchtracker.localCopy('kept')")
        assert json.loads(copy["document"]) == json.loads(drawings.body)
        assert copy["dirty"] is False

        drawings.cut = len(drawings.body) // 2
        page.goto(drawings.url + "/?drawing=kept&live=off")
        page.evaluate("touchtracker.ready")
        assert page.evaluate("touchtracker.state().lines") == LINES, "this browser's copy is shown"
        state = page.evaluate("touchtracker.saving()")
        assert state["offline"] is True
        assert state.get("stopped") is None, "nothing refused: it is tried again"
        # The broken download left the copy as it was.
        copy = page.evaluate("touchtracker.localCopy('kept')")
        assert json.loads(copy["document"]) == json.loads(drawings.body)
        assert drawings.downloads == 2
        assert page.errors == []
    finally:
        page.context.close()


def test_a_line_drawn_before_the_opened_drawing_is_on_screen_is_never_lost_to_its_copy(browser):
    # The server's copy is kept once the drawing is on screen; a line drawn
    # while a big drawing still paints writes the copy first, and the server's
    # clean copy must not replace it afterwards. Saves fail here (this small
    # server takes no changes), so the line exists only in this browser.
    server = DrawingServer(document(count=30_000))
    server.held = len(server.body) // 2
    page = start(browser, server.url + "/?drawing=early&live=off")
    try:
        page.wait_for_function("window.touchtracker !== undefined", timeout=30_000)
        page.evaluate("touchtracker.holdTilePainters(true)")  # the drawing stays unpainted until released
        server.released.set()
        page.evaluate("touchtracker.ready")
        assert page.evaluate("touchtracker.paintStats().pendingSections") > 0, "still painting"
        touch = Touchscreen(page)
        touch.line((100, 500), (300, 520))
        touch.wait_for("touchtracker.state().lines === 30001")
        page.evaluate("touchtracker.holdTilePainters(false)")
        page.wait_for_function("touchtracker.paintStats().pendingSections === 0", timeout=60_000)
        touch.settle()
        page.wait_for_function("touchtracker.saving().local !== 'pending'", timeout=30_000)
        copy = page.evaluate("touchtracker.localCopy('early')")
        assert copy["dirty"] is True
        assert len(json.loads(copy["document"])["lines"]) == 30_000, "the server's drawing is the copy's base"
        own = [json.loads(entry)["own"] for entry in copy["entries"] if '"own"' in entry]
        assert [len(change["lines"]) for changes in own for change in changes] == [1], "the line drawn early is in it"
    finally:
        page.context.close()
        server.close()


def test_the_page_gets_turns_while_the_core_reads_a_big_drawing(browser, drawings):
    # A drawing whose bytes are all here (a fast network, this browser's copy) was read in one task:
    # ~0.1 s at 100k lines, 1 s at a million, with no input handled meanwhile. The core reads a
    # megabyte at a time and waits for the page's next task once it has read for a few milliseconds.
    page = open_page(browser, drawings.url + "/?drawing=turns&live=off")
    try:
        measured = page.evaluate(
            """async () => {
              const line = (i) => `{"id":${i + 1},"begin":{"x":${i % 800},"y":${i % 600}},` +
                `"end":{"x":${(i * 7) % 800},"y":${(i * 3) % 600}},"color":"#336699","width":3}`;
              const text = '{"format":"touchtracker","version":1,"lines":[' +
                Array.from({ length: 80000 }, (_, i) => line(i)).join(',') + '],"circles":[]}';
              let turns = 0;
              let loading = true;
              const turn = () => { if (loading) { turns++; setTimeout(turn, 0); } };
              setTimeout(turn, 0);
              const problem = await touchtracker.loadDocument(text);
              loading = false;
              return { problem, turns, bytes: text.length, lines: touchtracker.state().lines };
            }"""
        )
        assert measured["problem"] is None
        assert measured["lines"] == 80_000
        assert measured["bytes"] > 7_000_000
        assert measured["turns"] >= 2, f"the page ran {measured['turns']} tasks while {measured['bytes']} bytes were read"
        assert page.errors == []
    finally:
        page.context.close()


def test_the_core_reads_the_download_while_this_browsers_copy_is_still_being_read(browser, drawings):
    # IndexedDB answers late (~0.1 s on a first visit, when it creates the database; here, when the
    # test lets it): the core reads the download meanwhile instead of after it.
    drawings.held = len(drawings.body) * 3 // 4
    context = browser.new_context(bypass_csp=True, viewport={"width": 800, "height": 600})
    context.add_init_script(
        """(() => {
          const open = IDBFactory.prototype.open;
          IDBFactory.prototype.open = function (...args) {
            const request = open.apply(this, args);
            let handler = null;
            Object.defineProperty(request, 'onsuccess', { set: (h) => (handler = h), get: () => handler });
            request.addEventListener('success', (event) => (window.releaseStorage = () => handler?.call(request, event)));
            return request;
          };
        })();"""
    )
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda error: page.errors.append(str(error)))
    try:
        page.goto(drawings.url + "/?drawing=held&live=off", wait_until="commit")
        page.wait_for_function("window.releaseStorage !== undefined", timeout=30_000)
        page.wait_for_function(f"window.touchtracker?.openingBytes() >= {drawings.held // 2}", timeout=30_000)
        drawings.released.set()
        page.wait_for_function("touchtracker.openingBytes() === 0", timeout=30_000)
        assert page.evaluate("touchtracker.state().lines") == LINES, "read while the copy is still unknown"
        page.evaluate("releaseStorage()")
        page.evaluate("touchtracker.ready")
        assert page.evaluate("touchtracker.state().lines") == LINES
        assert page.evaluate("touchtracker.saving()")["revision"] == 1
        assert drawings.downloads == 1
        assert page.errors == []
    finally:
        context.close()
