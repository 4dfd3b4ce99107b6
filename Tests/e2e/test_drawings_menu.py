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


def test_enter_in_the_name_field_confirms_and_keeps_the_typed_keys_off_the_canvas(page, server):
    # Enter in a dialog's field is its OK, not its Cancel (the form's first button): a name typed
    # and entered makes the drawing, and a bad one keeps the dialog open with the keys in the field.
    open_menu(page)
    page.click("[data-command=new]")
    page.locator("#dialog-input").press_sequentially("bad name")
    page.keyboard.press("Enter")
    assert page.locator("#dialog").is_visible(), "Enter with a bad name keeps the dialog open"
    assert "letters, digits" in page.inner_text("#dialog-error")
    page.fill("#dialog-input", "")
    page.locator("#dialog-input").press_sequentially("entered-")
    assert page.evaluate("touchtracker.viewport().zoom") == 1, "'-' went to the field, not the zoom"
    with page.expect_navigation():
        page.keyboard.press("Enter")
    page.evaluate("window.touchtracker.ready")
    assert page.evaluate("touchtracker.saving().name") == "entered-"
    assert get(server, "entered-")["lines"] == []


def test_new_with_a_name_in_use_says_so_and_offers_to_open_it(page, server):
    put(server, "taken", lines=2)
    open_menu(page)
    page.click("[data-command=new]")
    page.fill("#dialog-input", "taken")
    page.click("#dialog-ok")
    # The question opens once the name dialog's `close` event has run: wait for it.
    page.wait_for_selector("#dialog[open] #dialog-title:has-text('already exists')")
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


def test_a_deleted_drawing_comes_back_with_undo(page, server):
    put(server, "oops", lines=3)
    before = get(server, "oops")
    open_menu(page)
    page.click("[aria-label='Delete oops']")
    page.click("#dialog-ok")
    page.wait_for_selector("#notice .notice-box:not([hidden])")
    assert "Deleted “oops”" in page.inner_text("#notice")
    assert get(server, "oops") == 404
    page.click("#notice-actions button:text('Undo')")
    page.wait_for_function("document.getElementById('notice').innerText.includes('Restored')")
    restored = get(server, "oops")
    assert restored["lines"] == before["lines"] and restored["circles"] == before["circles"], "ids and all"
    open_menu(page)
    assert "oops" in names_in_menu(page)


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


# --- Rename, thumbnails and search (issue 10, build 6) -------------------------------------------------------------

def headers_of(server, name):
    request = urllib.request.Request(server.url + f"/api/drawings/{name}", method="HEAD")
    with urllib.request.urlopen(request, timeout=5) as response:
        return response.headers


def eventually(read, within=10):
    deadline = time.monotonic() + within
    while True:
        value = read()
        if value or time.monotonic() > deadline:
            assert value, f"nothing within {within} s"
            return value
        time.sleep(0.05)


def test_rename_keeps_the_drawing_and_refuses_a_name_in_use_or_a_bad_one(page, server):
    put(server, "first", lines=2)
    revision = headers_of(server, "first")["ETag"]
    open_menu(page)
    put(server, "taken", lines=1)  # after the list: only the server can say it exists
    page.click("[aria-label='Rename first']")
    assert page.locator("#dialog-title").inner_text() == "Rename “first”"
    assert page.input_value("#dialog-input") == "first"
    page.fill("#dialog-input", "bad name")
    page.click("#dialog-ok")
    assert "letters, digits" in page.inner_text("#dialog-error")
    page.fill("#dialog-input", "taken")
    page.click("#dialog-ok")
    page.wait_for_function("document.getElementById('dialog-error').textContent.includes('already exists')")
    assert page.locator("#dialog").is_visible(), "asked again, never overwritten"
    assert page.get_attribute("#dialog-input", "aria-invalid") == "true"
    assert len(get(server, "taken")["lines"]) == 1
    page.fill("#dialog-input", "second")
    page.click("#dialog-ok")
    page.wait_for_selector("#notice .notice-box:not([hidden])")
    assert "Renamed “first” to “second”" in page.inner_text("#notice")
    assert get(server, "first") == 404
    assert len(get(server, "second")["lines"]) == 2
    assert headers_of(server, "second")["ETag"] == revision, "the revision (and its log) came along"
    open_menu(page)
    assert "second" in names_in_menu(page) and "first" not in names_in_menu(page)
    assert page.evaluate("touchtracker.saving().name") == "default", "another drawing's rename opens nothing"


