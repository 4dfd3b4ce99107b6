"""What a new user trips on with the book's gestures (issue 10, items 3, 5, 6,
7, 9 and 10), with real multi-touch through the DevTools protocol and a real
mouse. Each test failed on the page before its fix."""

RED = (255, 0, 0)
GREEN = (0, 192, 0)
GRAY = (200, 200, 200)


def endpoints(document):
    return [((l["begin"]["x"], l["begin"]["y"]), (l["end"]["x"], l["end"]["y"])) for l in document["lines"]]


def hold_line(touch, point):
    """A long press at `point` on a line, held until the press begins."""
    touch.down(held=point)
    touch.settle()
    touch.skip_time(0.6)
    touch.wait_for("touchtracker.state().selectedLine !== null")


def test_a_held_line_follows_its_own_finger_while_another_draws(touch):
    touch.line((100, 100), (300, 100))
    hold_line(touch, (200, 102))
    touch.drag("other", (100, 400), (300, 400))
    touch.settle()
    assert endpoints(touch.document())[0] == ((100, 100), (300, 100)), "another finger drawing does not drag it"
    touch.up("other")
    touch.settle()
    assert touch.state()["selectedLine"] == 0, "the other finger lifting does not let go of it"
    touch.move(held=(230, 132))
    touch.up("held")
    touch.settle()
    assert endpoints(touch.document()) == [((130, 130), (330, 130)), ((100, 400), (300, 400))]


def test_a_held_line_moves_the_whole_distance_with_a_second_finger_resting(touch):
    touch.line((100, 100), (300, 100))
    hold_line(touch, (200, 102))
    touch.down(rest=(500, 500))
    touch.settle()
    touch.move(held=(220, 122))
    touch.move(held=(260, 162))
    touch.settle()
    touch.up("held", "rest")
    touch.settle()
    assert endpoints(touch.document())[0] == ((160, 160), (360, 160)), "not half the distance"


def test_drawing_elsewhere_closes_the_menu_and_the_selection(touch):
    touch.line((100, 100), (300, 100))
    touch.tap((200, 103))
    touch.wait_for("touchtracker.state().selectedLine !== null")
    assert touch.pixel(150, 100) == GREEN
    touch.line((100, 400), (300, 400))
    state = touch.state()
    assert state["menu"] == [] and state["selectedLine"] is None
    assert touch.pixel(150, 100) != GREEN, "no green line is left that nothing can act on"


def test_with_widths_by_speed_the_line_in_progress_is_drawn_at_its_width(page, touch):
    page.click("[data-toggle=speed]")
    # 400 points in 40 ms, 10,000 points a second: the widest, 40. The page's own input path
    # (tt_touch) with the times set, all in one turn, so a loaded machine cannot slow the finger.
    page.evaluate(
        """() => {
          const core = touchtracker.core();
          const t = performance.now() / 1000;
          core.tt_touch(1, 0, 100, 300, t, 0, 1, 2, NaN, NaN);
          core.tt_commit(t);
          for (let step = 1; step <= 4; step++) {
            core.tt_touch(1, 1, 100 + 100 * step, 300, t + 0.01 * step, 0, 1, 2, NaN, NaN);
            core.tt_commit(t + 0.01 * step);
          }
          window.liftAt = t + 0.05;
        }"""
    )
    touch.settle()
    assert touch.pixel(300, 300) == RED
    assert touch.pixel(300, 315) == RED, "wider than the fixed 10 points while the finger is down"
    # Lifted after the screenshots: the speed is averaged up to the lift, so its width is whatever
    # that wait made it. A line lifted at once keeps the widest.
    page.evaluate(
        """() => {
          const core = touchtracker.core();
          core.tt_touch(1, 3, 500, 300, window.liftAt, 0, 1, 2, NaN, NaN);
          core.tt_commit(window.liftAt);
          const t = performance.now() / 1000;
          core.tt_touch(2, 0, 100, 500, t, 0, 1, 2, NaN, NaN);
          core.tt_commit(t);
          for (let step = 1; step <= 4; step++) {
            core.tt_touch(2, step === 4 ? 3 : 1, 100 + 100 * step, 500, t + 0.01 * step, 0, 1, 2, NaN, NaN);
            core.tt_commit(t + 0.01 * step);
          }
        }"""
    )
    touch.settle()
    assert touch.document()["lines"][1]["width"] == 40


def test_a_two_finger_tap_leaves_no_dots_and_undoes(touch):
    touch.line((100, 100), (300, 100))
    touch.down(a=(400, 400), b=(460, 420))
    touch.settle()
    assert touch.state()["linesInProgress"] == 0 and touch.state()["circlesInProgress"] == 0
    touch.up("a", "b")
    touch.settle()
    assert touch.pixel(400, 400) == GRAY and touch.pixel(460, 420) == GRAY
    assert touch.document() == {"format": "touchtracker", "version": 1, "lines": [], "circles": []}
    assert touch.state()["canRedo"]


def test_the_fingers_of_a_three_finger_swipe_never_show_as_red_lines(touch):
    red = []
    touch.down(a=(300, 500), b=(400, 500), c=(500, 500))
    for dy in range(20, 220, 40):
        touch.move(a=(300, 500 - dy), b=(400, 500 - dy), c=(500, 500 - dy))
        touch.settle(1)
        state = touch.state()
        red.append(state["linesInProgress"] + state["circlesInProgress"])
    touch.up("a", "b", "c")
    touch.settle()
    assert touch.state()["paletteVisible"]
    assert red == [0] * len(red)


def test_alt_drag_with_a_mouse_draws_a_circle(page, touch):
    page.keyboard.down("Alt")
    page.mouse.move(200, 200)
    page.mouse.down()
    for step in range(1, 6):
        page.mouse.move(200 + 28 * step, 200 + 20 * step)
    page.mouse.up()
    page.keyboard.up("Alt")
    touch.settle()
    document = touch.document()
    assert document["lines"] == []
    assert document["circles"] == [{"center": {"x": 270, "y": 250}, "radius": 70, "color": "#000000", "width": 10}]



def test_an_undo_by_two_finger_tap_that_empties_the_drawing_is_not_called_a_clear(page, touch):
    touch.line((100, 100), (300, 100))
    touch.tap((200, 103))
    touch.wait_for("touchtracker.state().selectedLine !== null")
    page.keyboard.press("Delete")
    touch.line((100, 300), (300, 300))
    touch.down(a=(400, 400), b=(460, 420))
    touch.up("a", "b")
    touch.settle()
    state = touch.state()
    assert (state["lines"], state["canUndo"], state["canRedo"]) == (0, True, True)
    assert not page.locator("#notice .notice-box").is_visible(), "an undo is not a clear"
