"""Pages for the sync tests (test_sync_merge.py, test_sync_reloads.py): each in
a browser of its own, every banner it shows logged (`BANNER_LOG`, kept in the
page's localStorage so that a reload keeps it) and checked for the conflict's
words, and waits that say what each page holds when they fail."""

import time

from playwright.sync_api import TimeoutError as PlaywrightTimeout

from conftest import VIEWPORT
from test_saving import request
from touchscreen import Touchscreen, without_ids

DESKTOP = {"viewport": VIEWPORT}
EMPTY = {"format": "touchtracker", "version": 1, "lines": [], "circles": []}
CONFLICT_WORDS = ("changed somewhere else", "Save mine as a copy", "Discard mine")

# Notes every text the banner shows (its sentence and its buttons) with the page's clock, in
# localStorage: the log outlives a reload. Installed before the page's own scripts run.
BANNER_LOG = """
(() => {
  if (location.protocol === 'about:') return; // a page left for about:blank has no storage
  const KEY = 'touchtracker.test.banners';
  let last = null;
  const note = () => {
    const banner = document.getElementById('banner');
    if (!banner || banner.hidden) { last = null; return; }
    const parts = [banner.querySelector('#banner-text'), ...banner.querySelectorAll('button')];
    const text = parts.map((part) => (part?.textContent ?? '').replace(/\\s+/g, ' ').trim()).join(' | ');
    if (text === last) return;
    last = text;
    const log = JSON.parse(localStorage.getItem(KEY) || '[]');
    log.push({ at: Date.now(), text });
    localStorage.setItem(KEY, JSON.stringify(log));
  };
  const watched = { subtree: true, childList: true, characterData: true, attributes: true };
  new MutationObserver(note).observe(document, watched);
})();
"""

# This page's changes the server has not acknowledged: `pending` once the page says it, else 1 while dirty.
WAITING = "((s) => (s.pending !== undefined ? s.pending : (s.dirty ? 1 : 0)))(touchtracker.saving())"
SAVED = f"(() => {{ const s = touchtracker.saving(); return {WAITING} === 0 && !s.offline && !s.stopped; }})()"


# MARK: Pages


def open_on(browser, url, device):
    """A page of its own browser (its own IndexedDB) on `url`, its first-run hint read, its banners logged."""
    context = browser.new_context(has_touch=True, bypass_csp=True, **device)
    context.add_init_script("if (location.protocol !== 'about:') localStorage.setItem('touchtracker.helpSeen', '1')")
    context.add_init_script(BANNER_LOG)
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda error: page.errors.append(str(error)))
    page.sent = []  # the text of every frame the page sent on a WebSocket
    page.on("websocket", lambda socket: socket.on("framesent", lambda payload: page.sent.append(payload)))
    page.goto(url)
    page.evaluate("touchtracker.ready")
    return page, Touchscreen(page)


def banners(page):
    """Every banner text the page showed, oldest first, as [{at, text}]."""
    return page.evaluate("JSON.parse(localStorage.getItem('touchtracker.test.banners') || '[]')")


def banner_now(page):
    """What the banner says now (its sentence, then its buttons, between bars), or "" when hidden."""
    return page.evaluate(
        """() => {
          const banner = document.getElementById('banner');
          if (banner.hidden) return '';
          const parts = [banner.querySelector('#banner-text'), ...banner.querySelectorAll('button')];
          return parts.map((part) => (part?.textContent ?? '').replace(/\\s+/g, ' ').trim()).join(' | ');
        }"""
    )


def conflicts(page):
    """The conflict banners the page showed so far (texts)."""
    return [entry["text"] for entry in banners(page) if any(words in entry["text"] for words in CONFLICT_WORDS)]


def assert_never_asked(page, who="the page"):
    """No conflict banner now, and none at any time the page was watched."""
    now = banner_now(page)
    assert not any(words in now for words in CONFLICT_WORDS), f"{who} shows the conflict banner: {now!r}"
    asked = conflicts(page)
    shown = [entry["text"] for entry in banners(page)]
    assert asked == [], f"{who} showed the conflict banner: {asked!r} (every banner it showed: {shown!r})"


def saving(page):
    return page.evaluate("touchtracker.saving()")


