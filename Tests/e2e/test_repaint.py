"""A change to one line repaints only the rectangle it touched, and the pixels
come out exactly as a repaint of the whole drawing would make them, at any
pixel ratio (at 1.1 a 256-point tile ends inside a device pixel)."""

import json

import pytest
from conftest import open_page
from touchscreen import Touchscreen

# Keeps a copy of the visible canvas's pixels under `name`.
SNAPSHOT = """name => {
  const canvas = document.getElementById('canvas');
  const pixels = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
  (window.__snapshots ??= {})[name] = pixels.slice();
}"""

# Counts the pixels that differ between two snapshots, inside and outside `rect` (CSS px).
DIFF = """([a, b, rect]) => {
  const canvas = document.getElementById('canvas');
  const dpr = window.devicePixelRatio;
  const [p, q] = [window.__snapshots[a], window.__snapshots[b]];
  let inside = 0, outside = 0;
  for (let y = 0; y < canvas.height; y++) {
    for (let x = 0; x < canvas.width; x++) {
      const i = (y * canvas.width + x) * 4;
      if (p[i] === q[i] && p[i + 1] === q[i + 1] && p[i + 2] === q[i + 2] && p[i + 3] === q[i + 3]) continue;
      const [cx, cy] = [x / dpr, y / dpr];
      const within = rect && cx >= rect.x && cx < rect.x + rect.width && cy >= rect.y && cy < rect.y + rect.height;
      within ? inside++ : outside++;
    }
  }
  return { inside, outside };
}"""


def crowd():
    """Lines crossing each other in every direction and color, around (400, 300)."""
    lines = []
    for i in range(120):
        x = 20 + i * 6
        color = f"#{(i * 2654435761) % 0xFFFFFF:06x}"
        lines.append({"begin": {"x": x, "y": 40}, "end": {"x": 780 - x, "y": 560}, "color": color, "width": 4 + i % 9})
        lines.append({"begin": {"x": 20, "y": 40 + i * 4}, "end": {"x": 780, "y": 560 - i * 4}, "color": color, "width": 3})
    target = {"begin": {"x": 300, "y": 250}, "end": {"x": 500, "y": 330}, "color": "#000000", "width": 10}
    return {"format": "touchtracker", "version": 1, "lines": lines + [target], "circles": [
        {"center": {"x": 420, "y": 300}, "radius": 60, "color": "#0000ff", "width": 10},
    ]}


# The target line's painted bounds: its box grown by half its width and the antialias margin (2).
LINE = {"x": 293, "y": 243, "width": 214, "height": 94}
MOVED = {"x": 293, "y": 183, "width": 254, "height": 154}  # to 40 points right and 60 up, with where it was


def inside(rect, outer):
    return (
        rect["x"] >= outer["x"]
        and rect["y"] >= outer["y"]
        and rect["x"] + rect["width"] <= outer["x"] + outer["width"]
        and rect["y"] + rect["height"] <= outer["y"] + outer["height"]
    )


def settle_repaint(touch):
    touch.settle()
    touch.wait_for("!touchtracker.paintStats().pendingSections")  # a repaint takes as many frames as it needs
    touch.settle()