def test_renaming_the_open_drawing_follows_it_and_loses_no_line(browser, server):
    page = open_page(browser, server.url + "/?drawing=here", hint_read=True)
    page.errors = []
    touch = Touchscreen(page)
    touch.line((100, 100), (300, 100))
    touch.settle()
    touch.wait_for("!touchtracker.saving().dirty")  # on the server, so in the list
    # The rename's answer is held back while another line is drawn: that line must reach the new name.
    held = []
    page.route("**/api/drawings/here/rename", lambda route: held.append(route))
    open_menu(page)
    page.click("[aria-label='Rename here']")
    page.fill("#dialog-input", "there")
    page.click("#dialog-ok")
    eventually(lambda: held or page.evaluate("0"))
    assert get(server, "here") != 404 and len(get(server, "here")["lines"]) == 1, "saved before the rename"
    touch.line((100, 200), (300, 200))
    touch.settle()
    time.sleep(0.6)  # longer than the page waits to save: nothing goes to the old name meanwhile
    assert len(get(server, "here")["lines"]) == 1
    held[0].continue_()
    touch.wait_for("touchtracker.saving().name === 'there'")
    touch.wait_for("!touchtracker.saving().dirty && touchtracker.saving().stopped === null")
    assert "drawing=there" in page.url
    assert page.locator("#drawing-name").inner_text().startswith("there")
    assert len(get(server, "there")["lines"]) == 2
    assert get(server, "here") == 404
    touch.line((100, 300), (300, 300))
    touch.settle()
    eventually(lambda: get(server, "there") != 404 and len(get(server, "there")["lines"]) == 3)
    assert get(server, "here") == 404, "nothing is saved under the old name"
    assert page.evaluate("touchtracker.localCopy('here')") is None
    assert page.evaluate("touchtracker.localCopy('there').then((c) => c && c.name)") == "there"
    page.reload()
    page.evaluate("window.touchtracker.ready")
    assert len(Touchscreen(page).document()["lines"]) == 3
    assert page.evaluate("touchtracker.saving().name") == "there"
    assert page.errors == []
    page.context.close()


def test_a_page_with_the_drawing_open_elsewhere_follows_the_rename(browser, server):
    other = open_page(browser, server.url + "/?drawing=shared", hint_read=True)
    other_touch = Touchscreen(other)
    other_touch.line((100, 100), (300, 100))
    other_touch.wait_for("touchtracker.live().status === 'live' && !touchtracker.saving().dirty")
    page = open_page(browser, server.url + "/?drawing=default", hint_read=True)
    open_menu(page)
    page.click("[aria-label='Rename shared']")
    page.fill("#dialog-input", "moved")
    page.click("#dialog-ok")
    other_touch.wait_for("touchtracker.saving().name === 'moved'")
    assert "drawing=moved" in other.url
    other_touch.wait_for("touchtracker.live().status === 'live'")
    other_touch.line((100, 200), (300, 200))
    eventually(lambda: get(server, "moved") != 404 and len(get(server, "moved")["lines"]) == 2)
    assert get(server, "shared") == 404
    assert other.errors == [] and page.errors == []
    other.context.close()
    page.context.close()


def test_each_drawing_in_the_list_has_a_thumbnail_of_its_lines(page, server):
    put(server, "pictured", lines=20)
    open_menu(page)
    image = page.locator(".drawing-item[data-name=pictured] img.drawing-thumb")
    assert image.get_attribute("alt") == ""
    assert "/api/drawings/pictured/thumbnail?revision=1" in image.get_attribute("src")
    page.wait_for_function(
        "(() => { const i = document.querySelector('.drawing-item[data-name=pictured] img'); return i.complete && i.naturalWidth > 0; })()"
    )
    dark = page.evaluate(
        """() => {
          const image = document.querySelector('.drawing-item[data-name=pictured] img');
          const canvas = document.createElement('canvas');
          canvas.width = 120; canvas.height = 90;
          const context = canvas.getContext('2d');
          context.drawImage(image, 0, 0, 120, 90);
          const data = context.getImageData(0, 0, 120, 90).data;
          let dark = 0;
          for (let i = 0; i < data.length; i += 4) if (data[i] < 60 && data[i + 1] < 60 && data[i + 2] < 60) dark++;
          return dark;
        }"""
    )
    assert dark > 20, "the lines are in the picture"