def describe(page):
    """What a failure message says of a page: its saving state, its connection, its banner, its lines."""
    return (
        f"saving {saving(page)}, live {page.evaluate('touchtracker.live().status')!r}, "
        f"banner {banner_now(page)!r}, lines {without_ids(page.evaluate('touchtracker.document()'))['lines']}"
    )


def wait_for(touch, expression, what, timeout=30_000):
    """`expression` true on the page within `timeout` ms, else a failure saying what was expected and what is."""
    try:
        touch.wait_for(expression, timeout=timeout)
    except PlaywrightTimeout:
        raise AssertionError(f"{what}: not within {timeout / 1000:g} s; the page: {describe(touch.page)}") from None


def wait_until_saved(touch, what="the line was saved", timeout=15_000):
    wait_for(touch, SAVED, what, timeout)


def kept_in_this_browser(touch, what):
    """The page's copy in IndexedDB holds every change (what a reload or a closed tab keeps)."""
    kept = "touchtracker.saving().local === undefined || touchtracker.saving().local === 'saved'"
    wait_for(touch, kept, what, 15_000)


def cut_off(page):
    """The network goes away: the browser says it is offline, and the live socket is cut as a lost
    network cuts it (Chromium's offline emulation leaves an open WebSocket open)."""
    page.context.set_offline(True)
    page.evaluate("touchtracker.liveSocketForTests?.()?.close()")
    wait_for(Touchscreen(page), "touchtracker.live().status !== 'live'", "the live socket closed", 10_000)


def converge(pages, read_server, count, within=30, names=None):
    """Every page and the server hold the same drawing (ids included) of `count` lines, every page
    with nothing left to send, within `within` seconds; the drawing, else a failure saying what each
    holds. A page that shows the conflict banner fails it at once (it would wait for an answer for ever)."""
    names = names or [f"page {index + 1}" for index in range(len(pages))]
    deadline = time.monotonic() + within
    while True:
        theirs = read_server()
        documents = [page.evaluate("touchtracker.document()") for page in pages]
        states = [page.evaluate(SAVED) for page in pages]
        if theirs and len(theirs["lines"]) == count and all(d == theirs for d in documents) and all(states):
            return theirs
        asked = [name for name, page in zip(names, pages) if conflicts(page)]
        if asked or time.monotonic() > deadline:
            lines = lambda document: None if document is None else without_ids(document)["lines"]
            report = "\n".join(f"  {name}: {describe(page)}" for name, page in zip(names, pages))
            problem = f"{' and '.join(asked)} showed the conflict banner" if asked else f"not within {within} s"
            raise AssertionError(
                f"expected every page and the server to hold the same {count} lines, and nobody asked; {problem}; "
                f"the server holds {lines(theirs)}\n{report}"
            )
        time.sleep(0.1)


def server_holds(read, lines, what, within=30):
    """The server's document (`read()`, shapes without ids) holds each of `lines` within `within` seconds."""
    deadline = time.monotonic() + within
    while True:
        theirs = read()
        if theirs and all(shape in theirs["lines"] for shape in lines):
            return theirs
        assert time.monotonic() < deadline, f"the server should hold {what} within {within} s; it holds {theirs}"
        time.sleep(0.1)


def read_until_folded(server, name, since, headers=None, within=5):
    """Reads drawing `name` (a read folds the server's log into its snapshot) until its log no longer
    reaches back to revision `since` (`GET .../changes?since=` answers 410), so that a page coming
    back from `since` is answered `reset`. Gives up quietly after `within` seconds (or with no
    revision to go by): a server that keeps its log longer sends the page its backlog instead,
    which it must merge as well. The server keeps the last 1,024 changes a read folds (so a page a
    few revisions behind is not reset), so with fewer changes than that it is the backlog."""
    if not isinstance(since, int):
        return False
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        request(server, "GET", f"/api/drawings/{name}", headers=headers)
        status, _, _ = request(server, "GET", f"/api/drawings/{name}/changes?since={since}", headers=headers)
        if status == 410:
            return True
        time.sleep(0.05)
    return False


def close(*pages):
    for page in pages:
        assert page.errors == [], page.errors
        page.context.close()
