"""What the toolbar tells a person on a touchscreen, where nothing hovers
(issue 36, item 9): the pen-only toggle shows up once a pen is used (it does
nothing before) and is drawn as "no finger" rather than a pencil; each
toggle tapped says its name and its new state; the help sheet names every
toolbar icon; a finger that draws nothing says why (pen in use, view only)."""

import pytest

from conftest import PHONE, open_page
from test_access import guarded  # noqa: F401 (the fixture)
from test_pens import Pen
from touchscreen import Touchscreen


def tap_on(touch, selector):
    box = touch.page.locator(selector).bounding_box()
    touch.tap((box["x"] + box["width"] / 2, box["y"] + box["height"] / 2))


def notice(page):
    return page.evaluate("document.querySelector('#notice .notice-box').hidden ? '' : document.getElementById('notice-text').textContent")


def test_the_pen_only_toggle_appears_once_a_pen_draws_and_stays_on_later_visits(phone):
    touch = Touchscreen(phone)
    toggle = phone.locator('[data-toggle="pen"]')
    assert not toggle.is_visible(), "no pen yet: nothing to turn on or off"
    touch.line((40, 300), (300, 320))
    assert not toggle.is_visible(), "a finger is not a pen"
    Pen(touch).line((40, 400), (300, 420), 0.5)
    assert toggle.is_visible()
    assert toggle.get_attribute("aria-pressed") == "true"
    phone.reload()
    phone.evaluate("touchtracker.ready")
    assert phone.locator('[data-toggle="pen"]').is_visible(), "this browser has a pen"


@pytest.mark.parametrize("toggle, name", [("angle", "Colors by angle"), ("speed", "Width by speed")])
def test_a_tapped_toggle_says_its_name_and_whether_it_is_now_on(phone, toggle, name):
    touch = Touchscreen(phone)
    tap_on(touch, f'[data-toggle="{toggle}"]')
    phone.wait_for_function("!document.querySelector('#notice .notice-box').hidden")
    assert notice(phone).startswith(f"{name}: on"), notice(phone)
    tap_on(touch, f'[data-toggle="{toggle}"]')
    phone.wait_for_function(f"document.getElementById('notice-text').textContent.startsWith('{name}: off')")


def test_the_help_sheet_names_every_toolbar_icon(phone):
    touch = Touchscreen(phone)
    tap_on(touch, '[data-command="help"]')
    assert phone.locator("#help").is_visible()
    legend = phone.locator("#help .toolbar-legend")
    rows = legend.locator("dt").all()
    named = {row.inner_text().strip(): row.locator("svg").count() for row in rows}
    for name in ["Colors", "Undo", "Redo", "Colors by angle", "Width by speed", "Pen only draws",
                 "Drawings and export", "Gestures and shortcuts", "Share"]:
        assert named.get(name) == 1, f"{name} with its icon: {named}"
    descriptions = legend.locator("dd").all_inner_texts()
    assert any("direction" in d for d in descriptions), "what colors by angle does"
    assert any("faster" in d for d in descriptions), "what width by speed does"
    assert legend.is_visible()


def test_a_finger_that_does_not_draw_while_a_pen_is_in_use_says_why(phone):
    touch = Touchscreen(phone)
    pen = Pen(touch)
    pen.down((100, 200), 0.5)
    pen.move((200, 200), 0.5)
    touch.line((40, 400), (300, 420), name="palm")
    pen.up((200, 200))
    assert len(touch.document()["lines"]) == 1, "the palm drew nothing"
    phone.wait_for_function("!document.querySelector('#notice .notice-box').hidden")
    assert "pen" in notice(phone) and "finger" in notice(phone).lower(), notice(phone)
    phone.click("#notice-actions button")
    assert touch.state()["penOnlyDraws"] is False, "the notice's button lets fingers draw"
    assert phone.get_attribute('[data-toggle="pen"]', "aria-pressed") == "false"


@pytest.mark.server
def test_a_finger_on_a_view_only_page_says_the_page_is_view_only(browser, guarded):
    from test_access import shared_drawing

    links = shared_drawing(guarded, "watched")
    page = open_page(browser, f"{guarded.url}/?drawing=watched&key={links['view']}", **PHONE)
    try:
        touch = Touchscreen(page)
        page.wait_for_selector("#view-only:not([hidden])")
        touch.line((40, 400), (300, 420))
        page.wait_for_function("!document.querySelector('#notice .notice-box').hidden")
        assert "view only" in notice(page).lower(), notice(page)
        assert page.errors == []
    finally:
        page.context.close()
