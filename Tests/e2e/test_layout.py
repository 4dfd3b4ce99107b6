"""No text outside its sheet or off screen (issue 36): at 320, 390, 1024 and 1440
wide, in the light and the dark theme, with each sheet, dialog and menu open —
help, share, the New drawing and Rename dialogs (with an error), the "⋯" menu
with its drawings, the inspector — and the toolbar and first-run hint.

A text's lines are measured as the browser lays them out (a Range's client
rectangles), so a word pushed past a box's edge is caught even when its
element's own box is inside. Boxes that scroll (the menu, a sheet, the
inspector) may hold text below their fold; sideways, nothing may leave."""

import pytest

from conftest import open_page
from test_drawings_menu import open_menu, put

pytestmark = pytest.mark.server

# Each text line of `selector`'s visible elements that reaches past the box's edges or the window's, as
# "text: where, in where it should be"; [] when everything is inside. The box itself must be on screen.
OUTSIDE = """(selector) => {
  const box = document.querySelector(selector);
  const outer = box.getBoundingClientRect();
  const [width, height] = [document.documentElement.clientWidth, innerHeight];
  const bad = [];
  const round = (r) => `${Math.round(r.left)}..${Math.round(r.right)} x ${Math.round(r.top)}..${Math.round(r.bottom)}`;
  if (outer.left < -0.5 || outer.top < -0.5 || outer.right > width + 0.5 || outer.bottom > height + 0.5) {
    bad.push(`${selector} itself: ${round(outer)} in a window of ${width} x ${height}`);
  }
  const scrolls = (e) => /auto|scroll/.test(getComputedStyle(e).overflowY) && e.scrollHeight > e.clientHeight;
  const walker = document.createTreeWalker(box, NodeFilter.SHOW_TEXT);
  for (let t = walker.nextNode(); t; t = walker.nextNode()) {
    const e = t.parentElement;
    if (!t.textContent.trim() || !e.checkVisibility({ visibilityProperty: true })) continue;
    if (e.closest('option, select')) continue; // a closed select shows only its value, drawn by the browser
    const range = document.createRange();
    range.selectNodeContents(t);
    const clip = e.closest('*:is(#inspector, .menu, dialog, [data-inspector="log"])');
    const tall = clip && scrolls(clip);
    for (const r of range.getClientRects()) {
      if (!r.width) continue;
      const sideways = r.left < Math.max(outer.left, 0) - 0.5 || r.right > Math.min(outer.right, width) + 0.5;
      const below = !tall && (r.top < Math.max(outer.top, 0) - 0.5 || r.bottom > Math.min(outer.bottom, height) + 0.5);
      if (sideways || below) bad.push(`${t.textContent.trim().slice(0, 30)}: ${round(r)} in ${round(outer)}`);
    }
  }
  return bad;
}"""

SIZES = [(320, 568, 2), (390, 844, 3), (1024, 1366, 2), (1440, 900, 1)]


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("width,height,scale", SIZES)
def test_no_text_is_outside_its_sheet_or_off_screen(browser, server, width, height, scale, scheme):
    put(server, "garden-plan-2026", lines=3)
    put(server, "a-drawing-with-a-rather-long-name-indeed", lines=1)
    page = open_page(browser, server.url + "/?drawing=garden-plan-2026", color_scheme=scheme,
                     viewport={"width": width, "height": height}, device_scale_factor=scale, is_mobile=width < 700)
    found = {}

    def check(state, *selectors):
        problems = [p for s in selectors for p in page.evaluate(OUTSIDE, s)]
        if problems:
            found[state] = problems

    try:
        check("toolbar and hint", "#toolbar", "#zoom", "#hint")
        page.click("[data-command=help]")
        check("help", "#help")
        page.keyboard.press("Escape")
        page.click("[data-command=share]")
        page.wait_for_selector("#share[open]")
        check("share", "#share")
        page.keyboard.press("Escape")

        open_menu(page)
        check("menu", "#file-menu .menu")
        page.click("[data-command=new]")
        page.fill("#dialog-input", "not a name")
        page.click("#dialog-ok")
        check("new drawing", "#dialog")
        page.keyboard.press("Escape")

        open_menu(page)
        page.click("[aria-label='Rename a-drawing-with-a-rather-long-name-indeed']")
        page.fill("#dialog-input", "still not a name")
        page.click("#dialog-ok")
        check("rename", "#dialog")
        page.keyboard.press("Escape")
        page.evaluate("document.getElementById('file-menu').open = false; document.activeElement.blur()")

        page.evaluate("touchtracker.toggleInspector ? touchtracker.toggleInspector(true) : null")
        if not page.locator("#inspector").is_visible():
            page.keyboard.press("i")
        page.wait_for_selector("#inspector:not([hidden])")
        check("inspector", "#inspector", "#toolbar", "#zoom")
        assert found == {}, "\n".join(f"{state}: {p}" for state, problems in found.items() for p in problems)
        assert page.errors == []
    finally:
        page.context.close()
