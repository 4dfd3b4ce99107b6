"""Pan and zoom over a drawing larger than the window (issue 10, problem 8):
the wheel, Ctrl+wheel (a trackpad's pinch), Space+drag, the keys and the
zoom buttons on a desktop; two fingers that land and move together on a
phone (real CDP touches); exports that hold the whole drawing. No server."""

import re
import struct

import pytest
from conftest import open_page
from touchscreen import Touchscreen

BLACK = (0, 0, 0)
GRAY = (200, 200, 200)


def viewport(page):
    return page.evaluate("touchtracker.viewport()")


def lines(touch):
    return [((l["begin"]["x"], l["begin"]["y"]), (l["end"]["x"], l["end"]["y"])) for l in touch.document()["lines"]]


def test_the_wheel_pans_and_the_next_line_lands_on_the_drawing_under_the_finger(page, touch):
    touch.line((100, 300), (300, 300))
    page.mouse.move(400, 300)
    page.mouse.wheel(150, 200)
    touch.settle()
    assert viewport(page) == {"x": 150, "y": 200, "zoom": 1}
    # The line moved on screen with the drawing: (100..300, 300) is now at (-50..150, 100).
    assert touch.pixel(100, 100) == BLACK and touch.pixel(200, 300) == GRAY
    touch.line((400, 300), (500, 300))
    assert lines(touch) == [((100, 300), (300, 300)), ((550, 500), (650, 500))]


def test_ctrl_wheel_zooms_about_the_pointer_and_keys_and_buttons_zoom(page, touch):
    touch.line((300, 300), (500, 300))
    page.mouse.move(400, 300)
    page.keyboard.down("Control")
    page.mouse.wheel(0, -100)  # a wheel notch toward the screen: in
    page.keyboard.up("Control")
    touch.settle()
    view = viewport(page)
    assert view["zoom"] > 1.4
    # The drawing's (400, 300) is still under the pointer (to the 4 decimals a recording keeps of the zoom).
    assert abs((400 - view["x"]) * view["zoom"] - 400) < 0.01 and abs((300 - view["y"]) * view["zoom"] - 300) < 0.01
    assert page.locator("#zoom [data-zoom=zoom-actual]").inner_text() == f"{round(view['zoom'] * 100)}%"
    # The line is drawn zoomed: 10 pt wide becomes more than 14 on screen.
    assert touch.pixel(400, 306) == BLACK and touch.pixel(400, 300 + 5 * view["zoom"] + 3) == GRAY

    page.keyboard.press("0")
    touch.settle()
    assert viewport(page)["zoom"] == 1
    assert page.locator("#zoom [data-zoom=zoom-actual]").inner_text() == "100%"
    page.keyboard.press("-")
    touch.settle()
    assert viewport(page)["zoom"] == 0.8
    page.click("#zoom [data-zoom=zoom-in]")
    touch.settle()
    assert viewport(page)["zoom"] == 1
    page.click("#zoom [data-zoom=zoom-out]")
    page.click("#zoom [data-zoom=zoom-actual]")
    touch.settle()
    assert viewport(page)["zoom"] == 1


def test_space_drag_and_the_middle_button_pan_without_drawing(page, touch):
    touch.line((100, 100), (300, 100))
    page.mouse.move(400, 400)
    page.keyboard.down(" ")
    page.mouse.down()
    page.mouse.move(300, 350, steps=4)
    page.mouse.up()
    page.keyboard.up(" ")
    touch.settle()
    assert viewport(page) == {"x": 100, "y": 50, "zoom": 1}
    page.mouse.move(400, 400)
    page.mouse.down(button="middle")
    page.mouse.move(450, 400, steps=3)
    page.mouse.up(button="middle")
    touch.settle()
    assert viewport(page) == {"x": pytest.approx(50, abs=1e-3), "y": 50, "zoom": 1}  # thirds, to 4 decimals each
    assert len(lines(touch)) == 1, "neither drag drew"


def test_two_fingers_moving_together_pan_and_spreading_then_zooms(phone):
    touch = Touchscreen(phone)
    touch.line((100, 300), (300, 300))
    touch.down(a=(150, 500), b=(250, 500))
    for step in range(1, 6):
        touch.move(a=(150, 500 - 20 * step), b=(250, 500 - 20 * step))
    touch.settle()
    assert viewport(phone) == {"x": 0, "y": 100, "zoom": 1}
    # Now spread: twice as far apart, about the same middle.
    touch.move(a=(100, 400), b=(300, 400))
    touch.up("a", "b")
    touch.settle()
    view = viewport(phone)
    assert view["zoom"] == 2
    assert touch.document()["circles"] == [] and len(touch.document()["lines"]) == 1, "nothing drawn"
    # The drawing's (200, 500), between the fingers when they landed, is between them still.
    assert ((200 - view["x"]) * 2, (500 - view["y"]) * 2) == (200, 400)


