"""Circles are objects (issue 10, problem 9): a tap on a circle's outline
selects it and shows "Delete", which removes it as one undoable change; a
long press on the outline holds it and the pan moves it, saved as one
change (offline too). Real CDP touches on a phone; the last test saves to a
server."""

from test_help_and_notices import notice
from test_menus_and_palette import GREEN_SELECTED, text
from test_saving import open_drawing, stored, wait_until_saved
from touchscreen import Touchscreen


def draw_circle(touch):
    """A circle of radius 70 about (195, 420), drawn by two fingers that spread and come back."""
    touch.down(a=(125, 350), b=(265, 490))
    touch.move(a=(110, 335), b=(280, 505))  # spread: fingers moving together would pan
    touch.move(a=(125, 350), b=(265, 490))
    touch.up("a", "b")
    touch.settle()
    circles = touch.document()["circles"]
    assert [(c["center"], c["radius"]) for c in circles] == [({"x": 195, "y": 420}, 70)]


def test_a_tap_on_a_circles_outline_selects_it_and_delete_removes_it_undoably(phone):
    touch = Touchscreen(phone)
    draw_circle(touch)

    touch.tap((195 + 78, 420))  # 8 pt outside the outline
    touch.wait_for("touchtracker.state().menu.length === 1")
    assert touch.state()["selectedCircle"] == 0
    assert touch.pixel(195, 420 - 70) == GREEN_SELECTED, "the selected circle is drawn green"

    delete = text(phone, "Delete")
    touch.tap((delete["x"], delete["y"]))
    touch.settle()
    assert touch.document()["circles"] == []
    assert "selectedCircle" not in touch.state()
    assert not notice(phone).is_visible(), "deleting the only shape is not announced as a clear"

    phone.click("[data-command=undo]")
    touch.settle()
    assert len(touch.document()["circles"]) == 1


def test_a_tap_inside_a_circle_away_from_its_outline_selects_nothing(phone):
    touch = Touchscreen(phone)
    draw_circle(touch)
    touch.tap((195, 420))
    touch.skip_time(1)
    state = touch.state()
    assert state["menu"] == [] and "selectedCircle" not in state
    assert len(touch.document()["circles"]) == 1


def test_a_second_finger_landing_just_after_the_first_still_draws_a_circle(phone):
    """Fingers seldom land in the same frame: one 40 ms after the first, in a later frame, before the first
    moved, makes a circle with it. The page's own input path (tt_touch, one frame each) with the times set,
    so a loaded machine cannot stretch the 40 ms."""
    touch = Touchscreen(phone)
    phone.evaluate(
        """async () => {
          const core = touchtracker.core();
          const frame = () => new Promise((r) => requestAnimationFrame(r));
          const t = performance.now() / 1000;
          core.tt_touch(1, 0, 125, 350, t, 0, 1, 2, NaN, NaN);
          core.tt_commit(t);
          await frame();
          core.tt_touch(2, 0, 265, 490, t + 0.04, 0, 1, 2, NaN, NaN);
          core.tt_commit(t + 0.04);
          await frame();
          core.tt_touch(1, 1, 110, 335, t + 0.06, 0, 1, 2, NaN, NaN);
          core.tt_touch(2, 1, 280, 505, t + 0.06, 0, 1, 2, NaN, NaN);
          core.tt_commit(t + 0.06);
          core.tt_touch(1, 3, 125, 350, t + 0.08, 0, 1, 2, NaN, NaN);
          core.tt_touch(2, 3, 265, 490, t + 0.08, 0, 1, 2, NaN, NaN);
          core.tt_commit(t + 0.08);
        }"""
    )
    touch.settle()
    document = touch.document()
    assert document["lines"] == []
    assert [(c["center"], c["radius"]) for c in document["circles"]] == [({"x": 195, "y": 420}, 70)]


