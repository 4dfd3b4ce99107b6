"""Taps on the toolbar on a phone: each one lands, however quickly it follows a
stroke on the canvas (issue 10, problem 1). No server needed."""

from touchscreen import Touchscreen


def center(page, selector):
    box = page.locator(selector).bounding_box()
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def quick_stroke(touch, y):
    """A fast flick of one finger: the kind of stroke a browser reads as a fling."""
    touch.down(s=(60, y))
    for step in range(1, 4):
        touch.move(s=(60 + step * 80, y + step * 30))
    touch.up("s")
    touch.settle(1)


def test_taps_on_the_toolbar_right_after_a_quick_stroke_are_not_swallowed(phone):
    touch = Touchscreen(phone)
    phone.evaluate("window.clicks = []; document.addEventListener('click', e => clicks.push(e.target.closest('[data-command], summary')?.dataset.command ?? 'summary'), true)")
    for round in range(3):
        lines = len(touch.document()["lines"])
        quick_stroke(touch, 300 + round * 100)
        assert len(touch.document()["lines"]) == lines + 1
        touch.tap(center(phone, "[data-command=undo]"))
        touch.settle()
        assert len(touch.document()["lines"]) == lines, f"round {round}: the tap on Undo right after a stroke undid it"

        quick_stroke(touch, 300 + round * 100)
        touch.tap(center(phone, "[data-command=palette]"))
        touch.settle()
        assert touch.state()["paletteVisible"], f"round {round}: the tap on Colors opened the palette"
        phone.keyboard.press("Escape")

        quick_stroke(touch, 300 + round * 100)
        touch.tap(center(phone, "#file-menu summary"))
        touch.settle()
        assert phone.evaluate("document.getElementById('file-menu').open"), f"round {round}: the tap on ⋯ opened the menu"
        phone.keyboard.press("Escape")
        phone.evaluate("document.getElementById('file-menu').open = false")
    assert phone.evaluate("clicks").count("undo") >= 3
