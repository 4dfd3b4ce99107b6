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


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_share_sheet_keeps_its_flag_on_one_line_and_the_qr_square_off_its_neighbours(browser, server, scheme):
    """At 320 wide the note's "--access-control" stays on one line (a line ending after its first
    hyphen reads "-" and "-access-control"), and the QR code's white square (the dark theme draws
    one around it) overlaps neither the link above it nor the caption below it."""
    page = open_page(browser, server.url + "/?drawing=share-look", hint_read=True, color_scheme=scheme,
                     viewport={"width": 320, "height": 568}, device_scale_factor=2, is_mobile=True)
    try:
        page.click("[data-command=share]")
        page.wait_for_selector("#share[open]")
        tops = page.evaluate("""(flag) => {
          const walker = document.createTreeWalker(document.getElementById('share-note'), NodeFilter.SHOW_TEXT);
          const text = [];
          for (let t = walker.nextNode(); t; t = walker.nextNode()) text.push(t);
          const whole = text.map((t) => t.textContent).join('');
          let start = whole.indexOf(flag);
          if (start < 0) return null;
          const range = document.createRange();
          let end = start + flag.length;
          for (const t of text) {  // the flag's characters, across text nodes
            const n = t.textContent.length;
            if (start >= 0 && start <= n) { range.setStart(t, start); }
            if (end <= n) { range.setEnd(t, end); break; }
            start -= n; end -= n;
          }
          return [...new Set([...range.getClientRects()].filter((r) => r.width).map((r) => Math.round(r.top)))];
        }""", "--access-control")
        assert tops is not None, page.text_content("#share-note")
        assert len(tops) == 1, f"--access-control is broken across lines at {tops}"

        boxes = page.evaluate("""() => {
          const box = (e) => e.getBoundingClientRect();
          const qr = document.getElementById('share-qr');
          // What paints white: the canvas' border box and any box-shadow spread around it.
          const spread = Math.max(0, ...[...getComputedStyle(qr).boxShadow.matchAll(/(-?[\\d.]+)px/g)]
            .map((m) => Number(m[1])).filter((v, i) => i % 4 === 3));
          const q = box(qr);
          return {
            square: { top: q.top - spread, bottom: q.bottom + spread },
            link: box(document.querySelector('#share-edit .share-row')).bottom,
            caption: box(document.getElementById('share-qr-caption')).top,
          };
        }""")
        assert boxes["square"]["top"] >= boxes["link"], boxes
        assert boxes["square"]["bottom"] <= boxes["caption"], boxes
        assert page.errors == []
    finally:
        page.context.close()
