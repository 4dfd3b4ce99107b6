"""axe-core (through axe-playwright-python) finds no violation of any impact on
the page's states, in the light and the dark theme: the empty page with its
first-run hint, a page with lines and a notice, the canvas with the keys
(a line focused and selected), the help and share sheets, the open drawings menu,
the New drawing dialog and the inspector. Axe checks names, roles,
landmarks, the viewport's zoom, and text contrast over what the page draws in
HTML (not the canvas' pixels)."""

import pytest
from axe_playwright_python.sync_playwright import Axe

from conftest import open_page
from touchscreen import Touchscreen

pytestmark = pytest.mark.server

AXE = Axe()


def violations(page):
    """Each violation as "rule (impact): the first nodes' selectors"; [] when axe finds none."""
    found = AXE.run(page).response["violations"]
    return [f"{v['id']} ({v['impact']}): {[n['target'] for n in v['nodes']][:4]}" for v in found]


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("size", [(390, 844), (1440, 900)])
def test_axe_finds_nothing_on_any_state_of_the_page(browser, server, scheme, size):
    page = open_page(browser, server.url + "/?drawing=axe", color_scheme=scheme,
                     viewport={"width": size[0], "height": size[1]})
    try:
        assert page.evaluate("matchMedia('(prefers-color-scheme: dark)').matches") == (scheme == "dark")
        found = {}
        found["empty, with the first-run hint"] = violations(page)

        touch = Touchscreen(page)
        touch.line((40, 300), (size[0] - 40, 340))
        touch.line((60, 420), (size[0] - 60, 380))
        touch.tap((size[0] / 2, 200))
        touch.tap((size[0] / 2, 200))
        touch.settle()
        page.wait_for_selector("#notice .notice-box:not([hidden])")
        page.click("#notice button")  # Undo: the lines are back
        assert len(touch.document()["lines"]) == 2
        found["lines"] = violations(page)

        page.focus("#canvas")
        page.keyboard.press("n")
        page.keyboard.press("Enter")  # focused and selected, its Delete menu shown, the description told
        page.wait_for_function("document.querySelector('#drawing-description').textContent.includes('Selected')")
        found["the canvas with the keys"] = violations(page)
        page.keyboard.press("Escape")

        page.click("[data-command=help]")
        page.wait_for_selector("#help[open]")
        found["help"] = violations(page)
        page.keyboard.press("Escape")

        page.click("[data-command=share]")
        page.wait_for_selector("#share[open]")
        found["share"] = violations(page)
        page.keyboard.press("Escape")

        page.click("#file-menu summary")
        page.wait_for_selector("#drawing-list:not([aria-busy=true])", state="attached")
        found["the open drawings menu"] = violations(page)
        page.click("[data-command=new]")
        page.wait_for_selector("#dialog[open]")
        page.fill("#dialog-input", "bad name")
        page.click("#dialog-ok")  # with its error
        found["new drawing, with an error"] = violations(page)
        page.keyboard.press("Escape")
        page.wait_for_selector("#dialog:not([open])", state="attached")
        page.evaluate("document.getElementById('file-menu').open = false; document.activeElement.blur()")

        page.keyboard.press("i")
        page.wait_for_function("touchtracker.inspector().on")
        touch.line((40, 200), (200, 220))
        found["inspector"] = violations(page)

        assert {state: v for state, v in found.items() if v} == {}
        assert page.errors == []
    finally:
        page.context.close()


def test_the_page_zooms_and_the_canvas_keeps_its_own_touches_at_200_percent(browser, static_url):
    """The page allows pinch-zoom (no `user-scalable=no`, no `maximum-scale`), the canvas alone takes
    every touch (`touch-action: none`), and at 200% page zoom (a 1280x900 window: 640x450 CSS
    pixels at 2x) the toolbar is on screen and two fingers still draw a circle."""
    page = open_page(browser, static_url + "/", hint_read=True, viewport={"width": 640, "height": 450},
                     device_scale_factor=2)
    try:
        viewport = page.get_attribute('meta[name="viewport"]', "content").replace(" ", "")
        assert "user-scalable=no" not in viewport and "maximum-scale" not in viewport, viewport
        assert page.evaluate("getComputedStyle(document.getElementById('canvas')).touchAction") == "none"
        for box in [b.bounding_box() for b in page.locator("#toolbar > button:visible, #zoom button").all()]:
            assert 0 <= box["x"] and box["x"] + box["width"] <= 640 and 0 <= box["y"] and box["y"] + box["height"] <= 450
        touch = Touchscreen(page)
        touch.down(a=(200, 200), b=(200, 200))
        touch.move(a=(180, 180), b=(320, 330))
        touch.move(a=(160, 160), b=(340, 350))
        touch.up("a", "b")
        touch.settle()
        assert len(touch.document()["circles"]) == 1
        assert page.errors == []
    finally:
        page.context.close()
