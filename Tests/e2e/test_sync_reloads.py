"""A page reloaded while its changes are on their way keeps each of them
once: none is lost with the reload, and none is sent again under a new key
after someone else deleted it (it would come back). Each test is a schedule
the browser soak (Benchmarks/sync/soak.py) found, made fixed."""

import json
import os
import signal
import time

import pytest

from sync_pages import (
    DESKTOP,
    EMPTY,
    assert_never_asked,
    close,
    converge,
    cut_off,
    kept_in_this_browser,
    open_on,
    wait_for,
)
from test_saving import line, request, stored
from touchscreen import Touchscreen, without_ids

pytestmark = pytest.mark.server


def reload(page):
    page.reload()
    page.evaluate("touchtracker.ready")
    return Touchscreen(page)


# As a page goes away, the writes it begins in IndexedDB may never finish (Chromium drops them with
# the page); here they never do, so that the test does not depend on how fast they are.
WRITES_LOST_ON_LEAVING = """() => addEventListener('pagehide', () => {
  const transaction = IDBDatabase.prototype.transaction;
  IDBDatabase.prototype.transaction = function (stores, mode, ...rest) {
    if (mode === 'readwrite') throw new DOMException('the page is gone', 'InvalidStateError');
    return transaction.call(this, stores, mode, ...rest);
  };
})"""


def test_a_line_sent_as_the_page_left_and_deleted_elsewhere_stays_deleted(browser, server):
    """The server stops answering (frozen, SIGSTOP), and a page draws a line: it waits in this
    browser. The person leaves the page; the request a page leaving sends (keepalive) takes the
    line to the server under a new batch's key, and the page's last writes in IndexedDB are lost.
    The server comes back and appends the line; another page deletes it. When the person opens
    the drawing again, the line goes out under the key it left with, so the server appends it
    once: the deleted line does not come back."""
    request(server, "PUT", "/api/drawings/gone", EMPTY)
    first, first_touch = open_on(browser, f"{server.url}/?drawing=gone", DESKTOP)
    second, second_touch = open_on(browser, f"{server.url}/?drawing=gone", DESKTOP)
    for touch in (first_touch, second_touch):
        wait_for(touch, "touchtracker.live().status === 'live'", "the page went live", 15_000)
    os.kill(server.process.pid, signal.SIGSTOP)
    try:
        wait_for(first_touch, "touchtracker.saving().connection === 'offline'", "the page noticed", 10_000)
        first_touch.line((60, 200), (330, 200))
        kept_in_this_browser(first_touch, "the line was kept in this browser")
        drawn = first_touch.document(ids=True)["lines"]
        first.evaluate(WRITES_LOST_ON_LEAVING)
        first.goto("about:blank")  # leaving: the keepalive request waits for the frozen server
    finally:
        os.kill(server.process.pid, signal.SIGCONT)
    # Chromium does not always get a keepalive request out of a page that is gone; the test sends
    # it again as the page sent it: the batch the page made as it left, under its key (what the
    # page left in localStorage says which; read from a file of the site, where the app does not run).
    first.goto(f"{server.url}/icon.svg")
    tail = json.loads(first.evaluate("localStorage.getItem('touchtracker:tail:gone')"))
    entries = [json.loads(entry) for entry in tail["entries"]]
    key = next(entry["batch"] for entry in entries if "batch" in entry and entry["count"] == 1)
    # The batch is the one line drawn (its entry was in IndexedDB already; the tail names its key).
    changes = [{"op": "add", "lines": drawn}]
    status, _, _ = request(server, "POST", "/api/drawings/gone/changes", {"changes": changes}, {"Idempotency-Key": key})
    assert status == 200
    assert len(stored(server, "gone")["lines"]) == 1
    # The other page opens the drawing again to delete the line (whether a page live through the
    # server's freeze hears of it at once is test_sync_merge's and the soak's to check).
    second_touch = reload(second)
    wait_for(second_touch, "touchtracker.live().status === 'live'", "the other page went live", 15_000)
    wait_for(second_touch, "touchtracker.document().lines.length === 1", "the other page shows the line")

    second_touch.tap((200, 200))
    second_touch.wait_for("touchtracker.state().menu.length === 1")
    item = next(text for text in second.evaluate("touchtracker.texts()") if text["text"] == "Delete")
    second_touch.tap((item["x"], item["y"]))
    wait_for(second_touch, "touchtracker.document().lines.length === 0", "the line was deleted")
    wait_for(second_touch, "touchtracker.saving().pending === 0", "the delete reached the server")

    first.goto(f"{server.url}/?drawing=gone")
    first.evaluate("touchtracker.ready")
    converge([first, second], lambda: stored(server, "gone", ids=True), 0)
    time.sleep(1)  # anything sent again late would be on the server by now
    assert stored(server, "gone")["lines"] == [], "the deleted line stays deleted"
    assert_never_asked(first)
    close(first, second)


def test_lines_drawn_offline_survive_a_read_a_server_kill_and_a_reload(browser, server):
    """A page draws two lines offline while another draws one and the drawing is read (which folds
    the server's log). Back online, the page reads the drawing again, writes its copy anew with its
    two lines on top and sends them; the server dies (SIGKILL) moments later and the page is
    reloaded before it is back. The page still shows all four lines, and so does everyone once the
    server is back."""
    request(server, "PUT", "/api/drawings/kept", EMPTY)
    first, first_touch = open_on(browser, f"{server.url}/?drawing=kept", DESKTOP)
    second, second_touch = open_on(browser, f"{server.url}/?drawing=kept", DESKTOP)
    first.evaluate("navigator.serviceWorker.ready.then(() => true)")
    for touch in (first_touch, second_touch):
        wait_for(touch, "touchtracker.live().status === 'live'", "the page went live", 15_000)
    second_touch.line((60, 100), (330, 100))
    wait_for(first_touch, "touchtracker.document().lines.length === 1", "the first page saw the line")
    cut_off(first)
    first_touch.line((60, 200), (330, 200))
    first_touch.line((60, 300), (330, 300))
    second_touch.line((400, 100), (700, 100))
    server_lines = lambda: len(stored(server, "kept")["lines"])  # each read folds the log
    wait_for(second_touch, "touchtracker.saving().pending === 0", "the second page's line was saved")
    assert server_lines() == 2
    kept_in_this_browser(first_touch, "the offline lines were kept in this browser")

    first.context.set_offline(False)
    wait_for(first_touch, "touchtracker.saving().pending === 0", "the offline lines reached the server")
    kept_in_this_browser(first_touch, "the copy was written after the server's answer")
    server.process.kill()
    server.process.wait()
    first_touch = reload(first)
    drawn = [line(60, 100, 330, 100), line(400, 100, 700, 100), line(60, 200, 330, 200), line(60, 300, 330, 300)]
    assert without_ids(first_touch.document())["lines"] == drawn, "after the reload the page shows every line"

    server.start()
    theirs = converge([first, second], lambda: stored(server, "kept", ids=True), 4)
    assert sorted(map(str, without_ids(theirs)["lines"])) == sorted(map(str, drawn))
    assert_never_asked(first)
    close(first, second)