def test_the_search_field_filters_the_list_by_name_from_the_keyboard(page, server):
    for name in ["apple", "banana", "Apricot"]:
        put(server, name)
    open_menu(page)
    field = page.locator("#drawing-filter")
    assert field.get_attribute("aria-label") == "Search drawings by name"
    field.focus()
    assert page.evaluate("getComputedStyle(document.activeElement).outlineStyle") != "none"
    page.keyboard.type("ap")
    # The server searches: the list changes when its answer comes.
    shown = "[...document.querySelectorAll('#drawing-list .drawing-item')].map(i => i.dataset.name).sort().join()"
    page.wait_for_function(f"{shown} === 'Apricot,apple'")
    page.keyboard.type("zz")
    page.wait_for_selector("#drawing-list .filter-note")
    assert page.locator("#drawing-list .drawing-item").count() == 0
    assert "No drawing named like “apzz”" in page.inner_text("#drawing-list")
    page.keyboard.press("Escape")
    assert field.input_value() == "" and page.evaluate("document.getElementById('file-menu').open")
    page.wait_for_function("document.querySelectorAll('#drawing-list .drawing-item').length >= 3")
    page.keyboard.type("banana")
    page.wait_for_function(f"{shown} === 'banana'")
    page.keyboard.press("ArrowDown")
    assert page.evaluate("document.activeElement.closest('.drawing-item')?.dataset.name") == "banana"
    page.focus("#drawing-filter")
    page.keyboard.press("Escape")
    page.keyboard.press("Escape")
    assert not page.evaluate("document.getElementById('file-menu').open"), "Escape in an empty field closes the menu"
    assert page.evaluate("document.activeElement.matches('#file-menu summary')")
    page.keyboard.press("Enter")
    page.wait_for_selector("#drawing-list:not([aria-busy]) .drawing-item", state="attached")
    page.focus("#drawing-filter")
    page.keyboard.type("banana")
    page.wait_for_function(f"{shown} === 'banana'")
    page.keyboard.press("ArrowDown")
    with page.expect_navigation():
        page.keyboard.press("Enter")
    page.evaluate("window.touchtracker.ready")
    assert page.evaluate("touchtracker.saving().name") == "banana"


@pytest.mark.parametrize("size", [(320, 568), (390, 844), (1440, 900)])
def test_the_menu_with_its_list_fits_the_screen(browser, server, size):
    for name in ["a-rather-long-drawing-name-that-wraps-0123456789-abcdefghijkl", "short"]:
        put(server, name, lines=3)
    page = open_page(browser, server.url + "/?drawing=short", viewport={"width": size[0], "height": size[1]},
                     hint_read=True)
    open_menu(page)
    menu = page.locator("#file-menu .menu").bounding_box()
    assert menu["x"] >= 0 and menu["x"] + menu["width"] <= size[0]
    assert menu["y"] + menu["height"] <= size[1]
    assert page.evaluate("(m => m.scrollWidth <= m.clientWidth)(document.querySelector('#file-menu .menu'))")
    assert page.locator("#drawing-list [data-drawing-action=rename]").count() == 2
    assert page.locator("#drawing-list img.drawing-thumb").count() == 2
    for control in page.locator("#drawing-list button, #drawing-list a, #drawing-list img, #drawing-filter").all():
        box = control.bounding_box()
        assert box["x"] >= menu["x"] and box["x"] + box["width"] <= menu["x"] + menu["width"] + 0.5
    page.context.close()


def test_the_site_opens_the_drawing_opened_last(browser, server):
    # The address without ?drawing= opens the drawing this browser had open last (not an empty
    # "default"), and says which in the address bar.
    put(server, "yesterday", lines=3)
    page = open_page(browser, server.url + "/?drawing=yesterday")
    try:
        page.goto(server.url + "/")
        page.evaluate("window.touchtracker.ready")
        assert page.evaluate("touchtracker.saving().name") == "yesterday"
        assert page.evaluate("touchtracker.state().lines") == 3
        assert page.evaluate("new URLSearchParams(location.search).get('drawing')") == "yesterday"
        assert page.errors == []
    finally:
        page.context.close()
