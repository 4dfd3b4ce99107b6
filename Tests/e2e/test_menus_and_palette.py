"""The core's "Delete" menu and palette on a phone: never under the toolbar,
the palette marks and keeps the chosen color and closes on a tap outside it
(issue 10, problems 2 and 7). Real CDP touches; no server needed."""

import pytest

from conftest import open_page
from touchscreen import Touchscreen

RED_IN_PROGRESS = (255, 0, 0)
GREEN_SELECTED = (0, 192, 0)


@pytest.fixture
def landscape(browser, static_url):
    page = open_page(browser, static_url + "/", viewport={"width": 667, "height": 375}, device_scale_factor=2, is_mobile=True)
    yield page
    assert page.errors == []
    page.context.close()


def toolbar_box(page):
    return page.locator("#toolbar").bounding_box()


def text(page, title):
    """Where the core drew `title` (a menu item, a palette choice)."""
    return next(t for t in page.evaluate("touchtracker.texts()") if t["text"] == title)


def test_the_delete_menu_of_a_line_under_the_toolbar_opens_below_it_and_deletes(phone):
    touch = Touchscreen(phone)
    bar = toolbar_box(phone)
    y = bar["y"] + bar["height"] + 16  # just below the toolbar: the menu used to go above, under it
    touch.line((40, y), (350, y))
    touch.tap((200, y))
    touch.wait_for("touchtracker.state().menu.length === 1")
    delete = text(phone, "Delete")
    assert delete["y"] > bar["y"] + bar["height"] + 20, f"the menu at {delete} is clear of the toolbar {bar}"
    assert delete["y"] > y, "flipped below the line"

    touch.tap((delete["x"], delete["y"]))
    touch.settle()
    assert touch.document()["lines"] == []
    assert phone.get_attribute("[data-toggle=angle]", "aria-pressed") == "false", "the tap reached the menu, not the toolbar"


def test_in_landscape_the_palette_leaves_the_toolbar_uncovered_and_shows_every_color(landscape):
    touch = Touchscreen(landscape)
    landscape.click("[data-command=palette]")
    touch.settle()
    bar = toolbar_box(landscape)
    titles = ["Black", "Red", "Green", "Blue", "Orange", "Purple", "By Angle"]
    for title in titles:
        choice = text(landscape, title)
        assert choice["y"] - 22 >= bar["y"] + bar["height"], f"{title} at {choice} is under the toolbar {bar}"
        assert choice["y"] + 22 <= 375 and 0 <= choice["x"] <= 667
    # "Black" can be chosen, and the toolbar's buttons still work.
    touch.tap((text(landscape, "Blue")["x"], text(landscape, "Blue")["y"]))
    touch.settle()
    landscape.click("[data-command=palette]")
    touch.settle()
    black = text(landscape, "Black")
    touch.tap((black["x"], black["y"]))
    touch.settle()
    touch.line((100, 300), (300, 320))
    assert touch.document()["lines"][0]["color"] == "#000000"
    assert landscape.get_attribute("[data-toggle=angle]", "aria-pressed") == "false"


def choose(page, touch, title):
    if not touch.state()["paletteVisible"]:
        page.click("[data-command=palette]")
        touch.settle()
    choice = text(page, title)
    touch.tap((choice["x"], choice["y"]))
    touch.settle()


def test_blue_survives_turning_colors_by_angle_on_and_off(phone):
    touch = Touchscreen(phone)
    choose(phone, touch, "Blue")
    angle = phone.locator("[data-toggle=angle]").bounding_box()
    for _ in range(2):
        touch.tap((angle["x"] + angle["width"] / 2, angle["y"] + angle["height"] / 2))
        touch.settle()
    assert phone.get_attribute("[data-toggle=angle]", "aria-pressed") == "false"
    touch.line((60, 400), (300, 420))
    assert touch.document()["lines"][0]["color"] == "#0050ff", "the next line is blue, not black"


