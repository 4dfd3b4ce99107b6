"""This browser's copies of drawings (IndexedDB): a copy that cannot be
opened never costs the server's drawing, full storage is never reported as
saved, and copies of drawings left behind do not pile up."""

import json

import pytest

from conftest import open_page
from test_saving import EMPTY, line, open_drawing, request, stored, wait_until_saved
from touchscreen import Touchscreen

pytestmark = pytest.mark.server

SERVER_LINES = [line(10 * i, 10, 10 * i, 50) for i in range(1, 4)]

# Puts a record into the page's IndexedDB store of drawings, as a page that
# crashed mid-session would have left it.
PUT_COPY = """async (record) => {
  const db = await new Promise((resolve, reject) => {
    const request = indexedDB.open('touchtracker');
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
  await new Promise((resolve, reject) => {
    const tx = db.transaction('drawings', 'readwrite');
    tx.objectStore('drawings').put(record);
    tx.oncomplete = resolve;
    tx.onerror = () => reject(tx.error);
  });
  db.close();
}"""

RESCUED = """async () => {
  const db = await new Promise((resolve) => {
    const request = indexedDB.open('touchtracker');
    request.onsuccess = () => resolve(request.result);
  });
  const all = await new Promise((resolve) => {
    const request = db.transaction('rescued').objectStore('rescued').getAll();
    request.onsuccess = () => resolve(request.result);
  });
  db.close();
  return all;
}"""


def seeded_server(server, name):
    status, _, _ = request(server, "PUT", f"/api/drawings/{name}", {**EMPTY, "lines": SERVER_LINES})
    assert status == 200


def reopen(page, server, name):
    page.goto(f"{server.url}/?drawing={name}")
    page.evaluate("touchtracker.ready")
    page.evaluate("touchtracker.save()")  # whatever the page would save, it has saved now
    return Touchscreen(page)


def test_an_unsaved_copy_from_a_newer_format_never_empties_the_servers_drawing(browser, server):
    seeded_server(server, "newer")
    page, _ = open_drawing(browser, server, "other")
    newer = json.dumps({**EMPTY, "version": 2})
    # An older page kept its copies in localStorage; they are moved into IndexedDB and opened from there.
    page.evaluate(
        "([key, copy]) => localStorage.setItem(key, copy)",
        ["touchtracker:drawing:newer", json.dumps({"document": newer, "revision": 1, "dirty": True})],
    )

    touch = reopen(page, server, "newer")

    assert stored(server, "newer")["lines"] == SERVER_LINES
    assert touch.document()["lines"] == SERVER_LINES, "the server's drawing is shown"
    assert not page.evaluate("touchtracker.saving().dirty"), "a failed load is not a change"
    assert "could not be opened" in page.inner_text("#banner")
    rescued = page.evaluate(RESCUED)
    assert [r["document"] for r in rescued] == [newer], "the copy is kept aside, not dropped"


def test_an_unsaved_copy_beyond_the_coordinate_limits_never_empties_the_servers_drawing(browser, server):
    seeded_server(server, "far")
    page, _ = open_drawing(browser, server, "other")
    far = json.dumps({**EMPTY, "lines": SERVER_LINES + [line(999_999_990, 10, 1_000_000_040, 10)]})
    page.evaluate(PUT_COPY, {"name": "far", "document": far, "revision": 1, "dirty": True})

    touch = reopen(page, server, "far")
    touch.line((100, 300), (300, 300))
    wait_until_saved(touch)

    assert stored(server, "far")["lines"] == SERVER_LINES + [line(100, 300, 300, 300)]
    assert "Download the copy" in page.inner_text("#banner")


# Storage that refuses every write, as a full disk or an exhausted quota does.
FULL_STORAGE = """
window.__storageFull = false;
const refuse = () => { throw new DOMException('The quota has been exceeded.', 'QuotaExceededError'); };
for (const method of ['put', 'add']) {
  const original = IDBObjectStore.prototype[method];
  IDBObjectStore.prototype[method] = function (...args) {
    if (window.__storageFull) refuse();
    return original.apply(this, args);
  };
}
const setItem = Storage.prototype.setItem;
Storage.prototype.setItem = function (...args) {
  if (window.__storageFull) refuse();
  return setItem.apply(this, args);
};
"""


