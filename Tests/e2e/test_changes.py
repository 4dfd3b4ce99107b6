"""Saving sends changes, not documents: a finished line, a delete, an undo
each reach the server as a small change record (POST .../changes), and the
server's drawing is the page's, ids and all. These pages save over HTTP only
(`?live=off`), the path a page takes when WebSockets do not get through;
drawing live, the same records go over the socket (test_live.py)."""

import json

from test_saving import EMPTY, line, open_drawing, request, stored, wait_until_saved


def big_drawing(count):
    return {**EMPTY, "lines": [line(5 + (i % 300) * 3, 500 + (i // 300) * 3, 6 + (i % 300) * 3, 501 + (i // 300) * 3) for i in range(count)]}


def sent(page):
    """Every request to the API the page makes from now on: (method, path, body bytes)."""
    requests = []
    page.on(
        "request",
        lambda r: requests.append((r.method, r.url.split("/api/")[-1], len(r.post_data_buffer or b"")))
        if "/api/" in r.url
        else None,
    )
    return requests


def test_a_line_drawn_into_a_big_drawing_is_saved_as_one_small_change(browser, server):
    status, _, _ = request(server, "PUT", "/api/drawings/big", big_drawing(3000))
    assert status == 200
    page, touch = open_drawing(browser, server, "big", live=False)
    page.evaluate("touchtracker.ready")
    requests = sent(page)

    touch.line((100, 100), (300, 100))
    wait_until_saved(touch)

    writes = [r for r in requests if r[0] != "GET"]
    assert writes == [("POST", "drawings/big/changes", writes[0][2])], writes
    assert writes[0][2] < 1024, f"{writes[0][2]} bytes for one line"
    assert stored(server, "big", ids=True) == touch.document(ids=True), "the server has the page's drawing, ids and all"
    assert stored(server, "big")["lines"][-1] == line(100, 100, 300, 100)


def test_delete_undo_and_redo_reach_the_server_as_changes(browser, server):
    page, touch = open_drawing(browser, server, "edits", live=False)
    page.evaluate("touchtracker.ready")
    touch.line((100, 100), (300, 100))
    touch.line((100, 300), (300, 300))
    wait_until_saved(touch)
    requests = sent(page)

    touch.tap((200, 102))
    page.evaluate("touchtracker.skipTime(1)")  # past the double-tap timeout: the tap selects
    touch.wait_for("touchtracker.state().selectedLine === 0")
    page.evaluate("touchtracker.core().tt_delete_selected()")
    touch.settle()
    wait_until_saved(touch)
    assert stored(server, "edits")["lines"] == [line(100, 300, 300, 300)]

    page.evaluate("touchtracker.core().tt_undo()")
    touch.settle()
    wait_until_saved(touch)
    assert stored(server, "edits", ids=True) == touch.document(ids=True), "undo puts the same line back where it was"
    assert stored(server, "edits")["lines"] == [line(100, 100, 300, 100), line(100, 300, 300, 300)]

    assert {method for method, _, _ in requests if method != "GET"} == {"POST"}, requests
    assert all(size < 1024 for method, _, size in requests if method == "POST"), requests


def test_a_change_whose_answer_was_lost_is_appended_once(browser, server):
    page, touch = open_drawing(browser, server, "retry", live=False)
    page.evaluate("touchtracker.ready")
    touch.line((100, 100), (300, 100))
    wait_until_saved(touch)
    # The server commits the next change, but its answer never reaches the page.
    lost = {"count": 0}

    def drop_answer(route):
        response = route.fetch()
        lost["count"] += 1
        route.abort() if lost["count"] == 1 else route.fulfill(response=response)

    page.route("**/api/drawings/retry/changes", drop_answer)
    touch.line((100, 300), (300, 300))
    wait_until_saved(touch)

    assert lost["count"] >= 2, "sent again after the lost answer"
    assert len(stored(server, "retry")["lines"]) == 2, "appended once"
    status, headers, _ = request(server, "GET", "/api/drawings/retry")
    assert status == 200
    assert headers["X-Revision"] == "2", "two changes, two revisions"


# The page's IndexedDB, read as it is: the base document of a drawing and its change entries.
STORED_COPY = """async (name) => {
  const db = await new Promise((resolve, reject) => {
    const request = indexedDB.open('touchtracker');
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
  const tx = db.transaction(['drawings', 'changes'], 'readonly');
  const read = (request) => new Promise((resolve) => (request.onsuccess = () => resolve(request.result)));
  const base = await read(tx.objectStore('drawings').get(name));
  const changes = await read(tx.objectStore('changes').index('name').getAll(name));
  db.close();
  // A base kept straight from a download is its bytes, a Blob.
  const text = base && (base.document instanceof Blob ? await base.document.text() : base.document);
  return { baseLines: base ? JSON.parse(text).lines.length : null, entries: changes.map((c) => c.entry) };
}"""


def test_a_change_is_kept_in_this_browser_as_its_record_not_the_whole_drawing(browser, server):
    request(server, "PUT", "/api/drawings/kept", big_drawing(3000))
    page, touch = open_drawing(browser, server, "kept", live=False)
    page.evaluate("touchtracker.ready")

    touch.line((100, 100), (300, 100))
    touch.wait_for("touchtracker.saving().local === 'saved'")

    copy = page.evaluate(STORED_COPY, "kept")
    assert copy["baseLines"] == 3000, "the document kept at opening is not written again"
    own = [json.loads(entry)["own"] for entry in copy["entries"] if entry.startswith('{"own"')]
    assert len(own) == 1 and own[0][0]["op"] == "add", "the line is one small entry"
    assert all(len(entry) < 1000 for entry in copy["entries"]), "no entry holds the drawing"


def test_changes_made_offline_survive_a_reload_and_reach_the_server(browser, server):
    page, touch = open_drawing(browser, server, "away")
    page.evaluate("touchtracker.ready")
    touch.line((100, 100), (300, 100))
    touch.line((100, 300), (300, 300))
    wait_until_saved(touch)

    # The API unreachable (the page itself still loads, as it would from a cache):
    # requests fail, and the drawing's socket closes and cannot come back.
    page.route("**/api/**", lambda route: route.abort())
    page.route_web_socket("**/live", lambda socket: socket.close())
    page.evaluate("touchtracker.liveSocketForTests()?.close()")
    touch.line((100, 500), (300, 500))
    touch.tap((200, 102))
    page.evaluate("touchtracker.skipTime(1)")
    touch.wait_for("touchtracker.state().selectedLine === 0")
    page.evaluate("touchtracker.core().tt_delete_selected()")
    touch.settle()
    page.evaluate("touchtracker.core().tt_undo()")
    touch.settle()
    page.evaluate("touchtracker.core().tt_redo()")
    touch.settle()
    touch.wait_for("touchtracker.saving().offline && touchtracker.saving().local === 'saved'")
    before = touch.document(ids=True)
    assert [l["begin"]["y"] for l in before["lines"]] == [300, 500]

    page.reload()
    page.evaluate("touchtracker.ready")
    assert touch.document(ids=True) == before, "the reloaded page shows what was drawn offline, ids and all"

    page.unroute("**/api/**")
    page.evaluate("touchtracker.save()")
    try:
        page.wait_for_function("!touchtracker.saving().offline && !touchtracker.saving().dirty", timeout=15000)
    except Exception as error:
        state = page.evaluate("touchtracker.saving()")
        raise AssertionError(f"not saved: {state}, banner {page.inner_text('#banner')!r}, server {stored(server, 'away', ids=True)}") from error
    assert stored(server, "away", ids=True) == before


def test_a_page_that_missed_a_rename_follows_it_saves_there_and_the_old_address_leads_there(browser, server):
    """Renamed from elsewhere while this page was not listening (saving over HTTP: no socket to hear it):
    its next save meets the old name's 409, which says where the drawing went; the page follows, with its
    revision moved, and saves there. Opening the old address later lands on the new name too."""
    page, touch = open_drawing(browser, server, "trip", live=False)
    page.evaluate("touchtracker.ready")
    touch.line((100, 100), (300, 100))
    wait_until_saved(touch)
    status, _, _ = request(server, "POST", "/api/drawings/trip/rename", {"name": "journey"})
    assert status == 200

    touch.line((100, 300), (300, 300))
    touch.wait_for("touchtracker.saving().name === 'journey'")
    wait_until_saved(touch)
    assert "drawing=journey" in page.url
    assert stored(server, "journey", ids=True) == touch.document(ids=True), "the line drawn after the rename is there"
    assert stored(server, "trip") is None
    assert page.evaluate("touchtracker.saving().conflict") is False

    other, other_touch = open_drawing(browser, server, "trip", live=False)
    other.evaluate("touchtracker.ready")
    other_touch.wait_for("touchtracker.saving().name === 'journey'")
    assert "drawing=journey" in other.url
    assert other_touch.document(ids=True) == stored(server, "journey", ids=True)
