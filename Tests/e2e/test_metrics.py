"""`/metrics` as Prometheus scrapes it: parsed with the Prometheus client's
own text parser, its counters move with the traffic a page and the API
make (requests, appends, folds of a log, live messages in and out), its
gauges count the live sockets, with PostgreSQL it shows the pool's use,
and with access control only the admin token opens it."""

import json
import os
import subprocess
import time
import urllib.error
import urllib.request
import uuid

import pytest
from prometheus_client.parser import text_string_to_metric_families

from conftest import ROOT, Server, open_page
from test_live import PHONE, converged, open_live

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


def post_line_again(url, drawing, line_id, key):
    """`post_line` with an idempotency key."""
    body = {"changes": [{"op": "add", "lines": [{"id": line_id, "begin": {"x": 10, "y": 10}, "end": {"x": 90, "y": 90},
                                                   "color": "#000000", "width": 10}]}]}
    request = urllib.request.Request(f"{url}/api/drawings/{drawing}/changes", data=json.dumps(body).encode(),
                                     method="POST", headers={"Content-Type": "application/json", "Idempotency-Key": key})
    urllib.request.urlopen(request, timeout=10).close()


def read_drawing(url, drawing):
    with urllib.request.urlopen(f"{url}/api/drawings/{drawing}", timeout=10) as response:
        return json.load(response)


def scrape_until(url, name, at_least, token=None, **labels):
    """Scrapes until `name{labels}` reaches `at_least` (work the server does
    in the background, such as a fold), failing after 60 s."""
    deadline = time.monotonic() + 60
    while True:
        samples = scrape(url, token)
        if value(samples, name, **labels) >= at_least:
            return samples
        if time.monotonic() > deadline:
            pytest.fail(f"{name}{labels} stayed at {value(samples, name, **labels)}, below {at_least}, for 60 s")
        time.sleep(0.1)


def delta(before, after, name, **labels):
    return value(after, name, **labels) - value(before, name, **labels)


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
    assert value(after, "touchtracker_http_request_duration_seconds_count", route=route, status="200") >= 3
    assert value(after, "touchtracker_live_clients") == 0
    assert delta(before, after, "touchtracker_changes_appended_total") == 3
    assert "touchtracker_postgres_pool_connections_max" not in {name for name, _ in after}

    # The same batch again with its key: a retry, answered and not appended.
    post_line_again(server.url, "metrics", 4, "retried-batch")
    post_line_again(server.url, "metrics", 4, "retried-batch")
    retried = scrape(server.url)
    assert delta(after, retried, "touchtracker_changes_appended_total") == 1
    assert delta(after, retried, "touchtracker_append_replays_total") == 1

    # Reading a drawing whose log holds changes folds it (in the background).
    folds = ("touchtracker_compactions_total", dict(trigger="read", outcome="folded"))
    assert len(read_drawing(server.url, "metrics")["lines"]) == 4
    folded = scrape_until(server.url, folds[0], value(retried, folds[0], **folds[1]) + 1, **folds[1])
    assert delta(retried, folded, "touchtracker_compaction_duration_seconds_count", trigger="read") >= 1
    assert value(folded, "touchtracker_compactions_total", trigger="read", outcome="failed") == 0

    page = open_page(browser, server.url + "/?drawing=metrics")
    page.wait_for_function("touchtracker.live().status === 'live'", timeout=30_000)
    # The page is live once its connection state says so, which can come before the welcome
    # is counted: wait for the count (bounded), then check the rest from the same scrape.
    welcome = ("touchtracker_live_messages_sent_total", dict(type="welcome"))
    watching = scrape_until(server.url, welcome[0], value(folded, welcome[0], **welcome[1]) + 1, **welcome[1])
    assert value(watching, "touchtracker_live_clients") == 1
    assert value(watching, "touchtracker_live_rooms") == 1
    assert value(watching, "touchtracker_http_requests_total", route="page", method="GET", status="200") >= 1
    assert delta(folded, watching, "touchtracker_live_messages_received_total", type="hello") == 1
    assert delta(folded, watching, "touchtracker_live_messages_sent_total", type="welcome") >= 1
    assert delta(folded, watching, "touchtracker_live_frames_sent_total") >= 1

    # A line posted while the page watches goes out to it as `changes`.
    post_line(server.url, "metrics", 5)
    page.wait_for_function("touchtracker.document().lines.length === 5", timeout=30_000)
    told = scrape(server.url)
    assert delta(watching, told, "touchtracker_live_messages_sent_total", type="changes") == 1
    page.context.close()


def test_a_line_drawn_live_counts_as_messages_in_and_out(browser, server):
    """The page sends its line as `changes` on its socket and is sent `ack`."""
    before = scrape(server.url)
    page, touch = open_live(browser, server, "metrics-live", PHONE)
    touch.line((60, 200), (300, 260))
    converged(touch)
    after = scrape(server.url)
    assert delta(before, after, "touchtracker_live_messages_received_total", type="changes") >= 1
    assert delta(before, after, "touchtracker_live_messages_sent_total", type="ack") >= 1
    assert delta(before, after, "touchtracker_changes_appended_total") >= 1
    assert delta(before, after, "touchtracker_live_sockets_refused_total") == 0
    page.context.close()


@pytest.fixture
def postgres_server(tmp_path):
    url = os.environ.get("TOUCHTRACKER_TEST_POSTGRES_URL")
    if not url:
        pytest.skip("TOUCHTRACKER_TEST_POSTGRES_URL is not set: the pool's metrics need PostgreSQL")
    binary = ROOT / os.environ.get("TOUCHTRACKER_BIN", ".build/debug/touchtracker")
    name = f"tt_e2e_{uuid.uuid4().hex}"
    subprocess.run(["psql", url, "-qc", f"CREATE DATABASE {name}"], check=True)
    server = Server(binary, url.rsplit("/", 1)[0] + "/" + name, arguments=["--database-timeout", "30"],
                    log=tmp_path / "postgres-server.log")
    try:
        server.start()
        yield server
    finally:
        server.stop()
        subprocess.run(["psql", url, "-qc", f"DROP DATABASE IF EXISTS {name} WITH (FORCE)"], check=False)


def test_with_postgresql_the_pool_and_folds_are_shown(postgres_server):
    url = postgres_server.url
    before = scrape(url)
    assert value(before, "touchtracker_postgres_pool_connections_max") == 16
    for line_id in (1, 2, 3):
        post_line(url, "pooled", line_id)
    assert len(read_drawing(url, "pooled")["lines"]) == 3
    folds = ("touchtracker_compactions_total", dict(trigger="read", outcome="folded"))
    after = scrape_until(url, folds[0], 1, **folds[1])
    acquired = delta(before, after, "touchtracker_postgres_pool_acquisitions_total", outcome="ok")
    # The appends (a group of appends lingers, so they may share one), the
    # read and the fold's write: a connection each at least.
    assert acquired >= 3
    assert value(after, "touchtracker_postgres_pool_acquisitions_total", outcome="error") == 0
    waits = delta(before, after, "touchtracker_postgres_pool_wait_duration_seconds_count")
    assert waits == acquired
    # Nothing under way: every connection taken was given back.
    assert value(after, "touchtracker_postgres_pool_connections_in_use") == 0
    assert value(after, "touchtracker_postgres_pool_waiting") == 0


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