def test_a_second_finger_that_reaches_the_page_late_still_draws_a_circle(phone):
    """Issue 36, item 3: the first finger jitters by a point 8 ms after landing, the second lands 60 ms
    after the first but reaches the page two frames late (a browser's touches trail its frames), and
    both spread. The page's core with its own frames, each committing the touches that came and moving
    the clock to the frame's time, as app.js does; the times are set, so a loaded machine cannot stretch
    them. The clock ran at the frames' time and the late finger landed 96 ms after the first: two lines."""
    touch = Touchscreen(phone)
    phone.evaluate(
        """() => {
          const core = touchtracker.core();
          const base = performance.now() / 1000 + 60;  // ahead of the page's own frames
          const frame = 1 / 60;
          // [time stamped, frame that delivers it, finger, phase, x, y]
          const touches = [[0, 1, 1, 0, 125, 350], [0.008, 2, 1, 1, 126, 350], [0.06, 6, 2, 0, 265, 490],
            [0.08, 7, 1, 1, 110, 335], [0.08, 7, 2, 1, 280, 505], [0.1, 8, 1, 1, 125, 350],
            [0.1, 8, 2, 1, 265, 490], [0.12, 9, 1, 3, 125, 350], [0.12, 9, 2, 3, 265, 490]];
          let newest = base;
          for (let number = 1; number <= 40; number++) {
            for (const [time, at, id, phase, x, y] of touches) {
              if (at !== number) continue;
              core.tt_touch(id, phase, x, y, base + time, 0, 1, 2, NaN, NaN);
              newest = Math.max(newest, base + time);
            }
            core.tt_commit(newest);
            core.tt_tick(base + frame * number);
          }
        }"""
    )
    touch.settle()
    document = touch.document()
    assert document["lines"] == []
    assert [(c["center"], c["radius"]) for c in document["circles"]] == [({"x": 195, "y": 420}, 70)]


def hold_and_drag_the_circle(touch, by):
    """A long press 5 pt outside the outline of draw_circle's circle, then a pan by `by`."""
    start = (195 + 75, 420)
    touch.down(finger=start)
    touch.skip_time(0.6)
    touch.wait_for("touchtracker.state().selectedCircle === 0")
    assert touch.pixel(195, 420 - 70) == GREEN_SELECTED, "the held circle is drawn green"
    for step in range(1, 5):
        touch.move(finger=(start[0] + by[0] * step / 4, start[1] + by[1] * step / 4))
    touch.up("finger")
    touch.settle()


def test_a_long_press_on_a_circles_outline_moves_it_and_undo_puts_it_back(phone):
    touch = Touchscreen(phone)
    draw_circle(touch)
    hold_and_drag_the_circle(touch, (-40, 60))
    document = touch.document()
    assert document["lines"] == [], "the press on the outline drew no line"
    assert [(c["center"], c["radius"]) for c in document["circles"]] == [({"x": 155, "y": 480}, 70)]
    assert "selectedCircle" not in touch.state()

    phone.click("[data-command=undo]")
    touch.settle()
    assert [c["center"] for c in touch.document()["circles"]] == [{"x": 195, "y": 420}]


def test_a_circle_moved_offline_is_kept_across_a_reload_and_reaches_the_server(browser, server):
    page, touch = open_drawing(browser, server, "rings", live=False)
    page.evaluate("touchtracker.ready")
    draw_circle(touch)
    wait_until_saved(touch)

    page.route("**/api/**", lambda route: route.abort())
    hold_and_drag_the_circle(touch, (40, -60))
    touch.wait_for("touchtracker.saving().offline && touchtracker.saving().local === 'saved'")
    before = touch.document(ids=True)
    assert [c["center"] for c in before["circles"]] == [{"x": 235, "y": 360}]

    page.reload()
    page.evaluate("touchtracker.ready")
    assert touch.document(ids=True) == before, "this browser's copy replays the move record"

    page.unroute("**/api/**")
    page.evaluate("touchtracker.save()")
    wait_until_saved(touch)
    assert stored(server, "rings", ids=True) == before
