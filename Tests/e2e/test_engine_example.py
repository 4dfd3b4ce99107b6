"""The engine's example in Chromium: the book's Hypnosister built on TouchKit
alone (Examples/Hypnosis, Scripts/build-wasm.sh --example), fed by the same
host layer as the drawing app's page. Real fingers through the DevTools
protocol pinch its rings and tap its button."""

import pytest

from conftest import WEB, open_page
from touchscreen import Touchscreen

pytestmark = pytest.mark.server


@pytest.fixture
def example(browser, server):
    if not (WEB / "examples/hypnosis/hypnosis.wasm").exists():
        pytest.fail("Web/examples/hypnosis/hypnosis.wasm is missing: run Scripts/build-wasm.sh --example first")
    page = open_page_without_app(browser, server.url + "/examples/hypnosis/")
    yield page
    assert page.errors == []
    page.context.close()


def open_page_without_app(browser, url):
    context = browser.new_context(has_touch=True, viewport={"width": 400, "height": 600}, bypass_csp=True)
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda error: page.errors.append(str(error)))
    page.goto(url)
    page.wait_for_function("window.hypnosis && window.hypnosis.colorIndex() >= 0")
    return page


def frames(page, count=3):
    """Waits for `count` animation frames: each commits what the fingers did."""
    page.evaluate(
        "(n) => new Promise((done) => { const step = () => (n-- > 0 ? requestAnimationFrame(step) : done()); step(); })",
        count)


def pixel(page, x, y):
    return page.evaluate(
        "([x, y]) => { const c = document.getElementById('canvas'); const d = devicePixelRatio;"
        " return [...c.getContext('2d').getImageData(Math.round(x * d), Math.round(y * d), 1, 1).data].slice(0, 3); }",
        [x, y])


def test_a_pinch_spreads_the_rings(example):
    fingers = Touchscreen(example)
    assert example.evaluate("hypnosis.ringSpacing()") == 20
    fingers.down(a=(150, 300), b=(250, 300))
    frames(example)
    for step in range(1, 11):
        spread = 50 + step * 5
        fingers.move(a=(200 - spread, 300), b=(200 + spread, 300))
        frames(example, 1)
    fingers.up("a", "b")
    frames(example)
    spacing = example.evaluate("hypnosis.ringSpacing()")
    assert 30 < spacing <= 40


def test_the_color_button_recolors_the_rings_by_target_action(example):
    fingers = Touchscreen(example)
    ring = (200 + 20, 300)  # on the first ring, right of the center
    frames(example)
    before = pixel(example, *ring)
    fingers.down(tap=(200, 200))  # not the button: nothing changes
    fingers.up("tap")
    frames(example)
    assert example.evaluate("hypnosis.colorIndex()") == 0
    fingers.down(tap=(66, 600 - 38))  # the button, bottom left
    fingers.up("tap")
    frames(example)
    assert example.evaluate("hypnosis.colorIndex()") == 1
    after = pixel(example, *ring)
    assert after != before, (before, after)
    assert after == [255, 0, 0], after  # Color.red, the second color