def test_two_fingers_that_spread_at_once_still_draw_a_circle(phone):
    touch = Touchscreen(phone)
    touch.down(a=(150, 400), b=(250, 400))
    touch.move(a=(120, 400), b=(280, 400))
    touch.up("a", "b")
    touch.settle()
    assert len(touch.document()["circles"]) == 1
    assert viewport(phone) == {"x": 0, "y": 0, "zoom": 1}


def png_size(data):
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", data[16:24])


def test_exports_hold_both_ends_of_a_drawing_larger_than_the_window(page, touch):
    """The issue's check: draw at both ends of a drawing larger than the window, export it."""
    touch.line((100, 100), (300, 100))
    page.mouse.move(400, 300)
    page.mouse.wheel(2000, 1000)  # far right and down
    touch.line((300, 300), (500, 300))
    assert lines(touch) == [((100, 100), (300, 100)), ((2300, 1300), (2500, 1300))]
    # "Fit" shows both ends.
    page.click("#zoom [data-zoom=zoom-fit]")
    touch.settle()
    view = viewport(page)
    for x, y in [(100, 100), (2500, 1300)]:
        sx, sy = (x - view["x"]) * view["zoom"], (y - view["y"]) * view["zoom"]
        assert 0 <= sx <= 800 and 0 <= sy <= 600, (x, y, view)

    downloads = {}
    for command in ["svg", "png"]:
        page.click("#file-menu summary")
        with page.expect_download() as download:
            page.click(f"[data-command={command}]")
        downloads[command] = open(download.value.path(), "rb").read()
    svg = downloads["svg"].decode()
    assert re.match(r'<svg xmlns="http://www.w3.org/2000/svg" width="2527" height="1327" viewBox="0 0 2527 1327">', svg)
    assert '<line x1="100" y1="100" x2="300" y2="100"' in svg and '<line x1="2300" y1="1300" x2="2500" y2="1300"' in svg
    assert png_size(downloads["png"]) == (2527, 1327)


def test_the_help_lists_pan_and_zoom_and_the_zoom_buttons_are_labeled(page):
    page.keyboard.press("?")
    sheet = page.locator("#help")
    assert "Two fingers moving together" in sheet.inner_text()
    assert "Shift" in sheet.inner_text()
    page.keyboard.press("Escape")
    for name in ["zoom-out", "zoom-actual", "zoom-in", "zoom-fit"]:
        assert page.locator(f"#zoom [data-zoom={name}]").get_attribute("aria-label")


@pytest.mark.parametrize("painted_by", ["page", "painters"])
def test_over_a_drawing_that_paints_slowly_a_pan_moves_its_pixels_at_once_and_repaints_once_still(
    page, touch, painted_by
):
    """At 100k lines a whole paint takes seconds: a pan moves the pixels the page has, every frame, and
    the drawing is repainted tile by tile once the viewport is still, the same pixels a whole repaint
    gives; a line finished during that repaint stays. Here a small drawing is made to count as slow.
    The repaint is the page thread's, a chunk a frame, or the tile painters', held until the changes."""
    if painted_by == "page":
        page.evaluate("touchtracker.tilePainters(false)")
    else:
        page.evaluate("touchtracker.holdTilePainters(true)")
    touch.line((100, 300), (300, 300))
    touch.line((200, 100), (200, 500))
    page.evaluate("touchtracker.slowPaintMs(-1, 60000)")  # every whole paint is slow; still for a minute
    page.evaluate("touchtracker.repaintBudget(0)")  # a chunk a frame: the repaint takes many frames
    wholes = page.evaluate("touchtracker.paintStats().whole")
    page.evaluate("touchtracker.changeViewport(0, -50, 0)")  # the drawing moves 50 pt left
    touch.settle()
    assert page.evaluate("touchtracker.paintStats().whole") == wholes, "no whole repaint while it moves"
    assert viewport(page) == {"x": 50, "y": 0, "zoom": 1}
    assert touch.pixel(60, 300) == BLACK and touch.pixel(275, 300) == GRAY, "the pixels moved 50 pt left"
    assert touch.pixel(150, 150) == BLACK and touch.pixel(200, 150) == GRAY

    page.evaluate("touchtracker.slowPaintMs(-1, 0)")  # still now: the repaint starts
    # Read in the frame the repaint starts: a later round trip from here can come after its last
    # chunk on a loaded machine (it did: 0 sections left by the next evaluate).
    started, pending = page.wait_for_function(
        f"(() => {{ const s = touchtracker.paintStats(); return s.whole > {wholes} && [s.whole, s.pendingSections]; }})()"
    ).json_value()
    assert pending > 0, "the repaint goes on over frames"
    # While it goes on: a line finished, another finished and undone (a repaint of its rectangle).
    page.evaluate(
        """async () => {
          const core = touchtracker.core();
          const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
          const line = (id, y, t) => {
            core.tt_touch(id, 0, 400, y, t, 0, 1, 2, NaN, NaN);
            core.tt_touch(id, 1, 600, y, t + 0.05, 0, 1, 2, NaN, NaN);
            core.tt_touch(id, 3, 600, y, t + 0.1, 0, 1, 2, NaN, NaN);
            core.tt_commit(t + 0.1);
          };
          const t = performance.now() / 1000;
          line(90, 200, t);
          await frame();
          line(91, 400, t + 1);
          await frame();
          core.tt_undo();
          await frame();
        }"""
    )
    assert page.evaluate("touchtracker.paintStats().whole") == started, "changes during the repaint do not start it over"
    if painted_by == "painters":
        assert page.evaluate("touchtracker.paintStats().pendingSections") > 0, "the painters' tiles are still to come"
        page.evaluate("touchtracker.holdTilePainters(false)")
    page.wait_for_function("touchtracker.paintStats().pendingSections === 0 && !touchtracker.paintStats().repaintOwed")
    touch.settle()
    assert touch.pixel(500, 200) == BLACK, "the line finished during the repaint is kept"
    assert touch.pixel(500, 400) == GRAY, "the undone one is gone"
    repainted = page.locator("#canvas").screenshot()
    page.evaluate("touchtracker.repaintAll()")
    touch.settle()
    assert page.locator("#canvas").screenshot() == repainted, "the same pixels as a whole repaint"
    assert lines(touch)[-1] == ((450, 200), (650, 200))
    assert len(lines(touch)) == 3


