"""A change to one line repaints only the tiles it touched, and the pixels
come out exactly as a repaint of the whole drawing would make them."""

import json

import pytest

# Keeps a copy of the visible canvas's pixels under `name`.
SNAPSHOT = """name => {
  const canvas = document.getElementById('canvas');
  const pixels = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
  (window.__snapshots ??= {})[name] = pixels.slice();
}"""

# Counts the pixels that differ between two snapshots, inside and outside `rect` (CSS px, dpr 1).
DIFF = """([a, b, rect]) => {
  const canvas = document.getElementById('canvas');
  const [p, q] = [window.__snapshots[a], window.__snapshots[b]];
  let inside = 0, outside = 0;
  for (let y = 0; y < canvas.height; y++) {
    for (let x = 0; x < canvas.width; x++) {
      const i = (y * canvas.width + x) * 4;
      if (p[i] === q[i] && p[i + 1] === q[i + 1] && p[i + 2] === q[i + 2] && p[i + 3] === q[i + 3]) continue;
      const within = rect && x >= rect.x && x < rect.x + rect.width && y >= rect.y && y < rect.y + rect.height;
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


@pytest.mark.parametrize("change", ["delete", "undo-delete", "move"])
def test_a_change_to_one_line_repaints_only_its_tiles_exactly(page, touch, change):
    assert page.evaluate("text => touchtracker.loadDocument(text)", json.dumps(crowd())) is None
    touch.settle()
    if change == "undo-delete":
        touch.tap((400, 290))
        touch.skip_time(0.5)  # past the double-tap interval: the tap selects
        page.keyboard.press("Delete")
        touch.settle()
    page.evaluate(SNAPSHOT, "before")
    stats_before = page.evaluate("touchtracker.paintStats()")

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
    touch.settle()

    stats = page.evaluate("touchtracker.paintStats()")
    assert stats["whole"] == stats_before["whole"], "nothing was repainted whole"
    assert stats["repaint"] > stats_before["repaint"]
    rect = stats["lastRepaint"]
    # The line lies in the second column of 256-point tiles, across the first two rows;
    # moved 40 points right, it reaches into the third column.
    width = 512 if change == "move" else 256
    assert rect == {"x": 256, "y": 0, "width": width, "height": 512}, "only the tiles under the line"

    page.evaluate(SNAPSHOT, "after")
    page.evaluate("touchtracker.repaintAll()")
    touch.settle()
    page.evaluate(SNAPSHOT, "whole")

    right = page.evaluate(DIFF, ["after", "whole", None])
    assert right == {"inside": 0, "outside": 0}, "every pixel is what a whole repaint gives"
    untouched = page.evaluate(DIFF, ["before", "after", rect])
    assert untouched["outside"] == 0, "no pixel outside the rectangle changed"
    assert untouched["inside"] > 100, "the line's pixels did change"
