"""Drawing together (issue 12): two pages on one drawing, one phone-sized and
one desktop, with real multi-touch; each sees the other's line in progress
live and the finished line, undo stays per person, and a page that was cut
off catches up and converges. The server is the real `touchtracker serve`
and its WebSocket route (docs/DESIGN.md, "Live sync over WebSocket")."""

import pytest

from test_saving import eventually, line, request, stored
from touchscreen import Touchscreen

pytestmark = pytest.mark.server

PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 3}
DESKTOP = {"viewport": {"width": 1280, "height": 800}, "device_scale_factor": 1}


def open_live(browser, server, name, device):
    context = browser.new_context(has_touch=True, bypass_csp=True, **device)
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda error: page.errors.append(str(error)))
    page.goto(f"{server.url}/?drawing={name}")
    page.evaluate("touchtracker.ready")
    touch = Touchscreen(page)
    touch.wait_for("touchtracker.live().status === 'live'")
    return page, touch


def converged(touch):
    touch.wait_for(
        "(() => { const s = touchtracker.saving(); return !s.dirty && !s.offline && !s.stopped"
        " && touchtracker.live().status === 'live'; })()"
    )


def presence_pixel(page, x, y):
    """The alpha of the presence layer at CSS pixel (x, y)."""
    return page.evaluate(
        """([x, y]) => {
          const canvas = document.getElementById('presence');
          const dpr = canvas.width / document.documentElement.clientWidth;
          return canvas.getContext('2d').getImageData(Math.round(x * dpr), Math.round(y * dpr), 1, 1).data[3];
        }""",
        [x, y],
    )


def test_two_pages_see_each_others_lines_in_progress_and_finished(browser, server):
    phone, phone_touch = open_live(browser, server, "together", PHONE)
    desk, desk_touch = open_live(browser, server, "together", DESKTOP)

    phone_touch.drag("a", (60, 200), (300, 260))
    phone_touch.settle()
    desk_touch.wait_for("Object.values(touchtracker.live().presence).includes(1)")
    desk_touch.wait_for(
        "(() => { const c = document.getElementById('presence');"
        " return c.getContext('2d').getImageData(180, 230, 1, 1).data[3] > 0; })()"
    )
    assert presence_pixel(desk, 180, 230) > 0, "the phone's line in progress is on the desktop's screen"
    assert desk_touch.document()["lines"] == [], "but it is not in the drawing until it is finished"

    phone_touch.up("a")
    phone_touch.settle()
    desk_touch.wait_for("touchtracker.document().lines.length === 1")
    desk_touch.wait_for("Object.keys(touchtracker.live().presence).length === 0")
    assert presence_pixel(desk, 180, 230) == 0, "the line in progress is gone once lifted"
    assert desk_touch.document() == {**desk_touch.document(), "lines": [line(60, 200, 300, 260)]}

    desk_touch.line((500, 500), (900, 520))
    phone_touch.wait_for("touchtracker.document().lines.length === 2")
    converged(phone_touch)
    converged(desk_touch)
    theirs = stored(server, "together", ids=True)
    assert phone_touch.document(ids=True) == theirs
    assert desk_touch.document(ids=True) == theirs
    for touch in (phone_touch, desk_touch):
        # Others' lines are the server's already: the browser's copy is not left "unsaved"
        # (the next visit would send it back whole).
        eventually(lambda: touch.page.evaluate("touchtracker.localCopy('together')").get("dirty") is False, 5)
    assert phone.errors == [] and desk.errors == []
    phone.context.close()
    desk.context.close()


