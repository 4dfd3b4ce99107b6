"""A double tap that clears says so and offers Undo; the "?" sheet lists every
gesture and shortcut; a first-run hint goes for good once read (issue 10,
problem 4). Real CDP touches on a phone; no server needed."""

import pytest

from conftest import PHONE, open_page
from touchscreen import Touchscreen


def notice(page):
    return page.locator("#notice .notice-box")


def double_tap(touch, point):
    """Two taps sent back to back: waiting a frame between them can exceed the double-tap interval on a loaded machine."""
    for _ in range(2):
        touch.down(tap=point)
        touch.up("tap")
    touch.settle()


def test_a_double_tap_that_clears_says_cleared_and_undo_brings_the_drawing_back(phone):
    touch = Touchscreen(phone)
    touch.line((60, 300), (330, 320))
    touch.line((60, 500), (330, 520))
    assert not notice(phone).is_visible()

    double_tap(touch, (200, 650))
    assert touch.document()["lines"] == []
    assert notice(phone).is_visible()
    assert notice(phone).inner_text().startswith("Cleared")
    assert phone.get_attribute("#notice", "role") == "status", "read out by screen readers"

    undo = phone.locator("#notice button", has_text="Undo")
    box = undo.bounding_box()
    touch.tap((box["x"] + box["width"] / 2, box["y"] + box["height"] / 2))
    touch.settle()
    assert len(touch.document()["lines"]) == 2, "one tap on Undo brings every line back"
    assert not notice(phone).is_visible()


def test_the_cleared_notice_hides_by_itself(phone):
    touch = Touchscreen(phone)
    touch.line((60, 300), (330, 320))
    double_tap(touch, (200, 650))
    assert notice(phone).is_visible()
    phone.wait_for_selector("#notice .notice-box", state="hidden", timeout=10000)
    assert touch.document()["lines"] == []


def test_undo_and_delete_that_empty_the_drawing_say_nothing(phone):
    touch = Touchscreen(phone)
    touch.line((60, 300), (330, 300))
    phone.click("[data-command=undo]")
    touch.settle()
    assert touch.document()["lines"] == []
    phone.click("[data-command=redo]")
    touch.line((60, 500), (330, 500))
    touch.tap((200, 500))
    touch.wait_for("touchtracker.state().menu.length === 1")
    phone.keyboard.press("Delete")
    touch.tap((200, 300))
    touch.wait_for("touchtracker.state().menu.length === 1")
    delete = next(t for t in phone.evaluate("touchtracker.texts()") if t["text"] == "Delete")
    touch.tap((delete["x"], delete["y"]))
    touch.settle()
    assert touch.document()["lines"] == []
    assert not notice(phone).is_visible()


def test_the_help_sheet_lists_every_gesture_and_shortcut(phone):
    touch = Touchscreen(phone)
    button = phone.locator("[data-command=help]")
    assert button.get_attribute("aria-label") == "Gestures and shortcuts"
    box = button.bounding_box()
    touch.tap((box["x"] + box["width"] / 2, box["y"] + box["height"] / 2))
    sheet = phone.locator("#help")
    assert sheet.is_visible()
    content = sheet.inner_text()
    for gesture in ["Tap a line", "Long press + drag", "Double tap", "Two fingers", "Three-finger swipe up"]:
        assert gesture in content
    for shortcut in ["Z", "Delete", "Escape", "?"]:
        assert shortcut in content
    sheet_box = sheet.bounding_box()
    toolbar = phone.locator("#toolbar").bounding_box()
    assert sheet_box["y"] >= toolbar["y"] + toolbar["height"], "the sheet leaves the toolbar visible"
    phone.keyboard.press("Escape")
    assert not sheet.is_visible()
    phone.keyboard.press("?")
    assert sheet.is_visible(), "? opens it from the keyboard"
    phone.keyboard.press("Escape")
    assert touch.document()["lines"] == []


def test_the_first_run_hint_goes_for_good_once_read(browser, static_url):
    page = open_page(browser, static_url + "/", **PHONE)
    hint = page.locator("#hint")
    assert hint.is_visible()
    assert "double tap" in hint.inner_text()
    touch = Touchscreen(page)
    got_it = page.locator("#hint button", has_text="Got it").bounding_box()
    touch.tap((got_it["x"] + got_it["width"] / 2, got_it["y"] + got_it["height"] / 2))
    assert not hint.is_visible()
    page.reload()
    page.evaluate("window.touchtracker.ready")
    assert not hint.is_visible(), "dismissed for good"
    page.evaluate("localStorage.clear()")
    page.reload()
    page.evaluate("window.touchtracker.ready")
    page.locator("#hint button", has_text="All gestures").click()
    assert page.locator("#help").is_visible()
    page.keyboard.press("Escape")
    page.reload()
    page.evaluate("window.touchtracker.ready")
    assert not hint.is_visible(), "opening the sheet counts as read"
    page.evaluate("localStorage.clear()")
    page.reload()
    page.evaluate("window.touchtracker.ready")
    box = hint.bounding_box()
    touch = Touchscreen(page)
    touch.line((30, box["y"] + 10), (300, box["y"] + 20))
    assert len(touch.document()["lines"]) == 1, "the hint lets drawing through"
    assert not hint.is_visible(), "and leaves once a line is drawn"
    assert page.errors == []
    page.context.close()


# Each text of the open sheet (its terms, descriptions, headings, buttons) whose box reaches past the
# sheet's edges or the window's, as "text: how far"; [] when everything is inside.
OUTSIDE = """(id) => {
  const sheet = document.getElementById(id).getBoundingClientRect();
  const right = Math.min(sheet.right, document.documentElement.clientWidth);
  return [...document.querySelectorAll(`#${id} dt, #${id} dd, #${id} h2, #${id} h3, #${id} p, #${id} button`)]
    .filter((element) => element.getClientRects().length)
    .map((element) => [element.textContent.trim().slice(0, 30), element.getBoundingClientRect()])
    .filter(([, box]) => box.left < sheet.left - 0.5 || box.right > right + 0.5)
    .map(([text, box]) => `${text}: ${Math.round(box.left)}..${Math.round(box.right)} in ${Math.round(sheet.left)}..${Math.round(right)}`);
}"""


@pytest.mark.parametrize("width,height,scale", [(320, 568, 2), (390, 844, 3), (1024, 1366, 2), (1440, 900, 1)])
def test_every_text_of_the_help_sheet_is_inside_it(browser, static_url, width, height, scale):
    page = open_page(browser, static_url, hint_read=True, viewport={"width": width, "height": height},
                     device_scale_factor=scale)
    try:
        page.evaluate("touchtracker.ready")
        page.keyboard.press("?")
        assert page.locator("#help").is_visible()
        assert page.evaluate(OUTSIDE, "help") == []
    finally:
        page.context.close()
