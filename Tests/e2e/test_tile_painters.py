"""Whole layers painted by the tile painters (workers, paint/tile-worker.js):
the same pixels as this thread paints, lines finished meanwhile on top, and
changes made meanwhile repainted after them."""

import json

import pytest
from conftest import open_page
from test_repaint import DIFF, SNAPSHOT, crowd
from touchscreen import Touchscreen

# Tiles of 256 points over the test viewport (conftest.VIEWPORT, 800x600): 4 columns, 3 rows.
TILES = 12


def repaint_whole(touch, painters):
    """Repaints the whole layer tile by tile (as opening a big drawing does), by the painters or by this thread."""
    touch.page.evaluate(f"touchtracker.tilePainters({'true' if painters else 'false'})")
    touch.page.evaluate("touchtracker.repaintAll()")
    touch.settle()
    touch.wait_for("!touchtracker.paintStats().pendingSections")
    touch.settle()


def open_crowd(browser, static_url, dpr=1):
    page = open_page(browser, static_url + "/", device_scale_factor=dpr)
    page.warnings = []
    page.on("console", lambda message: message.type == "warning" and page.warnings.append(message.text))
    touch = Touchscreen(page)
    # Painters silent for 15 s are taken for dead, and the page paints from then on: on a
    # loaded machine their start alone can take that long. These tests are about what
    # they paint, not about their silence (the last test sets its own).
    page.evaluate("touchtracker.tilePainters(true, 600_000)")
    # Every whole layer is painted tile by tile, the first one too: set before the
    # drawing, so whether the page's first frame came between the two never decides
    # who painted it (the painters do, when the browser has them).
    page.evaluate("touchtracker.progressiveCommands(0)")
    assert page.evaluate("text => touchtracker.loadDocument(text)", json.dumps(crowd())) is None
    touch.settle()
    touch.wait_for("!touchtracker.paintStats().pendingSections")
    return page, touch


def open_held(browser, static_url):
    """The crowd, its whole layer being repainted by the painters, whose answers are held back."""
    page, touch = open_crowd(browser, static_url)
    page.evaluate("touchtracker.holdTilePainters(true)")
    page.evaluate("touchtracker.repaintAll()")
    touch.settle()
    return page, touch


def assert_as_whole(page, touch, name):
    """Once nothing is left to paint, the screen (kept as `name`) is what this thread's whole repaint gives."""
    touch.wait_for("!touchtracker.paintStats().pendingSections")
    touch.settle()
    page.evaluate(SNAPSHOT, name)
    repaint_whole(touch, painters=False)
    page.evaluate(SNAPSHOT, "whole")
    assert page.evaluate(DIFF, [name, "whole", None]) == {"inside": 0, "outside": 0}


@pytest.mark.parametrize("dpr", [1, 1.1, 3])
def test_the_painters_paint_the_pixels_this_thread_paints(browser, static_url, dpr):
    page, touch = open_crowd(browser, static_url, dpr)
    before = page.evaluate("touchtracker.paintStats().workerSections")
    repaint_whole(touch, painters=True)
    assert page.evaluate("touchtracker.paintStats().workerSections") - before == TILES, "every tile came from a painter"
    page.evaluate(SNAPSHOT, "painters")

    repaint_whole(touch, painters=False)
    page.evaluate(SNAPSHOT, "here")
    page.evaluate("touchtracker.progressiveCommands(Infinity)")  # and all at once, straight into the cache
    page.evaluate("touchtracker.repaintAll()")
    touch.settle()
    page.evaluate(SNAPSHOT, "at once")

    assert page.evaluate(DIFF, ["painters", "here", None]) == {"inside": 0, "outside": 0}
    assert page.evaluate(DIFF, ["painters", "at once", None]) == {"inside": 0, "outside": 0}
    assert page.errors == []
    page.context.close()


