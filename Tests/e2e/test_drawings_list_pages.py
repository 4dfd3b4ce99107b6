"""The "⋯" menu's list of drawings with many of them (issue 40, item 7): the
first page when the menu opens, more as the list is scrolled or "More
drawings" is pressed, the search done by the server (an older answer never
replaces a newer one), arrow keys through the list, and axe-core finding
nothing wrong with the menu's roles."""

import json
import urllib.request

import pytest
from axe_playwright_python.sync_playwright import Axe

from conftest import open_page

pytestmark = pytest.mark.server

PAGE_SIZE = 50
COUNT = 130


def put_many(server, names):
    document = json.dumps({"format": "touchtracker", "version": 1, "lines": [], "circles": []}).encode()
    for name in names:
        request = urllib.request.Request(server.url + f"/api/drawings/{name}", data=document, method="PUT",
                                         headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=5) as response:
            assert response.status == 200


@pytest.fixture
def many(browser, server):
    # Saved last to first, so that newest first is also the names' order
    # (the name breaks a tie between two saved within a millisecond).
    names = [f"sketch-{i:03}" for i in range(COUNT)]
    put_many(server, reversed(names))
    page = open_page(browser, server.url + "/?drawing=sketch-000")
    page.list_requests = []
    page.on("request", lambda request: page.list_requests.append(request.url)
            if "/api/drawings?" in request.url else None)
    yield page, names
    assert page.errors == []
    page.context.close()


def shown(page):
    return page.locator("#drawing-list .drawing-item").evaluate_all("items => items.map(i => i.dataset.name)")


def open_menu(page):
    page.click("#file-menu summary")
    page.wait_for_selector("#drawing-list:not([aria-busy]) .drawing-item", state="attached")


def test_the_menu_shows_the_first_page_then_more_by_scrolling_and_by_the_button(many):
    page, names = many
    open_menu(page)
    first = shown(page)
    assert len(first) == PAGE_SIZE
    # Newest first: the last saved is at the top.
    assert first == names[:PAGE_SIZE]
    assert page.locator("#drawing-list .menu-more button").inner_text() == "More drawings"
    # Scrolled to the end, the list asks for the next page by itself.
    page.locator("#drawing-list .menu-more").scroll_into_view_if_needed()
    page.wait_for_function(f"document.querySelectorAll('#drawing-list .drawing-item').length === {2 * PAGE_SIZE}")
    # The button asks for the last one; then there is no button.
    page.evaluate("document.querySelector('#drawing-list .menu-more button').click()")
    page.wait_for_function(f"document.querySelectorAll('#drawing-list .drawing-item').length === {COUNT}")
    assert page.locator("#drawing-list .menu-more").count() == 0
    every = shown(page)
    assert sorted(every) == sorted(names) and len(set(every)) == COUNT
    assert all("limit=50" in url for url in page.list_requests)


def test_the_search_asks_the_server_and_a_late_answer_to_an_older_search_is_dropped(many):
    page, _ = many
    open_menu(page)
    # The answer for "sketch-1" is held back while "sketch-12" is asked and answered.
    held = []
    page.route(lambda url: url.endswith("search=sketch-1"), lambda route: held.append(route))
    field = page.locator("#drawing-filter")
    field.fill("sketch-1")
    for _ in range(250):
        if held:
            break
        page.wait_for_timeout(20)
    assert held, "the search went to the server"
    field.fill("sketch-12")
    tens = ",".join(f"sketch-12{i}" for i in range(10))
    page.wait_for_function(
        f"[...document.querySelectorAll('#drawing-list .drawing-item')].map(i => i.dataset.name).join() === '{tens}'")
    for route in held:
        try:
            route.continue_()
        except Exception:
            pass  # The page gave up on it (aborted): as good as dropped.
    page.wait_for_timeout(300)
    assert ",".join(shown(page)) == tens, "the older answer did not replace the newer"
    field.fill("sketch-12x")
    page.wait_for_selector("#drawing-list .filter-note")
    assert page.inner_text("#drawing-list") == "No drawing named like “sketch-12x”"
    assert any("search=sketch-12x" in url for url in page.list_requests)


def test_arrow_keys_move_through_the_list_and_along_a_drawings_buttons(many):
    page, _ = many
    open_menu(page)
    active = "document.activeElement.closest('.drawing-item')?.dataset.name"
    page.focus("#drawing-filter")
    page.keyboard.press("ArrowDown")
    assert page.evaluate(active) == "sketch-000"
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")
    assert page.evaluate(active) == "sketch-002"
    page.keyboard.press("ArrowUp")
    assert page.evaluate(active) == "sketch-001"
    page.keyboard.press("ArrowRight")
    assert page.evaluate("document.activeElement.getAttribute('aria-label')") == "Rename sketch-001"
    page.keyboard.press("ArrowRight")
    assert page.evaluate("document.activeElement.getAttribute('aria-label')") == "Duplicate sketch-001"
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    assert page.evaluate("document.activeElement.matches('.drawing-link')")
    page.keyboard.press("End")
    assert page.evaluate(active) == f"sketch-{PAGE_SIZE - 1:03}"
    # Down from the last one shown: to "More drawings", which brings the next page.
    page.keyboard.press("ArrowDown")
    page.wait_for_function(f"document.querySelectorAll('#drawing-list .drawing-item').length === {2 * PAGE_SIZE}")
    page.keyboard.press("Home")
    assert page.evaluate(active) == "sketch-000"
    page.keyboard.press("ArrowUp")
    assert page.evaluate("document.activeElement.id") == "drawing-filter"


def test_axe_finds_nothing_wrong_with_the_open_menu(many):
    page, _ = many
    open_menu(page)
    results = Axe().run(page, context="#file-menu")
    violations = [(v["id"], v["impact"], [node["target"] for node in v["nodes"]][:3])
                  for v in results.response["violations"]]
    assert violations == []
