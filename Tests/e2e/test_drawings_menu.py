"""Managing drawings from the "⋯" menu against the real server: newest first,
the page's own dialog instead of prompt(), "New" never silently opens an
existing drawing, delete after a confirmation, duplicate; and a toolbar that
fits a 320-point screen (issue 10, problem 11)."""

import json
import time
import urllib.request

import pytest

from conftest import open_page
from touchscreen import Touchscreen

pytestmark = pytest.mark.server


def put(server, name, lines=0):
    document = {"format": "touchtracker", "version": 1, "circles": [], "lines": [
        {"id": i + 1, "begin": {"x": 10, "y": 10 + i}, "end": {"x": 50, "y": 10 + i}, "color": "#000000", "width": 10}
        for i in range(lines)
    ]}
    request = urllib.request.Request(server.url + f"/api/drawings/{name}", data=json.dumps(document).encode(),
                                     method="PUT", headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=5) as response:
        assert response.status == 200


def get(server, name):
    try:
        with urllib.request.urlopen(server.url + f"/api/drawings/{name}", timeout=5) as response:
            return json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code


def open_menu(page):
    """Opens the menu and waits for the list it fetches now, not the one a previous opening left."""
    # The list is fetched on the menu's `toggle` event, which fires after the
    # click returns: waiting only for "not busy" could read the old list.
    page.evaluate("document.getElementById('drawing-list').replaceChildren()")
    page.click("#file-menu summary")
    page.wait_for_selector("#drawing-list:not([aria-busy]) > *", state="attached")


def names_in_menu(page):
    return page.locator("#drawing-list .drawing-title").all_inner_texts()


@pytest.fixture
def page(browser, server):
    page = open_page(browser, server.url + "/?drawing=default")
    page.console = []
    page.on("console", lambda message: page.console.append(message.text))
    page.on("dialog", lambda dialog: pytest.fail(f"a browser dialog ({dialog.type}) was shown: {dialog.message}"))
    yield page
    assert page.errors == []
    page.context.close()


def test_the_list_is_newest_first(browser, server):
    for name in ["audit3", "audit10", "audit1"]:
        put(server, name)
        time.sleep(1.05)  # updatedAt has whole seconds
    put(server, "audit10", lines=1)  # changed last
    page = open_page(browser, server.url + "/?drawing=audit3")
    open_menu(page)
    assert names_in_menu(page) == ["audit10", "audit1", "audit3"]
    page.context.close()


def test_new_asks_in_the_page_and_opens_an_empty_drawing_without_a_404(page, server):
    open_menu(page)
    page.click("[data-command=new]")
    dialog = page.locator("#dialog")
    assert dialog.is_visible()
    assert page.locator("#dialog-input").get_attribute("aria-describedby") == "dialog-error"
    page.fill("#dialog-input", "bad name")
    page.click("#dialog-ok")
    assert dialog.is_visible(), "a bad name keeps the dialog open"
    assert "letters, digits" in page.inner_text("#dialog-error")
    page.fill("#dialog-input", "fresh")
    with page.expect_navigation():
        page.click("#dialog-ok")
    page.evaluate("window.touchtracker.ready")
    assert page.evaluate("touchtracker.saving().name") == "fresh"
    assert get(server, "fresh")["lines"] == []
    assert not [text for text in page.console if "404" in text], page.console


def test_new_with_a_name_in_use_says_so_and_offers_to_open_it(page, server):
    put(server, "taken", lines=2)
    open_menu(page)
    page.click("[data-command=new]")
    page.fill("#dialog-input", "taken")
    page.click("#dialog-ok")
    assert page.locator("#dialog-title").inner_text() == "“taken” already exists"
    assert page.evaluate("touchtracker.saving().name") == "default", "not opened unasked"
    with page.expect_navigation():
        page.click("#dialog-ok")  # "Open it"
    page.evaluate("window.touchtracker.ready")
    assert page.evaluate("touchtracker.saving().name") == "taken"
    assert len(Touchscreen(page).document()["lines"]) == 2


def test_delete_asks_first_and_removes_the_drawing(page, server):
    put(server, "doomed", lines=1)
    open_menu(page)
    page.click("[aria-label='Delete doomed']")
    assert page.locator("#dialog-title").inner_text() == "Delete “doomed”?"
    page.click("#dialog-cancel")
    assert get(server, "doomed") != 404, "cancel keeps it"
    open_menu(page)
    page.click("[aria-label='Delete doomed']")
    page.click("#dialog-ok")
    page.wait_for_function("!document.getElementById('dialog').open")
    deadline = time.monotonic() + 5
    while get(server, "doomed") != 404 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert get(server, "doomed") == 404
    open_menu(page)
    assert "doomed" not in names_in_menu(page)
    assert page.locator("[aria-label^='default is open']").is_disabled() if "default" in names_in_menu(page) else True


def test_duplicate_copies_a_drawing_to_a_new_name(page, server):
    put(server, "original", lines=3)
    open_menu(page)
    page.click("[aria-label='Duplicate original']")
    assert page.input_value("#dialog-input") == "original-copy"
    page.click("#dialog-ok")
    page.wait_for_selector("#notice .notice-box:not([hidden])")
    assert "original-copy" in page.inner_text("#notice")
    copy = get(server, "original-copy")
    assert copy["lines"] == get(server, "original")["lines"]


def test_at_320_points_the_toolbar_fits_and_shows_the_whole_name(browser, server):
    name = "drawing-20261123-0455"
    page = open_page(browser, server.url + f"/?drawing={name}", viewport={"width": 320, "height": 568}, device_scale_factor=2)
    toolbar = page.locator("#toolbar").bounding_box()
    assert toolbar["x"] >= 0 and toolbar["x"] + toolbar["width"] <= 320
    label = page.locator("#drawing-name")
    assert label.inner_text().startswith(name)
    assert page.evaluate("(e => e.scrollWidth <= e.clientWidth)(document.getElementById('drawing-name'))"), "not cut"
    box = label.bounding_box()
    assert box["x"] + box["width"] <= 320
    # The inspector's button takes no room on a phone: it is in the "⋯" menu there.
    assert page.locator('#toolbar > [data-command="inspector"]').is_hidden()
    for button in page.locator("#toolbar > button:visible, #toolbar summary").all():
        b = button.bounding_box()
        assert b["x"] + b["width"] <= 320, button.get_attribute("aria-label")
    page.context.close()
