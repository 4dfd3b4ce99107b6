"""Pens in the page (issue 9): a pen's pressure sets its line's width as it is
drawn, and while a pen is in use fingers do not draw but still tap to select
(palm rejection, the toolbar's "Pen only draws"). No server needed.

The pen is real input through the DevTools protocol: `Input.dispatchMouseEvent`
with `pointerType: "pen"` and `force` (the protocol's pressure, 0-1), which
headless Chromium turns into Pointer Events of type "pen" with that
`pressure` (and `tiltX`/`tiltY`, with `altitudeAngle`/`azimuthAngle`).
Fingers go through `Input.dispatchTouchEvent` (touchscreen.py).
"""

import json

from touchscreen import Touchscreen


class Pen:
    """One pen on the page through `Input.dispatchMouseEvent`."""

    def __init__(self, touch):
        self.touch = touch
        self.cdp = touch.cdp

    def _send(self, kind, point, force, buttons=1, **extra):
        self.cdp.send("Input.dispatchMouseEvent", {
            "type": kind, "x": point[0], "y": point[1], "button": "left", "buttons": buttons,
            "clickCount": 1, "pointerType": "pen", "force": force, **extra,
        })

    def down(self, point, force, **extra):
        self._send("mousePressed", point, force, **extra)
        self.touch.settle(1)

    def move(self, point, force, **extra):
        self._send("mouseMoved", point, force, **extra)
        self.touch.settle(1)

    def up(self, point):
        self._send("mouseReleased", point, 0, buttons=0)
        self.touch.settle()

    def line(self, start, end, force, steps=4):
        self.down(start, force)
        for step in range(1, steps + 1):
            t = step / steps
            self.move((start[0] + (end[0] - start[0]) * t, start[1] + (end[1] - start[1]) * t), force)
        self.up(end)


def live_widths(page):
    """The widths of the lines being drawn, from the core (what others see of them live)."""
    text = page.evaluate("""() => {
      const t = touchtracker.core();
      const length = t.tt_presence();
      return new TextDecoder().decode(new Uint8Array(t.memory.buffer, t.tt_out_ptr() >>> 0, length));
    }""")
    return [line["width"] for line in json.loads(text)["lines"]]


def test_cdp_pens_reach_the_page_as_pen_pointer_events_with_pressure(page, touch):
    page.evaluate("""window.seen = [];
      document.getElementById('canvas').addEventListener('pointerdown',
        e => seen.push([e.pointerType, Math.round(e.pressure * 100) / 100, e.tiltX]))""")
    pen = Pen(touch)
    pen.down((100, 300), 0.25, tiltX=30)
    pen.up((100, 300))
    assert page.evaluate("seen") == [["pen", 0.25, 30]]


def test_a_light_pen_draws_thinner_than_a_firm_one(page, touch):
    pen = Pen(touch)
    pen.line((100, 200), (400, 200), force=0.15)
    pen.line((100, 300), (400, 300), force=0.9)
    # Force is twice the pressure (1.0 an average press), the width 10 points times the force.
    assert [line["width"] for line in touch.document()["lines"]] == [3, 18]


def test_the_width_follows_the_pressure_while_the_line_is_drawn(page, touch):
    pen = Pen(touch)
    pen.down((100, 200), 0.2)
    pen.move((150, 200), 0.2)
    assert live_widths(page) == [4]
    pen.move((200, 200), 0.8)
    assert live_widths(page) == [16]
    pen.move((250, 200), 0.5)
    assert live_widths(page) == [10]
    pen.up((250, 200))
    # Lifting reports no pressure: the line keeps the width of its last press.
    assert [line["width"] for line in touch.document()["lines"]] == [10]


