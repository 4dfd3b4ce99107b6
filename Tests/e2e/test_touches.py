"""Touches in the browser: real multi-touch through Chrome reaches the core as
UIKit-style events, and the page draws what the core says. No server needed."""

import pytest

RED = (255, 0, 0)
BLACK = (0, 0, 0)
GREEN = (0, 192, 0)
GRAY = (200, 200, 200)


def endpoints(document):
    return [((l["begin"]["x"], l["begin"]["y"]), (l["end"]["x"], l["end"]["y"])) for l in document["lines"]]


def test_three_fingers_at_overlapping_times_draw_three_lines(touch):
    touch.down(a=(100, 100))
    touch.move(a=(150, 110))
    touch.settle()
    touch.down(b=(100, 300))
    touch.move(a=(200, 120), b=(150, 300))
    touch.settle()
    touch.down(c=(100, 500))
    touch.move(a=(300, 130), b=(250, 300), c=(200, 500))
    touch.settle()
    assert touch.state()["linesInProgress"] == 3
    touch.up("a")
    touch.move(b=(350, 300), c=(300, 500))
    touch.up("b")
    touch.move(c=(400, 500))
    touch.up("c")
    touch.settle()

    assert endpoints(touch.document()) == [
        ((100, 100), (300, 130)),
        ((100, 300), (350, 300)),
        ((100, 500), (400, 500)),
    ]
    assert touch.document()["circles"] == []


def test_two_fingers_that_land_together_draw_a_circle(touch):
    touch.down(a=(200, 200), b=(300, 260))
    touch.move(a=(180, 200), b=(320, 300))
    touch.settle()
    assert touch.state()["circlesInProgress"] == 1
    touch.up("a")
    touch.settle()
    assert touch.state()["circlesInProgress"] == 1, "a circle is finished when both fingers lift"
    touch.up("b")
    touch.settle()

    document = touch.document()
    assert document["lines"] == []
    assert document["circles"] == [
        {"center": {"x": 250, "y": 250}, "radius": 70, "color": "#000000", "width": 10}
    ]


def test_a_cancelled_touch_removes_only_its_own_line(touch):
    touch.line((100, 100), (300, 100), name="a")
    touch.drag("b", (100, 300), (300, 300))
    touch.settle()
    assert touch.state()["linesInProgress"] == 1

    touch.cancel()
    touch.settle()

    assert endpoints(touch.document()) == [((100, 100), (300, 100))]
    assert touch.state()["linesInProgress"] == 0


def test_a_browser_cancelling_one_pointer_leaves_the_other_fingers_drawing(page, touch):
    page.evaluate("window.downs = []; canvas.addEventListener('pointerdown', e => downs.push(e.pointerId))")
    touch.drag("a", (100, 100), (200, 100))
    touch.settle()
    touch.drag("b", (100, 300), (200, 300))
    touch.settle()
    cancelled = page.evaluate("downs[1]")
    page.evaluate(
        "id => canvas.dispatchEvent(new PointerEvent('pointercancel', {pointerId: id, bubbles: true}))", cancelled
    )
    touch.move(a=(300, 100), b=(300, 300))
    touch.up("a", "b")
    touch.settle()

    assert endpoints(touch.document()) == [((100, 100), (300, 100))]


def test_a_double_tap_leaves_nothing(touch):
    touch.tap((400, 300))
    touch.tap((402, 301))
    touch.settle()
    touch.skip_time(0.5)  # past the double-tap interval: a late tap would draw now
    assert touch.document()["lines"] == []
    assert touch.state()["linesInProgress"] == 0
    assert touch.pixel(400, 300) == GRAY


def test_a_double_tap_clears_the_drawing(touch):
    touch.line((100, 100), (300, 100))
    touch.down(a=(200, 300), b=(300, 400))
    touch.move(a=(180, 300), b=(320, 400))
    touch.up("a", "b")
    touch.settle()
    assert len(touch.document()["circles"]) == 1

    touch.tap((500, 500))
    touch.tap((500, 500))
    touch.settle()

    assert touch.document() == {"format": "touchtracker", "version": 1, "lines": [], "circles": []}
    assert touch.state()["canUndo"]


def select_line_at(touch, point):
    touch.tap(point)
    touch.wait_for("touchtracker.state().selectedLine !== null")


def test_tap_selects_a_line_and_the_menu_deletes_it(touch):
    touch.line((100, 200), (500, 200))
    touch.line((100, 400), (500, 400))
    touch.settle()
    select_line_at(touch, (300, 395))
    state = touch.state()
    assert state["selectedLine"] == 1
    assert state["menu"] == ["Delete"]

    delete = next(t for t in touch.page.evaluate("touchtracker.texts()") if t["text"] == "Delete")
    touch.tap((delete["x"], delete["y"]))
    touch.settle()

    assert endpoints(touch.document()) == [((100, 200), (500, 200))]
    assert touch.state()["menu"] == []
    assert touch.state()["selectedLine"] is None