def test_the_palette_marks_the_current_color(phone):
    touch = Touchscreen(phone)
    choose(phone, touch, "Purple")
    phone.click("[data-command=palette]")
    touch.settle()

    def face(title):
        # A point on the button's face, clear of its swatch, title and check mark.
        choice = text(phone, title)
        return touch.pixel(choice["x"] + 40, choice["y"] - 17)

    assert face("Purple") != face("Black"), "the chosen button's face is lighter"
    assert face("Black") == face("Red") == face("Blue")
    check = text(phone, "Purple")
    # The check mark: 22 points from the button's right edge (148 wide, its title 12 right of center).
    marks = {touch.pixel(check["x"] - 12 + 74 - 22 + dx, check["y"] + dy) for dx in range(-4, 5, 2) for dy in range(-3, 4)}
    assert any(min(p) > 200 for p in marks), f"a white check mark: {marks}"
    other = text(phone, "Black")
    assert not any(min(p) > 200 for p in {touch.pixel(other["x"] + 40 + dx, other["y"] + dy) for dx in range(-4, 5, 2) for dy in range(-3, 4)})


def test_palette_red_and_green_lines_cannot_be_taken_for_a_line_in_progress_or_a_selected_one(phone):
    touch = Touchscreen(phone)
    for title, y, state_color in [("Red", 300, RED_IN_PROGRESS), ("Green", 500, GREEN_SELECTED)]:
        choose(phone, touch, title)
        touch.line((60, y), (330, y))
        pixel = touch.pixel(200, y)
        assert sum(abs(a - b) for a, b in zip(pixel, state_color)) > 96, f"{title} {pixel} vs {state_color}"
    colors = [line["color"] for line in touch.document()["lines"]]
    assert colors == ["#b0001e", "#00733a"]


def test_the_by_angle_swatch_shows_hues_and_the_swatches_are_ringed(phone):
    touch = Touchscreen(phone)
    phone.click("[data-command=palette]")
    touch.settle()
    by_angle = text(phone, "By Angle")
    # The swatch: 18 points square, 10 from the button's left edge (148 wide, title 12 right of center).
    left = by_angle["x"] - 12 - 74 + 10
    hues = {touch.pixel(left + 1.5 + 3 * i, by_angle["y"]) for i in range(6)}
    assert len(hues) >= 5, f"a strip of hues, not one color: {hues}"
    black = text(phone, "Black")
    ring = touch.pixel(black["x"] - 12 - 74 + 10 - 1, black["y"])
    assert min(ring) > 200, f"a light ring around the black swatch: {ring}"


def test_a_tap_outside_the_palette_closes_it(phone):
    touch = Touchscreen(phone)
    phone.click("[data-command=palette]")
    touch.settle()
    assert touch.state()["paletteVisible"]
    touch.tap((30, 800))
    touch.settle()
    assert not touch.state()["paletteVisible"]
    assert touch.document()["lines"] == []


def test_a_color_chosen_while_a_line_is_selected_recolors_it_and_undo_brings_its_color_back(phone):
    touch = Touchscreen(phone)
    touch.line((60, 400), (300, 400))
    touch.line((60, 500), (300, 500))
    touch.tap((180, 400))
    touch.wait_for("touchtracker.state().menu.length === 1")
    choose(phone, touch, "Blue")
    lines = touch.document()["lines"]
    assert [line["color"] for line in lines] == ["#0050ff", "#000000"], "the selected line, and only it, is blue"
    assert not touch.state()["paletteVisible"]
    assert touch.state()["selectedLine"] is None, "let go of, so that its color shows"
    touch.line((60, 600), (300, 600))
    assert touch.document()["lines"][2]["color"] == "#000000", "new lines keep the color they had"
    phone.click("[data-command=undo]")  # the third line
    phone.click("[data-command=undo]")  # the recolor
    touch.settle()
    assert [line["color"] for line in touch.document()["lines"]] == ["#000000", "#000000"]
