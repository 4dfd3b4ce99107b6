"""The inspector (issue 11): with it on, real multi-touch through Chrome shows
the book's gesture sequences as the core reports them (Responders/Diagnostics.swift):
which view a touch hit, each recognizer's states and why, touches held back,
the messages the view got. No server needed."""

import os

import pytest

from conftest import open_page
from touchscreen import Touchscreen

SHOTS = os.environ.get("INSPECTOR_SCREENSHOTS")


def inspector(page):
    return page.evaluate("touchtracker.inspector()")


def log(page):
    return inspector(page)["log"]


def in_order(lines, expected):
    """Whether `expected` appear in `lines` in this order (others may come between)."""
    position = 0
    for line in lines:
        if position < len(expected) and line == expected[position]:
            position += 1
    return position == len(expected)


def states(page, recognizer):
    """The last gesture of `recognizer` as the panel's timeline shows it: [(state, cause), ...]."""
    gestures = inspector(page)["recognizers"].get(recognizer, [])
    return [(step["state"], step["cause"]) for step in gestures[-1]["steps"]] if gestures else []


def turn_on(page):
    page.keyboard.press("i")
    page.wait_for_function("touchtracker.inspector().on")


def test_off_by_default_then_the_key_and_the_toolbar_toggle_it(page):
    assert inspector(page)["on"] is False
    assert page.locator("#inspector").is_hidden()
    page.keyboard.press("i")
    assert page.locator("#inspector").is_visible()
    assert inspector(page)["on"] is True
    page.click('#toolbar > [data-command="inspector"]')
    assert page.locator("#inspector").is_hidden()
    assert page.get_attribute('#toolbar > [data-command="inspector"]', "aria-pressed") == "false"
    page.click('#toolbar > [data-command="inspector"]')
    assert page.locator("#inspector").is_visible()


def test_off_the_core_reports_nothing(touch):
    touch.line((100, 300), (300, 300))
    assert touch.page.evaluate("touchtracker.core().tt_take_records()") == 0


def test_a_double_tap_shows_the_single_tap_waiting_for_it_then_failing(touch):
    page = touch.page
    turn_on(page)
    # Back to back: waiting a frame between the taps can exceed the double-tap interval on a loaded machine.
    touch.down(first=(200, 300))
    touch.up("first")
    touch.down(second=(202, 300))
    touch.up("second")
    touch.settle()
    lines = log(page)
    first, second = inspector(page)["touches"][-2]["id"], inspector(page)["touches"][-1]["id"]
    assert in_order(
        lines,
        [
            f"touch {first} hit DrawView (Window > DrawView)",
            f"touch {first} began held by double tap",
            "tap: waits for double tap to fail",
            "double tap: possible -> ended (touches matched)",
            f"touch {second} began dropped",
            "tap: possible -> failed (required double tap to fail; it recognized)",
            "doubleTap(_:) from double tap: asked DrawView, DrawView performed it",
        ],
    ), lines
    assert states(page, "tap") == [
        ("possible", ""),
        ("waiting", "for double tap to fail"),
        ("failed", "required double tap to fail; it recognized"),
    ]
    assert states(page, "double tap")[-1] == ("ended", "touches matched")
    # The table shows both taps ended, though the view never heard of them.
    rows = page.locator('[data-inspector="touches"] tr:not(.path)').all_inner_texts()
    assert [row.split("\t")[2] for row in rows[:2]] == ["ended", "ended"], rows
    # The view never heard of either tap: both were held back, then dropped.
    assert not [line for line in lines if line.startswith("touches")], lines
    panel = page.inner_text("#inspector")
    assert "required double tap to fail" in panel
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/desktop-double-tap.png")