def test_a_tap_on_empty_space_deselects(touch):
    touch.line((100, 200), (500, 200))
    select_line_at(touch, (300, 200))
    touch.tap((300, 500))
    touch.wait_for("touchtracker.state().selectedLine === null")
    assert touch.state()["menu"] == []


def test_lines_are_red_while_drawn_black_when_finished_and_green_when_selected(touch):
    assert touch.pixel(300, 300) == GRAY
    touch.drag("a", (100, 300), (500, 300))
    touch.settle()
    assert touch.pixel(300, 300) == RED

    touch.up("a")
    touch.settle()
    assert touch.pixel(300, 300) == BLACK

    select_line_at(touch, (300, 305))
    touch.settle()
    assert touch.pixel(300, 300) == GREEN
    assert touch.pixel(300, 320) == GRAY


def test_keyboard_undoes_redoes_deletes_and_deselects(page, touch):
    touch.line((100, 100), (300, 100))
    touch.line((100, 300), (300, 300))
    touch.settle()
    page.keyboard.press("Control+z")
    assert len(touch.document()["lines"]) == 1
    page.keyboard.press("Control+Shift+z")
    assert len(touch.document()["lines"]) == 2

    select_line_at(touch, (200, 300))
    page.keyboard.press("Escape")
    assert touch.state()["selectedLine"] is None

    select_line_at(touch, (200, 300))
    page.keyboard.press("Delete")
    assert endpoints(touch.document()) == [((100, 100), (300, 100))]
    assert touch.state()["menu"] == [], "deleting from the keyboard hides the menu too"


def test_the_toolbar_undoes_and_redoes(page, touch):
    touch.line((100, 100), (300, 100))
    touch.settle()
    page.click("[data-command=undo]")
    assert touch.document()["lines"] == []
    assert page.is_disabled("[data-command=undo]")
    page.click("[data-command=redo]")
    assert len(touch.document()["lines"]) == 1


def test_a_mouse_draws_like_one_finger(page, touch):
    page.mouse.move(100, 500)
    page.mouse.down()
    page.mouse.move(200, 520, steps=5)
    page.mouse.move(400, 550, steps=5)
    touch.settle()
    assert touch.state()["linesInProgress"] == 1
    page.mouse.up()
    touch.settle()
    assert endpoints(touch.document()) == [((100, 500), (400, 550))]


def test_the_palette_button_opens_the_palette_and_a_choice_colors_new_lines(page, touch):
    page.click("[data-command=palette]")
    touch.settle()
    assert touch.state()["paletteVisible"]
    blue = next(t for t in page.evaluate("touchtracker.texts()") if t["text"] == "Blue")
    touch.tap((blue["x"], blue["y"]))
    touch.settle()
    assert not touch.state()["paletteVisible"]

    touch.line((100, 100), (300, 150))
    assert touch.document()["lines"][0]["color"] == "#0050ff"


def test_a_three_finger_swipe_up_opens_the_palette_without_stray_lines(touch):
    # A swipe must be done within a second of its fingers landing, in the page's time, which
    # follows the real clock: one move, so that a loaded machine's slow round trips to the
    # browser (seven can take over a second) do not add up past it.
    touch.down(a=(300, 500), b=(400, 500), c=(500, 500))
    touch.move(a=(300, 380), b=(400, 380), c=(500, 380))
    touch.up("a", "b", "c")
    touch.settle()
    assert touch.state()["paletteVisible"]
    assert touch.document()["lines"] == []


def test_colors_by_angle_and_widths_by_speed_apply_to_new_lines_only(page, touch):
    touch.line((100, 100), (300, 100))
    page.click("[data-toggle=angle]")
    page.click("[data-toggle=speed]")
    assert page.get_attribute("[data-toggle=angle]", "aria-pressed") == "true"
    touch.line((100, 300), (300, 500))
    lines = touch.document()["lines"]
    assert (lines[0]["color"], lines[0]["width"]) == ("#000000", 10)
    assert lines[1]["color"] != "#000000"
    assert lines[1]["width"] != 10


