"""What the page's own controls owe everyone (issue 10, build 8): a name for
every control, a visible focus ring, the keyboard reaching everything, WCAG AA
contrast for text, and no motion for people who asked for none. The checks
are written here (no axe-core in this environment): names as the
accessible-name rules compute them for these simple cases, contrast by the
WCAG formula over the composited background."""

import pytest

from conftest import open_page
from touchscreen import Touchscreen

CHECKS = r"""
() => {
  const visible = (e) => e.getClientRects().length && getComputedStyle(e).visibility !== 'hidden';
  const name = (e) => (e.getAttribute('aria-label') || (e.getAttribute('aria-labelledby') || '').split(' ')
    .map((id) => document.getElementById(id)?.textContent || '').join(' ') || e.labels?.[0]?.textContent || e.textContent || '').trim();
  const unnamed = [...document.querySelectorAll('button, summary, a[href], input, dialog[open], [role=note]')]
    .filter(visible).filter((e) => !name(e)).map((e) => e.outerHTML.slice(0, 80));

  const parse = (c) => { const m = c.match(/[\d.]+/g).map(Number); return [m[0], m[1], m[2], m.length > 3 ? m[3] : 1]; };
  const over = (top, bottom) => [0, 1, 2].map((i) => top[i] * top[3] + bottom[i] * (1 - top[3])).concat(1);
  function background(e) {
    const layers = [];
    for (let n = e; n; n = n.parentElement) {
      const c = parse(getComputedStyle(n).backgroundColor);
      if (c[3] > 0) layers.push(c);
      if (c[3] === 1) break;
      if (n.tagName === 'DIALOG') { layers.push([255, 255, 255, 1]); break; }
    }
    let color = [200, 200, 200, 1]; // the canvas' gray under floating controls
    for (const layer of layers.reverse()) color = over(layer, color);
    return color;
  }
  const luminance = (c) => { const [r, g, b] = c.slice(0, 3).map((v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; }); return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
  const ratio = (a, b) => { const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
  const low = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let t = walker.nextNode(); t; t = walker.nextNode()) {
    const e = t.parentElement;
    if (!t.textContent.trim() || !visible(e) || e.closest('noscript, [hidden]')) continue;
    if (e.closest('button:disabled')) continue; // disabled controls are exempt
    const style = getComputedStyle(e);
    const size = parseFloat(style.fontSize);
    const large = size >= 24 || (size >= 18.66 && Number(style.fontWeight) >= 700);
    const bg = background(e);
    const fg = over(parse(style.color), bg);
    const r = ratio(fg, bg);
    if (r < (large ? 3 : 4.5)) low.push(`${t.textContent.trim().slice(0, 30)}: ${r.toFixed(2)}`);
  }
  return { unnamed, low };
}
"""


def check(page):
    result = page.evaluate(CHECKS)
    assert result["unnamed"] == [], "controls without a name"
    assert result["low"] == [], "text below WCAG AA contrast"


@pytest.mark.server
@pytest.mark.parametrize("size", [(320, 568), (390, 844), (1440, 900)])
def test_every_control_is_named_and_all_text_meets_aa_contrast(browser, server, size):
    page = open_page(browser, server.url + "/?drawing=contrast-check", viewport={"width": size[0], "height": size[1]})
    check(page)  # toolbar and first-run hint
    touch = Touchscreen(page)
    touch.line((40, 300), (size[0] - 40, 320))
    touch.tap((size[0] / 2, 200))
    touch.tap((size[0] / 2, 200))
    touch.settle()
    page.wait_for_selector("#notice .notice-box:not([hidden])")
    check(page)  # the notice
    page.click("#file-menu summary")
    page.wait_for_selector("#drawing-list:not([aria-busy])", state="attached")
    check(page)  # the menu and its list
    page.click("[data-command=new]")
    page.fill("#dialog-input", "bad name")
    page.click("#dialog-ok")
    check(page)  # the dialog with its error
    page.keyboard.press("Escape")
    page.click("[data-command=help]")
    check(page)  # the help sheet
    assert page.errors == []
    page.context.close()