def test_a_long_press_begins_after_half_a_second_and_the_pan_moves_the_line(touch):
    page = touch.page
    touch.line((100, 300), (400, 300))
    turn_on(page)
    touch.down(press=(250, 300))
    touch.settle()
    touch.skip_time(0.6)
    for y in (320, 350, 380):
        touch.move(press=(250, y))
        touch.settle()
    touch.up("press")
    touch.settle()
    records = inspector(page)["records"]
    hit = next(r for r in records if r["kind"] == "hit")
    began = next(r for r in records if r["kind"] == "state" and r["recognizer"] == "long press" and r["to"] == "began")
    assert began["cause"] == "held long enough"
    assert began["t"] - hit["t"] == pytest.approx(0.5, abs=1e-6)
    assert in_order(
        log(page),
        [
            "long press: possible -> began (held long enough)",
            "longPress(_:) from long press: asked DrawView, DrawView performed it",
            "pan: possible -> began (touches matched)",
            "moveLine(_:) from pan: asked DrawView, DrawView performed it",
            "long press: changed -> ended",
        ],
    ), log(page)
    assert [s for s, _ in states(page, "long press")] == ["possible", "began", "changed", "ended"]
    line = touch.document()["lines"][0]
    assert (line["begin"]["y"], line["end"]["y"]) == (380, 380), "the pan moved the line with the finger"


def test_a_three_finger_swipe_holds_its_touches_back_and_the_view_never_hears_of_them(touch):
    page = touch.page
    turn_on(page)
    # No frame waited between the moves: the swipe must be done within 1 s, even on a loaded machine.
    touch.down(a=(300, 500), b=(350, 500), c=(400, 500))
    for y in (480, 450, 420):
        touch.move(a=(300, y), b=(350, y), c=(400, y))
    touch.up("a", "b", "c")
    touch.settle()
    ids = [t["id"] for t in inspector(page)["touches"][-3:]]
    lines = log(page)
    # The swipe delays touchesBegan (so its fingers never flash as red lines):
    # each touch is held back by it, and dropped once it recognizes.
    assert in_order(
        lines,
        ["double tap: possible -> failed (wrong number of touches)"]
        + [f"touch {id} began held by three-finger swipe" for id in ids]
        + ["three-finger swipe: possible -> ended (touches matched)"]
        + [f"touch {id} began dropped" for id in ids]
        + ["showPalette(_:) from three-finger swipe: asked DrawViewController, DrawViewController performed it"],
    ), lines
    assert not [line for line in lines if line.startswith("touches")], lines
    assert touch.state()["paletteVisible"]
    assert touch.document()["lines"] == []


def test_drawing_with_the_inspector_on_draws_the_same(browser, static_url):
    documents = []
    for on in (False, True):
        page = open_page(browser, static_url + "/")
        touch = Touchscreen(page)
        if on:
            turn_on(page)
        touch.line((100, 200), (300, 260))
        touch.down(a=(200, 400), b=(300, 460))
        touch.move(a=(180, 400), b=(320, 480))
        touch.up("a", "b")
        touch.settle()
        documents.append(touch.document())
        assert page.errors == []
        page.context.close()
    assert documents[0] == documents[1]


def test_the_log_filters(touch):
    page = touch.page
    turn_on(page)
    touch.line((100, 300), (300, 300))
    page.select_option('[data-inspector="kind"]', "touches")
    shown = page.locator('[data-inspector="log"] li').all_inner_texts()
    assert shown and all(line.startswith(("touches", "touch ")) for line in shown), shown
    page.select_option('[data-inspector="kind"]', "all")
    page.fill('[data-inspector="filter"]', "pan")
    shown = page.locator('[data-inspector="log"] li').all_inner_texts()
    assert shown and all("pan" in line for line in shown), shown


def test_a_bottom_sheet_on_a_phone(phone):
    touch = Touchscreen(phone)
    bar = phone.locator("#toolbar").bounding_box()
    phone.click("#file-menu summary")
    phone.click('#file-menu [data-command="inspector"]')
    assert phone.get_attribute('#file-menu [data-command="inspector"]', "aria-checked") == "true"
    assert phone.locator("#toolbar").bounding_box()["height"] == bar["height"], "the toolbar keeps one row"
    touch.line((40, 300), (350, 300))
    assert phone.locator("#toolbar").bounding_box()["height"] == bar["height"], "the unsaved mark does not wrap it"
    box = phone.locator("#inspector").bounding_box()
    assert box["width"] == pytest.approx(390, abs=1)
    assert box["y"] + box["height"] == pytest.approx(844, abs=1)
    assert box["height"] < 844 / 2
    touch.tap((195, 200))
    touch.skip_time(0.5)
    assert "tap" in phone.inner_text("#inspector")
    if SHOTS:
        phone.screenshot(path=f"{SHOTS}/phone.png")


