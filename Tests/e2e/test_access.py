"""Share links and access control (issue 12, item 5), against the real
`touchtracker serve --access-control`: a page opened with a view link
cannot change anything while a page with the edit link draws, and sees it
live; a request without a link gets 404 (403 for the list); the Share
sheet's QR code decodes, with a real decoder (zxing-cpp), to the edit link.

Screenshots of the Share sheet go to $TOUCHTRACKER_SCREENSHOTS when set."""

import json
import os
import pathlib
import time

import numpy
import pytest
import zxingcpp

from conftest import ROOT, Server
from test_saving import eventually, line, request
from touchscreen import Touchscreen

pytestmark = pytest.mark.server

PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 3, "is_mobile": True}
DESKTOP = {"viewport": {"width": 1280, "height": 800}, "device_scale_factor": 1}


@pytest.fixture
def guarded(tmp_path, wasm):
    """`touchtracker serve --access-control`, with its admin token."""
    binary = pathlib.Path(os.environ.get("TOUCHTRACKER_BIN", ROOT / ".build/debug/touchtracker"))
    if not binary.is_absolute():
        binary = ROOT / binary
    if not binary.exists():
        pytest.skip(f"no touchtracker binary at {binary} (set TOUCHTRACKER_BIN)")
    server = Server(binary, tmp_path / "drawings.sqlite", ["--access-control"])
    server.start()
    server.token = eventually(lambda: server.admin_token, 5)
    yield server
    server.stop()


def bearer(key):
    return {"Authorization": f"Bearer {key}"}


def shared_drawing(server, name):
    """Drawing `name` with one line, made by the admin; its links."""
    status, _, _ = request(
        server, "PUT", f"/api/drawings/{name}",
        {"format": "touchtracker", "version": 1, "lines": [line(20, 300, 120, 320)], "circles": []},
        bearer(server.token),
    )
    assert status == 200
    status, _, body = request(server, "GET", f"/api/drawings/{name}/links", headers=bearer(server.token))
    assert status == 200
    return json.loads(body)


def stored_text(server, name):
    status, _, body = request(server, "GET", f"/api/drawings/{name}", headers=bearer(server.token))
    assert status == 200
    return body


def open_with(browser, url, device, permissions=()):
    context = browser.new_context(has_touch=True, bypass_csp=True, **device)
    context.add_init_script("localStorage.setItem('touchtracker.helpSeen', '1')")
    if permissions:
        context.grant_permissions(list(permissions), origin=url.split("/?")[0])
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda error: page.errors.append(str(error)))
    page.goto(url)
    page.evaluate("touchtracker.ready")
    return page, Touchscreen(page)


def screenshot(page, name):
    directory = os.environ.get("TOUCHTRACKER_SCREENSHOTS")
    if directory:
        pathlib.Path(directory).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(pathlib.Path(directory) / name))


def test_without_a_link_the_api_answers_404_and_changes_nothing(guarded):
    shared_drawing(guarded, "private")
    before = stored_text(guarded, "private")
    document = {"format": "touchtracker", "version": 1, "lines": [], "circles": []}
    for method, path, body in [
        ("GET", "/api/drawings/private", None),
        ("PUT", "/api/drawings/private", document),
        ("POST", "/api/drawings/private/changes", {"changes": [{"op": "clear"}]}),
        ("DELETE", "/api/drawings/private", None),
        ("GET", "/api/drawings/private/links", None),
    ]:
        status, _, answer = request(guarded, method, path, body)
        assert status == 404, (method, path)
        assert json.loads(answer) == {"error": "No drawing named 'private'"}
    status, _, _ = request(guarded, "GET", "/api/drawings")
    assert status == 403
    assert stored_text(guarded, "private") == before


def test_a_page_without_a_link_says_so_and_draws_nothing(browser, guarded):
    shared_drawing(guarded, "private")
    before = stored_text(guarded, "private")
    page, touch = open_with(browser, f"{guarded.url}/?drawing=private", DESKTOP)
    assert page.evaluate("touchtracker.access().role") == "none"
    assert "needs its share link" in page.text_content("#banner-text")
    touch.line((300, 300), (600, 400))
    touch.settle()
    assert touch.document()["lines"] == []
    assert stored_text(guarded, "private") == before
    assert page.errors == []
    page.context.close()