def pixel(page, x, y):
    """The visible canvas's color at CSS point (x, y)."""
    return page.evaluate(
        """([x, y]) => {
          const canvas = document.getElementById('canvas');
          const dpr = window.devicePixelRatio;
          return [...canvas.getContext('2d').getImageData(Math.floor(x * dpr), Math.floor(y * dpr), 1, 1).data];
        }""",
        [x, y],
    )


def test_a_line_drawn_while_the_painters_paint_stays_on_top(browser, static_url):
    page, touch = open_held(browser, static_url)
    pending = page.evaluate("touchtracker.paintStats().pendingSections")
    assert pending == TILES, f"nothing came back yet, but {TILES - pending} tiles did: {page.warnings}"

    # Black (the default color), across the crowd's lines (20..780 x 40..560).
    touch.line((100, 300), (700, 300))
    assert page.evaluate("touchtracker.state().lines") == 242
    page.evaluate("touchtracker.holdTilePainters(false)")  # every tile comes back now, over the new line
    touch.settle()
    assert page.evaluate("touchtracker.paintStats().pendingSections") == 0
    for x in (150, 400, 650):
        assert pixel(page, x, 300)[:3] == [0, 0, 0], f"the new line shows at ({x}, 300), over the tiles"
    assert page.errors == []
    page.context.close()


def test_a_change_made_while_the_painters_paint_is_repainted_after_them(browser, static_url):
    page, touch = open_held(browser, static_url)
    touch.tap((400, 290))
    touch.skip_time(0.5)  # past the double-tap interval: the tap selects
    assert touch.state()["selectedLine"] == 240
    page.keyboard.press("Delete")
    touch.settle()
    assert page.evaluate("touchtracker.state().lines") == 240
    page.evaluate("touchtracker.holdTilePainters(false)")
    touch.settle()
    assert_as_whole(page, touch, "after")  # the deleted line is gone
    assert page.errors == []
    page.context.close()


def test_a_repaint_dropped_while_the_painters_paint_takes_nothing_from_them(browser, static_url):
    page, touch = open_held(browser, static_url)
    page.set_viewport_size({"width": 700, "height": 500})  # a resize starts the layer over
    touch.settle()
    started = page.evaluate("touchtracker.paintStats().workerSections")
    page.evaluate("touchtracker.holdTilePainters(false)")  # the old tiles and the new ones
    touch.settle()
    touch.wait_for("!touchtracker.paintStats().pendingSections")
    touch.settle()
    # 3 columns, 2 rows now: only the new layer's sections were copied in.
    assert page.evaluate("touchtracker.paintStats().workerSections") - started == 6
    assert_as_whole(page, touch, "after")
    assert page.errors == []
    page.context.close()


def test_painters_that_stop_answering_leave_the_layer_to_the_page(browser, static_url):
    page, touch = open_crowd(browser, static_url)
    page.evaluate("touchtracker.tilePainters(true, 300)")  # silent for 300 ms: taken for dead
    page.evaluate("touchtracker.holdTilePainters(true)")  # their answers never come
    page.evaluate("touchtracker.repaintAll()")
    touch.settle()
    assert page.evaluate("touchtracker.paintStats().pendingSections") > 0
    touch.wait_for("!touchtracker.paintStats().pendingSections")  # painted here once they were silent for 300 ms
    touch.settle()
    page.evaluate(SNAPSHOT, "after")
    page.evaluate("touchtracker.holdTilePainters(false)")  # what they sent late is not taken
    touch.settle()
    page.evaluate(SNAPSHOT, "late")
    assert page.evaluate(DIFF, ["after", "late", None]) == {"inside": 0, "outside": 0}

    before = page.evaluate("touchtracker.paintStats().workerSections")  # the first paint's, by the painters
    page.evaluate("touchtracker.repaintAll()")  # the next whole layer: the page paints it itself
    touch.settle()
    assert_as_whole(page, touch, "next")
    assert page.evaluate(DIFF, ["after", "whole", None]) == {"inside": 0, "outside": 0}, "what the page took over"
    assert page.evaluate("touchtracker.paintStats().workerSections") == before
    assert page.errors == []
    page.context.close()