def test_offline_with_full_storage_the_page_never_says_saved(browser, server):
    context = browser.new_context(viewport={"width": 800, "height": 600}, has_touch=True, bypass_csp=True)
    context.add_init_script(FULL_STORAGE)
    page = context.new_page()
    page.goto(f"{server.url}/?drawing=full")
    page.evaluate("touchtracker.ready")
    touch = Touchscreen(page)
    touch.line((100, 100), (300, 100))
    wait_until_saved(touch)

    server.stop()
    page.evaluate("window.__storageFull = true")
    touch.line((100, 300), (300, 300))
    touch.wait_for("touchtracker.saving().offline && touchtracker.saving().local === 'failed'")

    banner = page.inner_text("#banner")
    assert "NOT saved" in banner and "saved in this browser" not in banner
    assert "Download" in banner
    context.close()


def test_clean_copies_of_drawings_left_behind_are_removed(browser, server):
    page, touch = open_drawing(browser, server, "first")
    touch.line((100, 100), (300, 100))
    wait_until_saved(touch)
    page.wait_for_function("touchtracker.localCopy('first').then((copy) => copy && !copy.dirty)")

    seeded_server(server, "second")
    page.goto(f"{server.url}/?drawing=second")
    page.evaluate("touchtracker.ready")

    page.wait_for_function("touchtracker.localCopy('first').then((copy) => copy === null)")
    assert stored(server, "first")["lines"] == [line(100, 100, 300, 100)]
    assert page.evaluate("touchtracker.localCopy('second').then((copy) => copy !== null)"), "the open drawing's stays"


def test_a_clean_copy_is_not_read_whole_when_the_server_answers(browser, server):
    # A clean copy is the server's drawing at some revision: when the server answers, only whether
    # this browser has something unsaved counts. Making the copy's document (its text read, its
    # change entries applied: a JSON parse of all of it) was ~0.2 s of the page's thread at 100k lines.
    lines = [line(10 + i % 700, 40 + i // 700 * 10, 20 + i % 700, 45 + i // 700 * 10) for i in range(3000)]
    status, _, _ = request(server, "PUT", "/api/drawings/clean", {**EMPTY, "lines": lines})
    assert status == 200
    page = open_page(browser, f"{server.url}/?drawing=clean&live=off")
    touch = Touchscreen(page)
    try:
        touch.line((100, 500), (300, 520))
        wait_until_saved(touch)
        touch.wait_for("touchtracker.saving().local === 'saved'")
        copy = page.evaluate("touchtracker.localCopy('clean')")
        assert copy["dirty"] is False and copy["entryCount"] >= 1, "a clean copy with journal entries"
        length = len(copy["document"])

        page.context.add_init_script(
            """(() => {
              const parse = JSON.parse;
              window.longestParsed = 0;
              JSON.parse = function (text, ...rest) {
                window.longestParsed = Math.max(window.longestParsed, String(text).length);
                return parse.call(this, text, ...rest);
              };
            })();"""
        )
        page.reload()
        page.evaluate("touchtracker.ready")
        assert page.evaluate("touchtracker.state().lines") == 3001
        assert page.evaluate("longestParsed") < length // 10, "the copy's document was not made"
        assert page.errors == []
    finally:
        page.context.close()


def test_a_copy_written_anew_over_a_journal_keeps_its_new_entries(browser, server):
    # Writing the copy anew (a drawing read again, a long journal) replaces the old entries with the
    # new ones in one transaction; the new ones are this person's unsent changes and must survive it.
    page = open_page(browser, f"{server.url}/?drawing=anew&live=off")
    try:
        entries = page.evaluate(
            """async () => {
              const { localCopies } = await import('/sync/local-copy.js');
              const { EMPTY_DOCUMENT } = await import('/server/api.js');
              await localCopies.put('anew', EMPTY_DOCUMENT, 1, ['{"own":[]}', '{"batch":"k-1","count":0}'], 0);
              await localCopies.put('anew', EMPTY_DOCUMENT, 2, ['{"own":[]}', '{"batch":"k-2","count":0}'], 0);
              return (await localCopies.get('anew')).entries;
            }"""
        )
        assert entries == ['{"own":[]}', '{"batch":"k-2","count":0}']
    finally:
        page.context.close()