def test_a_big_drawing_appears_tile_by_tile_with_the_pixels_of_a_whole_paint(page, touch):
    """Opening a drawing of more than 20,000 lines paints it over frames (input is answered meanwhile),
    and ends with the same pixels as painting it all at once. The page's thread paints here, a chunk a
    frame: the tile painters (test_tile_painters.py) could finish 21,000 lines within the two frames."""
    page.evaluate("touchtracker.tilePainters(false)")
    page.evaluate("touchtracker.repaintBudget(0)")  # a chunk a frame: many frames
    page.evaluate(
        """() => {
          const lines = [];
          for (let i = 0; i < 21000; i++) {
            const x = 20 + (i % 140) * 7, y = 120 + Math.floor(i / 140) * 3;
            lines.push({id: i + 1, begin: {x, y}, end: {x: x + 5, y: y + 2}, color: '#000000', width: 2});
          }
          return touchtracker.loadDocument(JSON.stringify({format: 'touchtracker', version: 1, lines, circles: []}));
        }"""
    )
    touch.settle(2)
    assert page.evaluate("touchtracker.paintStats().pendingSections") > 0, "not all in one frame"
    page.evaluate("touchtracker.repaintBudget(7)")
    page.wait_for_function("touchtracker.paintStats().pendingSections === 0", timeout=60_000)
    touch.settle()
    progressive = page.locator("#canvas").screenshot()
    page.evaluate("touchtracker.progressiveCommands(Infinity)")
    page.evaluate("touchtracker.repaintAll()")
    touch.settle()
    assert page.evaluate("touchtracker.paintStats().pendingSections") == 0
    assert page.locator("#canvas").screenshot() == progressive, "the same pixels as a whole paint"


@pytest.mark.parametrize("size", [(800, 600), (390, 844)])
def test_fit_leaves_twenty_points_around_the_drawing_on_screen_whatever_the_zoom(browser, static_url, size):
    """A tall drawing fitted at a small zoom still has 20 points of room on screen below and above it
    (and beside it), inside what the toolbar, zoom buttons and messages leave visible."""
    page = open_page(browser, static_url + "/", hint_read=True, viewport={"width": size[0], "height": size[1]})
    try:
        touch = Touchscreen(page)
        touch.line((100, 300), (300, 300))
        page.mouse.move(200, 300)
        for _ in range(2):
            page.mouse.wheel(0, 1000)  # 2,000 points down
        touch.settle()
        touch.line((100, 300), (300, 300))
        page.click("#zoom [data-zoom=zoom-fit]")
        touch.settle()
        view = viewport(page)
        assert 0.1 < view["zoom"] < 0.5
        document = touch.document()["lines"]
        top = min(l["begin"]["y"] for l in document) - 5  # the lines' painted edges (10 pt wide)
        bottom = max(l["begin"]["y"] for l in document) + 5
        on_screen = lambda y: (y - view["y"]) * view["zoom"]
        toolbar = page.locator("#toolbar").bounding_box()
        zoom = page.locator("#zoom").bounding_box()
        visible_top = max(toolbar["y"] + toolbar["height"], zoom["y"] + zoom["height"] if zoom["y"] < size[1] / 2 else 0)
        visible_bottom = zoom["y"] if zoom["y"] > size[1] / 2 else size[1]
        assert on_screen(top) - visible_top >= 19, (on_screen(top), visible_top, view)
        assert visible_bottom - on_screen(bottom) >= 19, (on_screen(bottom), visible_bottom, view)
        assert page.errors == []
    finally:
        page.context.close()