def test_the_keyboard_reaches_every_toolbar_control_with_a_visible_focus_ring(page):
    touch = Touchscreen(page)
    touch.line((100, 300), (400, 300))
    page.evaluate("document.activeElement.blur()")
    reached = []
    for _ in range(12):
        page.keyboard.press("Tab")
        focused = page.evaluate(
            """() => { const e = document.activeElement; const s = getComputedStyle(e);
                return { label: e.getAttribute('aria-label'), outline: s.outlineStyle, width: parseFloat(s.outlineWidth) }; }"""
        )
        if focused["label"] is None:
            continue
        reached.append(focused["label"])
        assert focused["outline"] != "none" and focused["width"] >= 2, focused
    for label in ["Colors", "Undo", "Colors by angle", "Width by speed", "Drawings and export", "Gestures and shortcuts"]:
        assert label in reached

    page.focus("[data-command=undo]")
    page.keyboard.press("Enter")
    assert touch.document()["lines"] == []
    page.focus("#file-menu summary")
    page.keyboard.press("Enter")
    assert page.evaluate("document.getElementById('file-menu').open")
    page.keyboard.press("Escape")
    page.focus("[data-command=help]")
    page.keyboard.press("Space")
    assert page.locator("#help").is_visible()
    page.keyboard.press("Escape")
    assert not page.locator("#help").is_visible()


@pytest.mark.parametrize("motion, animation", [("reduce", "none"), ("no-preference", "rise")])
def test_the_notice_moves_only_for_people_who_did_not_ask_for_less_motion(browser, static_url, motion, animation):
    page = open_page(browser, static_url + "/", reduced_motion=motion)
    touch = Touchscreen(page)
    touch.line((100, 300), (400, 300))
    for _ in range(2):
        touch.down(tap=(500, 400))
        touch.up("tap")
    touch.settle()
    page.wait_for_selector("#notice .notice-box:not([hidden])")
    assert page.evaluate("getComputedStyle(document.querySelector('#notice .notice-box')).animationName") == animation
    page.context.close()


def test_a_double_click_with_the_mouse_that_clears_says_so_on_a_desktop(browser, static_url):
    page = open_page(browser, static_url + "/", viewport={"width": 1440, "height": 900}, hint_read=True)
    touch = Touchscreen(page)
    page.mouse.move(200, 400)
    page.mouse.down()
    page.mouse.move(900, 450, steps=5)
    page.mouse.up()
    touch.settle()
    page.mouse.dblclick(700, 700)
    touch.settle()
    page.wait_for_selector("#notice .notice-box:not([hidden])")
    assert touch.document()["lines"] == []
    page.click("#notice button")
    assert len(touch.document()["lines"]) == 1
    page.context.close()


def test_the_keyboard_chooses_a_color_from_the_palette(page):
    touch = Touchscreen(page)
    page.focus("[data-command=palette]")
    page.keyboard.press("Enter")
    touch.settle()
    assert touch.state()["paletteVisible"]
    page.keyboard.press("4")
    touch.settle()
    assert not touch.state()["paletteVisible"]
    touch.line((100, 300), (400, 320))
    assert touch.document()["lines"][0]["color"] == "#0050ff"
    page.keyboard.press("2")  # with the palette closed, digits do nothing
    touch.line((100, 400), (400, 420))
    assert touch.document()["lines"][1]["color"] == "#0050ff"