def test_a_finger_does_not_draw_while_a_pen_is_in_use_but_still_taps_to_select(page, touch):
    pen = Pen(touch)
    pen.down((100, 100), 0.5)
    pen.move((200, 100), 0.5)
    # A palm on the screen while the pen draws.
    touch.line((100, 400), (500, 450), name="palm")
    assert touch.state()["linesInProgress"] == 1, "only the pen draws"
    pen.move((400, 100), 0.5)
    pen.up((400, 100))
    assert len(touch.document()["lines"]) == 1
    # Right after the pen lifted a palm still does not draw, and a finger's tap selects the pen's line.
    touch.line((100, 500), (500, 550), name="palm")
    assert len(touch.document()["lines"]) == 1
    touch.tap((300, 103))
    touch.skip_time(0.6)
    touch.wait_for("touchtracker.state().selectedLine === 0")
    # Long after the pen, fingers draw again (above the notice that said why the palm drew nothing).
    touch.skip_time(6)
    touch.line((100, 250), (500, 300), name="finger")
    assert len(touch.document()["lines"]) == 2


def test_the_toolbar_toggle_turns_palm_rejection_off_from_the_keyboard(page, touch):
    toggle = page.locator('[data-toggle="pen"]')
    Pen(touch).line((100, 500), (300, 500), 0.5)  # the toggle is there once a pen is used
    touch.skip_time(6)
    assert toggle.get_attribute("aria-label") == "Pen only draws"
    assert toggle.get_attribute("aria-pressed") == "true"
    assert touch.state()["penOnlyDraws"] is True
    toggle.focus()
    page.keyboard.press("Enter")
    assert toggle.get_attribute("aria-pressed") == "false"
    assert touch.state()["penOnlyDraws"] is False
    pen = Pen(touch)
    pen.down((100, 100), 0.5)
    pen.move((200, 100), 0.5)
    touch.line((100, 400), (500, 450), name="finger")
    pen.up((200, 100))
    assert len(touch.document()["lines"]) == 3, "off, a finger draws beside the pen"
    page.keyboard.press("Space")
    assert toggle.get_attribute("aria-pressed") == "true"


def test_a_recorded_pen_session_replays_to_the_document_the_page_saved(browser, server, tmp_path):
    from test_recorder import replay_document, saved_document
    from test_saving import open_drawing, wait_until_saved

    page, touch = open_drawing(browser, server, "pens")
    page.evaluate("touchtracker.ready")
    page.keyboard.press("i")
    page.wait_for_function("touchtracker.inspector().on")
    page.click('[data-recorder="record"]')
    pen = Pen(touch)
    pen.down((60, 100), 0.2, tiltX=20, tiltY=-10)
    for step, force in enumerate([0.3, 0.55, 0.8, 0.45], start=1):
        pen.move((60 + 60 * step, 100 + 7 * step), force, tiltX=20, tiltY=-10)
    touch.line((80, 400), (300, 420), name="palm")
    pen.up((300, 128))
    pen.line((60, 250), (320, 260), force=0.9)
    page.click('[data-recorder="record"]')
    wait_until_saved(touch)

    with page.expect_download() as info:
        page.click('[data-recorder="save"]')
    path = tmp_path / "pens.trace.json"
    info.value.save_as(path)
    touches = [t for event in json.loads(path.read_text())["events"] for t in event.get("touches", [])]
    pens = [t for t in touches if t.get("type") == "pencil"]
    assert pens and all(t["maxForce"] == 2 for t in pens)
    assert {round(t.get("force", 0), 2) for t in pens} >= {0.4, 0.6, 1.1, 1.6, 0.9, 1.8}
    assert any("altitude" in t and "azimuth" in t for t in pens), "the pen's tilt"
    saved = saved_document(server, "pens")
    assert [line["width"] for line in json.loads(saved)["lines"]] == [9, 18], "the palm drew nothing"
    assert replay_document(server, path) == saved, "byte for byte"
    assert page.errors == []


def test_an_alt_drag_with_a_pen_draws_a_circle_with_palm_rejection_on(page, touch):
    """The touch held still under an Alt-drag is the pen's own (it used to
    be sent as a finger, which palm rejection, on by default, took for a palm)."""
    pen = Pen(touch)
    alt = {"modifiers": 1}
    pen.down((300, 300), 0.5, **alt)
    pen.move((360, 340), 0.5, **alt)
    pen.move((400, 380), 0.5, **alt)
    pen._send("mouseReleased", (400, 380), 0, buttons=0, **alt)
    touch.settle()
    document = touch.document()
    assert document["lines"] == []
    assert [(c["center"], c["radius"]) for c in document["circles"]] == [({"x": 350, "y": 340}, 50)]
