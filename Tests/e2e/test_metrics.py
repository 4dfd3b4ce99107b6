"""`/metrics` as Prometheus scrapes it: parsed with the Prometheus client's
own text parser, its counters move with the traffic a page and the API
make, its gauges count the live sockets, and with access control only the
admin token opens it."""

import json
import urllib.error
import urllib.request

import pytest
from prometheus_client.parser import text_string_to_metric_families

from conftest import Server, open_page

pytestmark = pytest.mark.server


def scrape(url, token=None):
    request = urllib.request.Request(url + "/metrics")
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    with urllib.request.urlopen(request, timeout=10) as response:
        assert response.headers["Content-Type"].startswith("text/plain; version=0.0.4")
        text = response.read().decode()
    samples = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            samples[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return samples


def value(samples, name, **labels):
    return samples.get((name, tuple(sorted(labels.items()))), 0)


def post_line(url, drawing, line_id):
    body = {"changes": [{"op": "add", "lines": [{"id": line_id, "begin": {"x": 10, "y": 10}, "end": {"x": 90, "y": 90},
                                                   "color": "#000000", "width": 10}]}]}
    request = urllib.request.Request(f"{url}/api/drawings/{drawing}/changes", data=json.dumps(body).encode(),
                                     method="POST", headers={"Content-Type": "application/json"})
    urllib.request.urlopen(request, timeout=10).close()


def test_counters_move_with_traffic_and_gauges_count_live_sockets(browser, server):
    before = scrape(server.url)
    with urllib.request.urlopen(server.url + "/healthz", timeout=10) as response:
        version = json.load(response)["version"]
    assert value(before, "touchtracker_build_info", version=version) == 1
    for line_id in (1, 2, 3):
        post_line(server.url, "metrics", line_id)
    after = scrape(server.url)
    route = "/api/drawings/{name}/changes"
    posts = ("touchtracker_http_requests_total", dict(route=route, method="POST", status="200"))
    assert value(after, posts[0], **posts[1]) - value(before, posts[0], **posts[1]) == 3
    assert value(after, "touchtracker_store_calls_total", operation="appendBatches", outcome="ok") >= 3
    assert value(after, "touchtracker_http_request_duration_seconds_count", route=route) >= 3
    assert value(after, "touchtracker_live_clients") == 0

    page = open_page(browser, server.url + "/?drawing=metrics")
    page.wait_for_function("touchtracker.live().status === 'live'", timeout=30_000)
    watching = scrape(server.url)
    assert value(watching, "touchtracker_live_clients") == 1
    assert value(watching, "touchtracker_live_rooms") == 1
    assert value(watching, "touchtracker_http_requests_total", route="page", method="GET", status="200") >= 1
    page.context.close()


def test_with_access_control_only_the_admin_token_opens_the_metrics(tmp_path, server):
    guarded = Server(server.binary, tmp_path / "guarded.sqlite", arguments=["--access-control"])
    guarded.start()
    try:
        with pytest.raises(urllib.error.HTTPError) as refused:
            scrape(guarded.url)
        assert refused.value.code == 403
        with pytest.raises(urllib.error.HTTPError) as wrong:
            scrape(guarded.url, token="x" * 32)
        assert wrong.value.code == 403
        assert value(scrape(guarded.url, guarded.admin_token), "touchtracker_live_rooms") == 0
    finally:
        guarded.stop()