def test_a_view_only_page_changes_nothing_while_an_edit_page_draws_and_sees_it_live(browser, guarded):
    links = shared_drawing(guarded, "together")
    viewer, view_touch = open_with(browser, f"{guarded.url}/?drawing=together&key={links['view']}", DESKTOP)
    editor, edit_touch = open_with(browser, f"{guarded.url}/?drawing=together&key={links['edit']}", PHONE)
    for page in (viewer, editor):
        assert "key=" not in page.url, "the key leaves the address bar"
    assert viewer.evaluate("touchtracker.access().role") == "view"
    assert editor.evaluate("touchtracker.access().role") == "edit"
    view_touch.wait_for("touchtracker.live().status === 'live'")
    edit_touch.wait_for("touchtracker.live().status === 'live'")

    # The view page shows it is view-only, and every way to change the drawing does nothing.
    assert viewer.is_visible("#view-only") and viewer.text_content("#view-only") == "View only"
    assert not editor.is_visible("#view-only")
    for command in ("palette", "undo", "redo"):
        assert viewer.is_disabled(f'#toolbar [data-command="{command}"]'), command
    assert not editor.is_disabled('#toolbar [data-command="palette"]')
    before = stored_text(guarded, "together")
    view_touch.line((300, 500), (700, 560))  # a stroke
    view_touch.tap((50, 310))
    view_touch.tap((50, 310))  # a double tap (clear)
    view_touch.down(a=(100, 600), b=(200, 600), c=(300, 600))  # three-finger swipe up (the palette)
    view_touch.move(a=(100, 400), b=(200, 400), c=(300, 400))
    view_touch.up("a", "b", "c")
    viewer.keyboard.press("Control+z")
    viewer.keyboard.press("Delete")
    view_touch.settle()
    assert view_touch.document()["lines"] == [line(20, 300, 120, 320)]
    assert viewer.evaluate("touchtracker.state().paletteVisible") is False
    assert viewer.evaluate("touchtracker.saving().dirty") is False

    # The edit page draws; the view page sees it finished, live.
    edit_touch.line((60, 400), (300, 460))
    view_touch.wait_for("touchtracker.document().lines.length === 2")
    assert view_touch.document()["lines"][1] == line(60, 400, 300, 460)
    eventually(lambda: json.loads(stored_text(guarded, "together"))["lines"].__len__() == 2, 5)
    assert view_touch.document(ids=True) == json.loads(stored_text(guarded, "together"))
    assert stored_text(guarded, "together") != before
    assert viewer.evaluate("touchtracker.live().status") == "live", "the view page was not cut off"
    for page in (viewer, editor):
        assert page.errors == []
        page.context.close()


def decode_canvas(page, selector):
    """The texts zxing-cpp reads in the canvas's pixels, as the page drew them."""
    width, height, pixels = page.evaluate(
        """(selector) => {
          const canvas = document.querySelector(selector);
          const data = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
          const gray = [];
          for (let i = 0; i < data.length; i += 4) gray.push(data[i]);
          return [canvas.width, canvas.height, gray];
        }""",
        selector,
    )
    image = numpy.array(pixels, dtype=numpy.uint8).reshape(height, width)
    return [(result.text, result.format.name) for result in zxingcpp.read_barcodes(image)]


def test_the_share_sheet_shows_both_links_copies_them_and_its_qr_code_decodes_to_the_edit_link(browser, guarded):
    links = shared_drawing(guarded, "shared")
    edit_url = f"{guarded.url}/?drawing=shared&key={links['edit']}"
    view_url = f"{guarded.url}/?drawing=shared&key={links['view']}"
    for device, shot in [(PHONE, "share-phone.png"), (DESKTOP, "share-desktop.png")]:
        page, touch = open_with(
            browser, f"{guarded.url}/?drawing=shared&token={guarded.token}", device,
            permissions=("clipboard-read", "clipboard-write"),
        )
        assert page.evaluate("touchtracker.access().role") == "admin"
        page.click('#toolbar [data-command="share"]')
        page.wait_for_selector("#share[open]")
        assert page.input_value("#share-edit-url") == edit_url
        assert page.input_value("#share-view-url") == view_url
        assert decode_canvas(page, "#share-qr") == [(edit_url, "QRCode")]
        page.click('#share-view button[data-copy]')
        page.wait_for_function("document.getElementById('share-status').textContent === 'Copied.'")
        assert page.evaluate("navigator.clipboard.readText()") == view_url
        screenshot(page, shot)
        assert page.errors == []
        page.context.close()