@pytest.mark.parametrize("dpr", [1, 1.1, 3])
@pytest.mark.parametrize("change", ["delete", "undo-delete", "move"])
def test_a_change_to_one_line_repaints_only_its_rectangle_exactly(browser, static_url, change, dpr):
    page = open_page(browser, static_url + "/", device_scale_factor=dpr)
    touch = Touchscreen(page)
    assert page.evaluate("text => touchtracker.loadDocument(text)", json.dumps(crowd())) is None
    settle_repaint(touch)
    if change == "undo-delete":
        touch.tap((400, 290))
        touch.skip_time(0.5)  # past the double-tap interval: the tap selects
        page.keyboard.press("Delete")
        settle_repaint(touch)
    page.evaluate(SNAPSHOT, "before")
    stats_before = page.evaluate("touchtracker.paintStats()")
    # One chunk of commands a frame: the repaint spans frames, and the screen gets each section as it is copied.
    page.evaluate("touchtracker.repaintBudget(0)")

    if change == "delete":
        touch.tap((400, 290))
        touch.skip_time(0.5)  # past the double-tap interval: the tap selects
        assert touch.state()["selectedLine"] == 240
        page.keyboard.press("Delete")
    elif change == "undo-delete":
        page.keyboard.press("Control+z")
    else:
        touch.down(f=(400, 290))
        touch.wait_for("touchtracker.state().selectedLine === 240")
        for step in range(1, 5):
            touch.move(f=(400 + step * 10, 290 - step * 15))
            touch.settle(1)
        touch.up("f")
    settle_repaint(touch)

    stats = page.evaluate("touchtracker.paintStats()")
    assert stats["lastRepaintFrames"] > 4, "the repaint took several frames"
    assert stats["whole"] == stats_before["whole"], "nothing was repainted whole"
    assert stats["repaint"] > stats_before["repaint"]
    rect = stats["lastRepaint"]
    # The line's rectangle (with where it went, for a move) and at most the page's point of slack around it.
    damage = MOVED if change == "move" else LINE
    slack = {"x": damage["x"] - 1, "y": damage["y"] - 1, "width": damage["width"] + 2, "height": damage["height"] + 2}
    assert inside(rect, slack), f"only the line's rectangle, not its tiles: {rect}"

    page.evaluate(SNAPSHOT, "after")
    page.evaluate("touchtracker.repaintAll()")
    touch.settle()
    page.evaluate(SNAPSHOT, "whole")

    right = page.evaluate(DIFF, ["after", "whole", None])
    assert right == {"inside": 0, "outside": 0}, "every pixel is what a whole repaint gives"
    untouched = page.evaluate(DIFF, ["before", "after", rect])
    assert untouched["outside"] == 0, "no pixel outside the rectangle changed"
    assert untouched["inside"] > 100, "the line's pixels did change"
    assert page.errors == []
    page.context.close()


# Every frame, after the page's own: the pixel at CSS point (x, y) and the sections still to repaint.
SAMPLE_EVERY_FRAME = """([x, y]) => {
  window.__samples = [];
  const canvas = document.getElementById('canvas');
  const dpr = window.devicePixelRatio;
  const sample = () => {
    const [r, g, b] = canvas.getContext('2d').getImageData(Math.round(x * dpr), Math.round(y * dpr), 1, 1).data;
    window.__samples.push([r, g, b, touchtracker.paintStats().pendingSections]);
    if (!window.__stopSampling) requestAnimationFrame(sample);
  };
  requestAnimationFrame(sample);
}"""


@pytest.mark.parametrize("dpr", [1, 3])
def test_a_line_let_go_of_stays_on_screen_while_its_tiles_repaint(browser, static_url, dpr):
    # Held, the line is in the live layer only (its tiles were repainted without it). Let go, it goes
    # back into the static layer by a repaint that spans frames: meanwhile it stays in the live layer, in
    # its own color. It used to vanish until the repaint was copied in (~0.3 s at 100k lines).
    page = open_page(browser, static_url + "/", device_scale_factor=dpr)
    touch = Touchscreen(page)
    assert page.evaluate("text => touchtracker.loadDocument(text)", json.dumps(crowd())) is None
    settle_repaint(touch)
    page.evaluate("touchtracker.repaintBudget(0)")  # one chunk of commands a frame
    touch.down(f=(400, 290))
    touch.wait_for("touchtracker.state().selectedLine === 240")
    for step in range(1, 5):
        touch.move(f=(400 + step * 10, 290 - step * 15))
        touch.settle(1)
    settle_repaint(touch)
    # The target (black, drawn last: on top of the crowd) moved 40 right and 60 up; its middle is here.
    middle = (440, 230)
    page.evaluate(SAMPLE_EVERY_FRAME, list(middle))
    touch.settle(2)
    touch.up("f")
    settle_repaint(touch)
    page.evaluate("window.__stopSampling = true")
    samples = page.evaluate("window.__samples")
    green = [s[:3] for s in samples[:2]]
    assert all(g > 100 and r < 100 and b < 100 for r, g, b in green), f"held, the line is green: {green}"
    after = [s for s in samples if not (s[1] > 100 and s[0] < 100 and s[2] < 100)]
    assert any(s[3] > 0 for s in after), f"the repaint spanned frames after the line was let go of: {samples}"
    assert all(max(s[:3]) < 40 for s in after), f"black in every frame after it was let go of: {samples}"
    assert touch.state()["selectedLine"] is None
    assert page.errors == []
    page.context.close()
