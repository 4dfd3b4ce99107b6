"""A first visit downloads each of the page's files once: the service worker
keeps what the page itself just fetched (it revalidates its copies, 304),
instead of fetching every file again, the wasm included."""

import time

import pytest

pytestmark = pytest.mark.server


# Whether the worker's cache holds the wasm, under the name index.html gives it (in the page's version folder).
WASM_KEPT = """caches.keys().then(async (keys) => {
  if (keys.length === 0) return false;
  const kept = await (await caches.open(keys[0])).keys();
  return kept.some((request) => request.url.endsWith('/touchtracker.wasm'));
})"""


def test_a_first_visit_downloads_each_file_once(browser, server):
    context = browser.new_context(viewport={"width": 800, "height": 600})
    received = {}  # url -> the body sizes received over the network, page and service worker together

    def finished(request):
        if "/api/" not in request.url:
            received.setdefault(request.url, []).append(request.sizes()["responseBodySize"])

    context.on("requestfinished", finished)
    page = context.new_page()
    page.goto(server.url + "/")
    page.evaluate("window.touchtracker.ready")
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    # The worker's install has cached every page file once `caches` holds the wasm.
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if page.evaluate(WASM_KEPT):
            break
        time.sleep(0.2)
    page.wait_for_load_state("networkidle")
    context.close()
    wasm = [url for url in received if url.endswith("/touchtracker.wasm")]
    assert wasm and len(received) > 30, received
    assert all("/assets/" in url for url in wasm), f"the wasm by its plain name: {wasm}"
    again = {url: sizes for url, sizes in received.items() if len([size for size in sizes if size > 0]) > 1}
    assert again == {}, f"{len(again)} files came more than once: {again}"