def test_new_links_revoke_the_old_ones(browser, guarded):
    links = shared_drawing(guarded, "rotated")
    page, _ = open_with(browser, f"{guarded.url}/?drawing=rotated&token={guarded.token}", DESKTOP)
    page.click('#toolbar [data-command="share"]')
    page.wait_for_selector("#share[open]")
    page.click("#share-rotate")
    page.wait_for_function("document.getElementById('share-status').textContent.startsWith('New links')")
    new_edit = page.evaluate("touchtracker.access().links.edit")
    assert new_edit != links["edit"]
    assert page.input_value("#share-edit-url").endswith(new_edit)
    assert request(guarded, "GET", "/api/drawings/rotated", headers=bearer(links["edit"]))[0] == 404
    assert request(guarded, "GET", "/api/drawings/rotated", headers=bearer(new_edit))[0] == 200
    page.context.close()


def test_with_access_control_off_the_share_sheet_says_so_and_drawing_is_as_before(browser, server):
    page, touch = open_with(browser, f"{server.url}/?drawing=local", DESKTOP)
    assert page.evaluate("touchtracker.access().role") == "open"
    assert not page.is_visible("#view-only")
    touch.line((300, 300), (600, 400))
    touch.wait_for("!touchtracker.saving().dirty")
    page.click('#toolbar [data-command="share"]')
    page.wait_for_selector("#share[open]")
    assert "Access control is off" in page.text_content("#share-note")
    # Nothing here is view only: no link says so, and none is offered to replace.
    assert not page.is_visible("#share-view"), "a 'View only' link that could draw"
    assert not page.is_visible("#share-rotate")
    edit_url = page.input_value("#share-edit-url")
    assert edit_url == f"{server.url}/?drawing=local", "the drawing's own address: a key would add nothing"
    assert decode_canvas(page, "#share-qr") == [(edit_url, "QRCode")]
    assert page.errors == []
    page.context.close()


def test_the_admin_renames_a_drawing_and_the_edit_link_holder_follows_it(browser, guarded):
    """Issue 10: the rename keeps the drawing's links; a page open with the
    edit link follows it to its new name (and keeps its key for it); the
    admin's list shows thumbnails although an <img> cannot send the token."""
    links = shared_drawing(guarded, "board")
    editor, edit_touch = open_with(browser, f"{guarded.url}/?drawing=board&key={links['edit']}", PHONE)
    edit_touch.wait_for("touchtracker.live().status === 'live'")
    admin, _ = open_with(browser, f"{guarded.url}/?drawing=desk&token={guarded.token}", DESKTOP)
    admin.click("#file-menu summary")
    admin.wait_for_selector("#drawing-list:not([aria-busy]) .drawing-item[data-name=board]")
    admin.wait_for_function(
        "(() => { const i = document.querySelector('.drawing-item[data-name=board] img');"
        " return i.src.startsWith('blob:') && i.complete && i.naturalWidth > 0; })()"
    )
    admin.click("[aria-label='Rename board']")
    admin.fill("#dialog-input", "board-2")
    admin.click("#dialog-ok")
    admin.wait_for_selector("#notice .notice-box:not([hidden])")

    edit_touch.wait_for("touchtracker.saving().name === 'board-2' && touchtracker.live().status === 'live'")
    assert editor.evaluate("JSON.parse(localStorage.getItem('touchtracker.keys'))['board-2']") == links["edit"]
    assert editor.evaluate("touchtracker.access().role") == "edit"
    edit_touch.line((60, 400), (300, 460))
    eventually(lambda: len(json.loads(stored_text(guarded, "board-2"))["lines"]) == 2, 5)
    status, _, _ = request(guarded, "GET", "/api/drawings/board-2", headers=bearer(links["edit"]))
    assert status == 200, "the edit link opens the drawing under its new name"
    status, _, _ = request(guarded, "GET", "/api/drawings/board", headers=bearer(guarded.token))
    assert status == 404
    for page in (editor, admin):
        assert page.errors == []
        page.context.close()