def test_undo_takes_back_only_my_own_line(browser, server):
    first, first_touch = open_live(browser, server, "undo-mine", DESKTOP)
    second, second_touch = open_live(browser, server, "undo-mine", PHONE)
    first_touch.line((100, 100), (300, 100))
    second_touch.wait_for("touchtracker.document().lines.length === 1")
    second_touch.line((100, 300), (300, 300))
    first_touch.wait_for("touchtracker.document().lines.length === 2")

    first.evaluate("touchtracker.core().tt_undo()")
    first_touch.settle()
    second_touch.wait_for("touchtracker.document().lines.length === 1")
    assert second_touch.document()["lines"] == [line(100, 300, 300, 300)], "the other person's line stays"
    converged(first_touch)
    converged(second_touch)
    assert first_touch.document(ids=True) == second_touch.document(ids=True) == stored(server, "undo-mine", ids=True)
    first.context.close()
    second.context.close()


def test_a_page_cut_off_keeps_drawing_and_both_converge(browser, server):
    first, first_touch = open_live(browser, server, "cut-off", DESKTOP)
    second, second_touch = open_live(browser, server, "cut-off", DESKTOP)
    first_touch.line((100, 100), (300, 100))
    second_touch.wait_for("touchtracker.document().lines.length === 1")

    second.context.set_offline(True)
    second.evaluate("touchtracker.liveSocketForTests()?.close()")
    second_touch.wait_for("touchtracker.live().status !== 'live'")
    second_touch.line((100, 300), (300, 300))  # drawn while cut off
    first_touch.line((100, 500), (300, 500))  # meanwhile on the other page
    second_touch.wait_for("touchtracker.saving().offline")

    second.context.set_offline(False)
    second.evaluate("window.dispatchEvent(new Event('online'))")
    converged(second_touch)
    first_touch.wait_for("touchtracker.document().lines.length === 3")
    converged(first_touch)
    theirs = stored(server, "cut-off", ids=True)
    assert len(theirs["lines"]) == 3
    assert first_touch.document(ids=True) == theirs
    assert second_touch.document(ids=True) == theirs, "the page that was cut off shows exactly the server's drawing"
    first.context.close()
    second.context.close()


def test_a_whole_document_saved_over_the_drawing_reaches_the_open_page(browser, server):
    page, touch = open_live(browser, server, "replaced", DESKTOP)
    touch.line((100, 100), (300, 100))
    converged(touch)
    revision = stored(server, "replaced", ids=True)
    status, headers, _ = request(
        server,
        "PUT",
        "/api/drawings/replaced",
        {**revision, "lines": [line(50, 50, 60, 60)]},
    )
    assert status == 200
    touch.wait_for("touchtracker.document().lines.length === 1 && touchtracker.document().lines[0].begin.x === 50")
    converged(touch)
    page.context.close()


def test_a_page_that_comes_back_takes_its_backlog_in_batched_frames(browser, server):
    """The page says `"batches": true`: what waits for it when it comes back (here 150 changes
    appended by others while it was cut off) may arrive as JSON arrays of messages, and it takes
    every one of them (docs/DESIGN.md, "Live sync over WebSocket")."""
    page, touch = open_live(browser, server, "backlog", DESKTOP)
    touch.line((100, 100), (300, 100))
    converged(touch)
    frames = []
    page.on("websocket", lambda socket: socket.on("framereceived", lambda payload: frames.append(payload)))

    page.context.set_offline(True)
    page.evaluate("touchtracker.liveSocketForTests()?.close()")
    touch.wait_for("touchtracker.live().status !== 'live'")
    for index in range(150):
        change = {"op": "add", "lines": [{"id": 5000 + index, **line(10 + index, 200, 40, 260)}]}
        status, _, body = request(
            server, "POST", "/api/drawings/backlog/changes", {"changes": [change]}, {"Idempotency-Key": f"b-{index}"}
        )
        assert status == 200, body

    page.context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")
    converged(touch)
    touch.wait_for("touchtracker.document().lines.length === 151")
    assert touch.document(ids=True) == stored(server, "backlog", ids=True)
    texts = [frame if isinstance(frame, str) else frame.decode() for frame in frames]
    assert any(text.startswith("[") for text in texts), f"no array among {len(texts)} frames"
    assert page.errors == []
    page.context.close()