def test_a_side_panel_on_a_desktop(page):
    page.click('#toolbar > [data-command="inspector"]')
    box = page.locator("#inspector").bounding_box()
    viewport = page.viewport_size
    assert box["x"] + box["width"] == pytest.approx(viewport["width"] - 8, abs=1)
    assert box["width"] < viewport["width"] / 2
    assert box["height"] > viewport["height"] * 0.8


LOG_BOX = """() => {
  const log = document.querySelector('#inspector [data-inspector="log"]');
  const box = log.getBoundingClientRect();
  const newest = log.lastElementChild?.getBoundingClientRect();
  return { height: box.height, top: log.scrollTop, rows: [...log.children].map((row) => row.textContent),
           newestInView: !!newest && newest.top >= box.top - 1 && newest.bottom <= box.bottom + 1 };
}"""


@pytest.mark.parametrize("width,height", [(390, 844), (1024, 1366), (1440, 900)])
def test_the_event_log_is_tall_and_follows_the_newest_rows_until_scrolled_away(browser, static_url, width, height):
    page = open_page(browser, static_url + "/", hint_read=True, viewport={"width": width, "height": height})
    touch = Touchscreen(page)
    turn_on(page)
    for i in range(6):
        touch.line((40, 100 + 30 * i), (300, 110 + 30 * i))
    log_box = page.evaluate(LOG_BOX)
    assert log_box["height"] >= 240, "room for a gesture's rows"
    assert log_box["newestInView"], "the newest rows are in view"
    assert log_box["rows"][-1] == log(page)[-1]

    page.evaluate("document.querySelector('#inspector [data-inspector=\"log\"]').scrollTop = 0")
    touch.line((40, 400), (300, 420))
    assert page.evaluate(LOG_BOX)["top"] == 0, "scrolled away to read: the log stays put"
    page.evaluate("(l => { l.scrollTop = l.scrollHeight; })(document.querySelector('#inspector [data-inspector=\"log\"]'))")
    touch.line((40, 450), (300, 470))
    assert page.evaluate(LOG_BOX)["newestInView"], "back at the bottom: it follows again"
    assert page.errors == []
    page.context.close()


def test_the_event_log_keeps_a_long_session_from_its_first_row(touch):
    page = touch.page
    turn_on(page)
    for i in range(20):
        touch.line((40, 60 + 25 * i), (300, 70 + 25 * i))
    rows = page.evaluate(LOG_BOX)["rows"]
    entries = log(page)
    assert len(entries) > 400, "more rows than the old cap"
    assert rows == entries, "every row of the session is shown"
    first = inspector(page)["touches"][0]["id"]
    assert rows[0] == f"touch {first} hit DrawView (Window > DrawView)"


def timeline(page, recognizer):
    return page.locator(f'#inspector [data-recognizer="{recognizer}"] .timeline > li').all_inner_texts()


def test_each_recognizers_row_starts_over_with_each_gesture(touch):
    page = touch.page
    touch.line((100, 300), (400, 300))
    turn_on(page)
    touch.line((100, 500), (400, 520))
    assert [s.split("\n")[0] for s in timeline(page, "pan")][-1] == "ended", timeline(page, "pan")
    touch.down(press=(250, 300))
    touch.settle()
    touch.skip_time(0.6)
    assert timeline(page, "pan") == ["possible"], "the last gesture's pan is not shown during the next"
    assert [s.split("\n")[0] for s in timeline(page, "long press")] == ["possible", "began"]
    touch.up("press")
    touch.settle()
