"""The page starts without its server (issue 10, item 7): a service worker
keeps the page's files, and a drawing opened before comes back from this
browser's copy, drawable, and reaches the server once it is back."""

import pathlib
import re

import pytest

from test_saving import eventually, line, open_drawing, stored, wait_until_saved
from touchscreen import Touchscreen

pytestmark = pytest.mark.server

WEB = pathlib.Path(__file__).resolve().parents[2] / "Web"


def test_the_service_worker_keeps_every_file_the_page_needs():
    listed = set(re.findall(r"^  '([^']+)',$", (WEB / "sw.js").read_text(), re.MULTILINE))
    needed = {
        str(path.relative_to(WEB))
        for path in WEB.rglob("*")
        if path.is_file() and path.name != "sw.js" and path.suffix in {".js", ".css", ".html", ".svg", ".wasm", ".webmanifest"}
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

