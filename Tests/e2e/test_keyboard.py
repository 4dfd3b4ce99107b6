"""The drawing without a pointer (issue 36): from the keyboard alone one
reaches the canvas with Tab, draws a line by choosing its two ends, moves the
focus through the shapes, selects one, moves, recolors and deletes it; the
canvas is an application with a description a screen reader reads (checked
in Chromium's own accessibility tree, over CDP), which follows others' lines
too. A view-only page moves the focus but changes nothing."""

import pytest

from conftest import open_page
from test_access import DESKTOP, guarded, open_with, shared_drawing  # noqa: F401 (a fixture)
from test_saving import line, stored, wait_until_saved
from touchscreen import Touchscreen

pytestmark = pytest.mark.server


def tab_to_canvas(page):
    """Presses Tab until the canvas has the keyboard; how many presses it took."""
    for presses in range(1, 40):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement?.id") == "canvas":
            return presses
    raise AssertionError("Tab never reached the canvas")


def canvas_node(page):
    """The canvas in Chromium's accessibility tree (CDP `Accessibility.getFullAXTree`): role, name, description."""
    session = page.context.new_cdp_session(page)
    try:
        nodes = session.send("Accessibility.getFullAXTree")["nodes"]
    finally:
        session.detach()

    def value(node, key):
        return (node.get(key) or {}).get("value", "")

    for node in nodes:
        properties = {p["name"]: p["value"].get("value") for p in node.get("properties", [])}
        if properties.get("roledescription") == "drawing":
            return {
                "role": value(node, "role"),
                "name": value(node, "name"),
                "description": value(node, "description"),
                "focused": properties.get("focused", False),
            }
    raise AssertionError("no node with the role description 'drawing' in the accessibility tree")


def described(page):
    return page.text_content("#drawing-description")


def test_a_line_is_drawn_selected_moved_recolored_and_deleted_from_the_keyboard_alone(browser, server):
    page = open_page(browser, f"{server.url}/?drawing=keys", hint_read=True)
    touch = Touchscreen(page)
    tab_to_canvas(page)
    node = canvas_node(page)
    assert node["role"] == "application" and node["focused"]
    assert "No lines or circles yet." in node["description"]
    assert "N and Shift N move through the lines and circles" in node["description"]

    # L: a cursor in the middle (400, 300 at 100%); Enter fixes each end.
    page.keyboard.press("l")
    assert "Drawing a line: the cursor is at 400, 300" in described(page)
    page.keyboard.press("Shift+ArrowUp")
    page.keyboard.press("Enter")
    for _ in range(10):
        page.keyboard.press("ArrowRight")
    page.keyboard.press("Enter")
    touch.settle()
    assert touch.document()["lines"] == [line(400, 299, 500, 299)]
    assert described(page) == "1 line. Focused: line 1 of 1, from 400, 299 to 500, 299, black, 100 points long."
    assert "1 line." in canvas_node(page)["description"]
    wait_until_saved(touch)
    assert stored(server, "keys")["lines"] == [line(400, 299, 500, 299)]

    # Enter selects it; arrows move it, one undoable move a press; C and 2 recolor it red.
    page.keyboard.press("Enter")
    assert touch.state()["selectedLine"] == 0
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("c")
    page.keyboard.press("2")
    touch.settle()
    assert touch.document()["lines"] == [line(400, 319, 500, 319, "#b0001e")]
    touch.wait_for("document.querySelector('#drawing-description').textContent.includes(', red, ')")
    page.keyboard.press("Control+z")
    touch.settle()
    assert touch.document()["lines"] == [line(400, 319, 500, 319)]

    # Delete deletes it (selected again if the undo let go of it).
    if touch.state()["selectedLine"] is None:
        page.keyboard.press("Enter")
    page.keyboard.press("Delete")
    touch.settle()
    assert touch.document()["lines"] == []
    wait_until_saved(touch)
    assert stored(server, "keys")["lines"] == []
    assert page.evaluate("document.activeElement.id") == "canvas", "the keys never left the canvas"
    assert page.errors == []
    page.context.close()


def test_the_description_follows_lines_another_person_draws(browser, server):
    reader = open_page(browser, f"{server.url}/?drawing=together", hint_read=True)
    drawer = open_page(browser, f"{server.url}/?drawing=together", hint_read=True)
    for page in (reader, drawer):
        Touchscreen(page).wait_for("touchtracker.live().status === 'live'")
    tab_to_canvas(reader)
    reader.keyboard.press("n")  # nothing to focus yet: the page lets the key go
    assert "No lines or circles yet." in described(reader)

    Touchscreen(drawer).line((100, 100), (300, 100))
    Touchscreen(drawer).line((100, 200), (300, 200))
    # Told politely, at most once a second: the region ends up saying so without a key pressed.
    Touchscreen(reader).wait_for("document.querySelector('#drawing-description').textContent === '2 lines.'")
    assert "2 lines." in canvas_node(reader)["description"]
    reader.keyboard.press("End")
    assert described(reader).startswith("2 lines. Focused: line 2 of 2, from 100, 200 to 300, 200")
    for page in (reader, drawer):
        assert page.errors == []
        page.context.close()


def test_a_view_only_page_moves_the_focus_but_changes_nothing(browser, guarded):  # noqa: F811
    links = shared_drawing(guarded, "shown")
    viewer, view_touch = open_with(browser, f"{guarded.url}/?drawing=shown&key={links['view']}", DESKTOP)
    assert viewer.evaluate("touchtracker.access().role") == "view"
    tab_to_canvas(viewer)
    viewer.keyboard.press("n")
    assert described(viewer).startswith("1 line. Focused: line 1 of 1")
    for key in ("Enter", "ArrowRight", "l", "Enter", "Enter", "c", "Delete"):
        viewer.keyboard.press(key)
    view_touch.settle()
    assert view_touch.state()["selectedLine"] is None
    assert view_touch.state()["paletteVisible"] is False
    assert view_touch.document()["lines"] == [line(20, 300, 120, 320)]
    assert viewer.evaluate("touchtracker.saving().dirty") is False
    assert viewer.errors == []
    viewer.context.close()


def test_the_focus_ring_is_drawn_only_while_the_canvas_has_the_keyboard(browser, server):
    page = open_page(browser, f"{server.url}/?drawing=ring", hint_read=True)
    touch = Touchscreen(page)
    touch.line((200, 300), (600, 300))
    tab_to_canvas(page)
    page.keyboard.press("n")
    touch.settle()
    # The ring's black stroke (4 points wide, white inside it) runs 6 points plus half the line's width above it.
    ring, paper = (400, 290), (400, 250)
    assert sum(touch.pixel(*ring)) < 150
    page.keyboard.press("Shift+Tab")
    touch.settle()
    assert touch.pixel(*ring) == touch.pixel(*paper)
    assert touch.document()["lines"] == [line(200, 300, 600, 300)]
    assert page.errors == []
    page.context.close()