@pytest.mark.parametrize("scale", [1, 2, 3])
def test_the_canvas_is_sharp_at_any_pixel_ratio(browser, static_url, scale):
    from conftest import VIEWPORT, open_page
    from touchscreen import Touchscreen

    page = open_page(browser, static_url + "/", device_scale_factor=scale)
    size = page.evaluate("[canvas.width, canvas.height]")
    assert size == [VIEWPORT["width"] * scale, VIEWPORT["height"] * scale]
    touch = Touchscreen(page)
    touch.line((100, 300), (500, 300))
    touch.settle()
    assert touch.pixel(300, 300) == BLACK
    assert touch.pixel(300, 307) == GRAY, "a 10 point line ends 5 points from its middle"
    page.context.close()


def test_bad_input_from_the_page_is_ignored_and_reported(page, touch):
    core = "touchtracker.core()"
    assert page.evaluate(f"{core}.tt_touch(1, 9, 10, 10, 0)") == 1, "unknown phase"
    assert page.evaluate(f"{core}.tt_touch(1, 0, NaN, 10, 0)") == 2, "NaN"
    assert page.evaluate(f"{core}.tt_touch(1, 0, 10, 10, Infinity)") == 2, "infinite time"
    assert page.evaluate(f"{core}.tt_touch(77, 1, 10, 10, 0)") == 3, "moved before it began"
    assert page.evaluate(f"{core}.tt_touch(77, 3, 10, 10, 0)") == 3, "ended before it began"
    page.evaluate(f"{core}.tt_resize(NaN, -5); {core}.tt_tick(NaN); {core}.tt_commit(NaN)")
    page.evaluate("touchtracker.core().tt_resize(innerWidth, innerHeight)")
    state = touch.state()
    assert state["ignoredInput"] == 5
    assert state["lastError"] == "Touch 77 ended before it began"

    problem = page.evaluate("touchtracker.loadDocument('{\"format\": \"touchtracker\", \"version\": 1, \"lines\": 3}')")
    assert problem and "lines" in problem
    assert page.evaluate("touchtracker.loadDocument('not json')")

    touch.line((100, 100), (300, 100))
    assert endpoints(touch.document()) == [((100, 100), (300, 100))]


def test_a_finger_reported_twice_in_one_frame_keeps_its_order(page, touch):
    # A down, a move and an up inside one animation frame must not collapse into one event.
    core = "touchtracker.core()"
    page.evaluate(
        f"""() => {{
          const t = performance.now() / 1000;
          {core}.tt_touch(5, 0, 100, 200, t);
          {core}.tt_touch(5, 1, 200, 200, t + 0.01);
          {core}.tt_touch(5, 1, 300, 200, t + 0.02);
          {core}.tt_touch(5, 3, 300, 200, t + 0.03);
        }}"""
    )
    touch.settle()
    assert endpoints(touch.document()) == [((100, 200), (300, 200))]


def test_export_svg_and_png_download_the_drawing(page, touch):
    touch.line((100, 100), (300, 100))
    for command, check in [
        ("svg", lambda data: b'<line x1="100" y1="100" x2="300" y2="100" stroke="#000000"' in data),
        ("png", lambda data: data.startswith(b"\x89PNG")),
    ]:
        page.click("#file-menu summary")
        with page.expect_download() as download:
            page.click(f"[data-command={command}]")
        assert download.value.suggested_filename == f"default.{command}"
        assert check(open(download.value.path(), "rb").read())


def test_an_oversized_document_is_refused_without_trapping(page, touch):
    assert page.evaluate("touchtracker.core().tt_alloc(2 ** 31 - 1)") == 0
    assert page.evaluate("touchtracker.core().tt_alloc(-1)") == 0
    assert page.evaluate("touchtracker.core().tt_load_document(2 ** 30)") > 0
    touch.line((100, 100), (300, 100))
    assert len(touch.document()["lines"]) == 1


def test_a_long_press_holds_a_line_and_panning_moves_it_with_the_finger(page, touch):
    touch.line((100, 100), (300, 100))
    touch.down(f=(200, 102))
    touch.wait_for("touchtracker.state().selectedLine === 0")  # after 0.5 s, on the page's clock
    for step in range(1, 6):
        touch.move(f=(200 + step * 10, 102 + step * 20))
        touch.settle(1)
    assert touch.pixel(250, 200) == GREEN, "the held line follows the finger"
    touch.up("f")
    touch.settle()

    assert endpoints(touch.document()) == [((150, 200), (350, 200))]
    assert touch.state()["selectedLine"] is None, "releasing the line deselects it"
    page.keyboard.press("Control+z")
    assert endpoints(touch.document()) == [((100, 100), (300, 100))]


def test_a_line_selected_by_a_tap_stays_put_while_another_is_drawn(touch):
    touch.line((100, 100), (300, 100))
    select_line_at(touch, (200, 100))
    touch.line((100, 300), (400, 450))
    assert endpoints(touch.document()) == [((100, 100), (300, 100)), ((100, 300), (400, 450))]
