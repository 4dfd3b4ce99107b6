"""The recorder and time travel (issue 11): a session recorded in the page
with real multi-touch through Chrome, saved as a trace, replays through
`touchtracker replay` to the document the page saved, byte for byte; the
page plays a trace back (play on, step, scrub back) without saving any of
it, and leaving the playback brings the drawing back."""

import json
import subprocess

from test_saving import open_drawing, request, wait_until_saved


def replay_document(server, trace_path):
    """The drawing `touchtracker replay` prints for the trace, as the exact bytes it writes."""
    result = subprocess.run([str(server.binary), "replay", str(trace_path)], capture_output=True, timeout=60)
    assert result.returncode == 0, result.stderr.decode()
    output = result.stdout.decode().strip()
    assert output.startswith('{"drawing":'), output[:80]
    return output[len('{"drawing":') : output.rindex(',"state":')]


def saved_document(server, name):
    status, _, body = request(server, "GET", f"/api/drawings/{name}")
    assert status == 200
    return body.decode()


def record_a_session(page, touch):
    """Draws with one finger, two fingers (a circle), selects and deletes a line, undoes, while recording."""
    touch.line((60, 80), (300, 90))
    page.keyboard.press("i")
    page.wait_for_function("touchtracker.inspector().on")
    page.click('[data-recorder="record"]')
    assert page.evaluate("touchtracker.recorder().recording")
    touch.line((40.5, 200.25), (330.75, 260.5))
    touch.line((50, 420), (320, 380))
    # Two fingers apart: a circle.
    touch.down(a=(120, 320), b=(220, 330))
    touch.move(a=(100, 320), b=(240, 335))
    touch.move(a=(90, 318), b=(250, 340))
    touch.up("a", "b")
    touch.settle()
    # A tap selects the second line once the double tap runs out of time; Delete deletes it; undo brings it back.
    touch.tap((185, 400))
    touch.skip_time(1)
    touch.wait_for("touchtracker.state().selectedLine !== null")
    page.keyboard.press("Delete")
    touch.settle()
    page.keyboard.press("Control+z")
    touch.settle()
    touch.line((70, 500), (250, 520))
    page.click('[data-recorder="record"]')
    assert not page.evaluate("touchtracker.recorder().recording")


def test_a_recorded_session_replays_to_the_document_the_page_saved(browser, server, tmp_path):
    page, touch = open_drawing(browser, server, "recorded")
    page.evaluate("touchtracker.ready")
    record_a_session(page, touch)
    wait_until_saved(touch)

    with page.expect_download() as info:
        page.click('[data-recorder="save"]')
    download = info.value
    assert download.suggested_filename.startswith("touchtracker-recorded-") and download.suggested_filename.endswith(".trace.json")
    path = tmp_path / "session.trace.json"
    download.save_as(path)
    trace = json.loads(path.read_text())
    assert sum(1 for event in trace["events"] if "touches" in event) > 20, "the fingers' every move is there"
    assert any(event.get("action") == "delete" for event in trace["events"])
    assert any(event.get("action") == "undo" for event in trace["events"])

    saved = saved_document(server, "recorded")
    assert len(json.loads(saved)["lines"]) == 4 and len(json.loads(saved)["circles"]) == 1
    assert replay_document(server, path) == saved, "byte for byte"
    assert page.errors == []


def test_a_trace_plays_back_in_the_page_and_none_of_it_is_saved(browser, server):
    page, touch = open_drawing(browser, server, "played")
    page.evaluate("touchtracker.ready")
    record_a_session(page, touch)
    wait_until_saved(touch)
    saved = saved_document(server, "played")
    final = touch.document(ids=True)

    page.click('[data-recorder="replay"]')
    page.wait_for_function("touchtracker.recorder().playback.on")
    playback = page.evaluate("touchtracker.recorder().playback")
    assert playback["next"] == 0 and playback["events"] > 20
    # Before the first event: nothing of the recording's drawing yet.
    assert touch.document()["lines"] == []

    # Step through the first events: the drawing as it was when recording started.
    for _ in range(5):
        page.click('[data-recorder="step"]')
    assert page.evaluate("touchtracker.recorder().playback.next") == 5
    assert len(touch.document()["lines"]) == 1

    # Play at 4x to the end.
    page.select_option('[data-recorder="speed"]', "4")
    page.click('[data-recorder="play"]')
    touch.wait_for("!touchtracker.recorder().playback.playing && touchtracker.recorder().playback.next === touchtracker.recorder().playback.events")
    assert touch.document(ids=True) == final, "the playback ends in the drawing the session made"

    # Scrub back to the middle, then forward again: the same drawing at each point.
    start, end = playback["start"], playback["end"]
    page.evaluate("t => touchtracker.seek(t)", (start + end) / 2)
    middle = touch.document(ids=True)
    assert middle != final
    page.evaluate("t => touchtracker.seek(t)", end)
    assert touch.document(ids=True) == final
    page.evaluate("t => touchtracker.seek(t)", (start + end) / 2)
    assert touch.document(ids=True) == middle
    # The inspector followed the playback (it starts over with it): its log has the recorded touches.
    touch.wait_for("touchtracker.inspector().log.some((entry) => String(entry).includes('touchesBegan'))")

    # The page's own input does nothing while a recording plays; none of the playback was saved.
    touch.line((500, 500), (700, 500))
    assert touch.document(ids=True) == middle
    page.wait_for_timeout(600)
    assert saved_document(server, "played") == saved

    page.click('[data-recorder="leave"]')
    page.wait_for_load_state("load")
    page.evaluate("touchtracker.ready")
    touch.wait_for("touchtracker.state().lines === 4")
    assert touch.document(ids=True) == final
    assert page.errors == []


def test_a_trace_that_cannot_be_played_says_why_and_changes_nothing(browser, server):
    page, touch = open_drawing(browser, server, "refused")
    page.evaluate("touchtracker.ready")
    touch.line((60, 80), (300, 90))
    page.keyboard.press("i")
    problem = page.evaluate("""touchtracker.playTrace('{"events":[{"time":0,"touches":[{"id":1,"phase":"moving","x":1,"y":1}]}]}')""")
    assert problem == (
        "Cannot play this trace: Unknown phase 'moving' at events[0].touches[0].phase; "
        "expected began, moved, stationary, ended or cancelled"
    )
    assert page.locator('[data-recorder="status"]').text_content() == problem
    assert not page.evaluate("touchtracker.recorder().playback.on")
    assert len(touch.document()["lines"]) == 1
    touch.line((60, 200), (300, 190))
    wait_until_saved(touch)
    assert page.errors == []