def test_a_screen_reader_and_the_tab_key_reach_the_palettes_colors(page):
    """The palette is drawn on the canvas; while it is open, real buttons lie over its drawn ones, named
    by their colors, the current one pressed. They take the keyboard's focus, not touches."""
    touch = Touchscreen(page)
    assert page.get_by_role("group", name="Colors").count() == 0, "no buttons while the palette is closed"
    page.focus("[data-command=palette]")
    page.keyboard.press("Enter")
    touch.settle()
    buttons = page.get_by_role("group", name="Colors").get_by_role("button")
    names = [b.get_attribute("aria-label") for b in buttons.all()]
    assert names == ["Black", "Red", "Green", "Blue", "Orange", "Purple", "By Angle"]
    focused = "[document.activeElement.getAttribute('aria-label'), document.activeElement.getAttribute('aria-pressed')]"
    assert page.evaluate(focused) == ["Black", "true"], "focus moves to the current color"
    drawn = {t["text"]: t for t in page.evaluate("touchtracker.texts()")}
    for button in buttons.all():
        box, title = button.bounding_box(), drawn[button.get_attribute("aria-label")]
        assert box["x"] < title["x"] < box["x"] + box["width"] and box["y"] < title["y"] < box["y"] + box["height"], (
            f"{button.get_attribute('aria-label')} lies over its drawn button"
        )

    for _ in range(3):
        page.keyboard.press("Tab")
    assert page.evaluate(focused) == ["Blue", "false"]
    size = page.viewport_size
    page.set_viewport_size({"width": size["width"] - 40, "height": size["height"] - 60})  # the palette moves
    touch.settle()
    assert page.evaluate(focused) == ["Blue", "false"], "the focus stays on its color"
    page.set_viewport_size(size)
    touch.settle()
    page.keyboard.press("Enter")
    touch.settle()
    assert not touch.state()["paletteVisible"]
    assert page.get_by_role("group", name="Colors").count() == 0
    assert page.evaluate("document.activeElement.dataset.command") == "palette", "focus goes back to the Colors button"
    touch.line((100, 300), (400, 320))
    assert touch.document()["lines"][-1]["color"] == "#0050ff"

    page.keyboard.press("Enter")
    touch.settle()
    assert page.evaluate(focused) == ["Blue", "true"], "the current color is pressed"
    page.keyboard.press("Escape")
    touch.settle()
    assert not touch.state()["paletteVisible"]
    assert page.evaluate("document.activeElement.dataset.command") == "palette"

    page.keyboard.press("Enter")
    touch.settle()
    red = {t["text"]: t for t in page.evaluate("touchtracker.texts()")}["Red"]
    touch.tap((red["x"], red["y"]))  # a touch on the palette still reaches the core's button under the real one
    touch.settle()
    assert not touch.state()["paletteVisible"]
    touch.line((100, 400), (400, 420))
    assert touch.document()["lines"][-1]["color"] == "#b0001e"


def contrast(a, b):
    """WCAG's contrast ratio of two (r, g, b) colors."""
    def luminance(color):
        linear = [v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4 for v in (c / 255 for c in color)]
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]
    high, low = sorted([luminance(a), luminance(b)], reverse=True)
    return (high + 0.05) / (low + 0.05)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_canvas_focus_ring_stands_out_from_the_paper_in_both_themes(browser, static_url, scheme):
    """The canvas keeps its gray paper in the dark theme, so its focus ring, drawn inside its edge over
    the paper, needs 3:1 against that gray (WCAG 1.4.11) there too, not only against the dark chrome."""
    page = open_page(browser, static_url + "/", hint_read=True, color_scheme=scheme)
    try:
        touch = Touchscreen(page)
        paper = touch.pixel(1, 300)
        page.evaluate("document.activeElement.blur()")
        for _ in range(40):
            page.keyboard.press("Tab")
            if page.evaluate("document.activeElement?.id") == "canvas":
                break
        assert page.evaluate("document.getElementById('canvas').matches(':focus-visible')")
        ring = touch.pixel(1, 300)  # the ring's 3 px run along the window's left edge
        assert ring != paper, "no ring drawn at the canvas' edge"
        assert contrast(ring, paper) >= 3, f"ring {ring} on paper {paper}: {contrast(ring, paper):.2f}:1"
        assert page.errors == []
    finally:
        page.context.close()
