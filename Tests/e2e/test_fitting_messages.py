"""What the page says fits the situation: a page that cannot draw is not told
how to draw, a link that was replaced says so (not "open the link you were
sent", which is the link in hand), and the first-run hint leaves the drawing
once the person has drawn."""

import pytest

from conftest import PHONE, open_page
from test_access import bearer, guarded, request, shared_drawing  # noqa: F401 (guarded: the fixture)
from touchscreen import Touchscreen

pytestmark = pytest.mark.server


def open_first_visit(browser, url):
    """A page as on a first visit: nothing in its storage, so the first-run hint may show."""
    page = open_page(browser, url, **PHONE)
    page.evaluate("touchtracker.ready")
    return page


def test_a_page_that_cannot_draw_is_not_told_how_to_draw(browser, guarded):
    links = shared_drawing(guarded, "watched")
    for url, role in [
        (f"{guarded.url}/?drawing=watched&key={links['view']}", "view"),
        (f"{guarded.url}/?drawing=watched", "none"),
    ]:
        page = open_first_visit(browser, url)
        try:
            assert page.evaluate("touchtracker.access().role") == role
            assert not page.is_visible("#hint"), f"a {role} page shows 'Draw with one finger'"
        finally:
            page.context.close()


def test_a_replaced_link_says_it_was_replaced(browser, guarded):
    links = shared_drawing(guarded, "rotated-away")
    page = open_first_visit(browser, f"{guarded.url}/?drawing=rotated-away&key={links['edit']}")
    try:
        assert page.evaluate("touchtracker.access().role") == "edit"
        status, _, _ = request(guarded, "POST", "/api/drawings/rotated-away/links", headers=bearer(guarded.token))
        assert status == 200
        page.reload()
        page.evaluate("touchtracker.ready")
        assert page.evaluate("touchtracker.access().role") == "none"
        text = page.text_content("#banner-text")
        assert "no longer opens" in text and "open the link you were sent" not in text, text
    finally:
        page.context.close()


def test_the_first_run_hint_leaves_once_a_line_is_drawn(browser, server):
    page = open_first_visit(browser, f"{server.url}/?drawing=first-visit")
    try:
        hint = page.locator("#hint")
        assert hint.is_visible()
        Touchscreen(page).line((60, 200), (300, 220))
        assert not hint.is_visible(), "the hint no longer covers the drawing"
        page.reload()
        page.evaluate("touchtracker.ready")
        assert not hint.is_visible(), "drawing counts as having read it"
        assert page.errors == []
    finally:
        page.context.close()
