"""Several servers on one PostgreSQL database (issue 13): a page on each of
two `touchtracker serve` processes sharing one database draws on the same
drawing, and each sees the other's finished lines live, in the same order,
ending with the same document on both servers; and when one of them is
killed (SIGKILL) while a writer saves through it, nothing it acknowledged is
lost and its page moves to the other server behind the same address.

Needs TOUCHTRACKER_TEST_POSTGRES_URL (Scripts/test.sh starts a throwaway
server with Scripts/postgres.sh and sets it); skipped, saying so, without it."""

import http.client
import json
import os
import subprocess
import threading
import time
import types
import uuid

import pytest

from conftest import ROOT, Server
from proxy import Proxy
from test_live import DESKTOP, PHONE, converged, open_live
from test_saving import line, stored
from touchscreen import without_ids

pytestmark = pytest.mark.server


@pytest.fixture
def two_servers(tmp_path, wasm):
    url = os.environ.get("TOUCHTRACKER_TEST_POSTGRES_URL")
    if not url:
        pytest.skip("TOUCHTRACKER_TEST_POSTGRES_URL is not set: two servers need PostgreSQL (Scripts/test.sh starts one)")
    binary = ROOT / os.environ.get("TOUCHTRACKER_BIN", ".build/debug/touchtracker")
    if not binary.exists():
        pytest.skip(f"no touchtracker binary at {binary} (set TOUCHTRACKER_BIN)")
    name = f"tt_e2e_{uuid.uuid4().hex}"
    subprocess.run(["psql", url, "-qc", f"CREATE DATABASE {name}"], check=True)
    database = url.rsplit("/", 1)[0] + "/" + name
    # A busy machine's allowance for each of the database's answers (the default, 2 s, is what an outage is).
    servers = [Server(binary, database, arguments=["--database-timeout", "30"], log=tmp_path / f"server{index}.log")
               for index in range(2)]
    try:
        for server in servers:
            server.start()
        yield servers
    finally:
        for server in servers:
            server.stop()
        subprocess.run(["psql", url, "-qc", f"DROP DATABASE IF EXISTS {name} WITH (FORCE)"], check=False)


def test_a_page_on_each_of_two_servers_sees_the_others_lines_live(browser, two_servers):
    first, second = two_servers
    phone, phone_touch = open_live(browser, first, "shared", PHONE)
    desk, desk_touch = open_live(browser, second, "shared", DESKTOP)

    phone_touch.line((60, 200), (300, 260))
    desk_touch.wait_for("touchtracker.document().lines.length === 1")
    assert desk_touch.document()["lines"] == [line(60, 200, 300, 260)]

    desk_touch.line((500, 500), (900, 520))
    phone_touch.line((80, 400), (200, 420))
    phone_touch.wait_for("touchtracker.document().lines.length === 3")
    desk_touch.wait_for("touchtracker.document().lines.length === 3")
    converged(phone_touch)
    converged(desk_touch)

    on_first = stored(first, "shared", ids=True)
    assert on_first == stored(second, "shared", ids=True), "both servers read one database"
    assert phone_touch.document(ids=True) == on_first
    assert desk_touch.document(ids=True) == on_first
    phone.screenshot(path=str(ROOT / ".build/e2e-two-servers-phone.png"))
    desk.screenshot(path=str(ROOT / ".build/e2e-two-servers-desktop.png"))
    assert phone.errors == [] and desk.errors == []
    phone.context.close()
    desk.context.close()


def test_a_line_in_progress_on_one_server_is_seen_on_the_other(browser, two_servers):
    first, second = two_servers
    phone, phone_touch = open_live(browser, first, "drawing", PHONE)
    desk, desk_touch = open_live(browser, second, "drawing", DESKTOP)
    mine = phone.evaluate("touchtracker.live().client")

    phone_touch.drag("a", (60, 200), (300, 260))
    phone_touch.settle()
    desk_touch.wait_for(f"touchtracker.live().presence['{mine}'] === 1")
    assert desk_touch.document()["lines"] == [], "in progress: not in the drawing yet"
    desk.screenshot(path=str(ROOT / ".build/e2e-two-servers-presence.png"))

    phone_touch.up("a")
    phone_touch.settle()
    desk_touch.wait_for("touchtracker.document().lines.length === 1")
    desk_touch.wait_for("Object.keys(touchtracker.live().presence).length === 0")

    # A page that goes away mid-line: the other server's page is told it left.
    phone_touch.drag("b", (80, 400), (200, 420))
    phone_touch.settle()
    desk_touch.wait_for(f"touchtracker.live().presence['{mine}'] === 1")
    phone.context.close()
    desk_touch.wait_for("Object.keys(touchtracker.live().presence).length === 0")
    assert desk.errors == []
    desk.context.close()


class Writer(threading.Thread):
    """Saves one line after another into `name` through `address`, as a client
    saves: `POST .../changes` with an Idempotency-Key, and after a failure (no
    answer, a cut connection, a 5xx) the same request again with the same key
    until it is answered. `acknowledged`: the ids of the lines answered 200."""

    FIRST_ID = 7_000_000_000

    def __init__(self, port, name, limit=400, within=90):
        super().__init__(daemon=True)
        self.port, self.name, self.limit, self.deadline = port, name, limit, time.monotonic() + within
        self.acknowledged = []
        self.failures = 0
        self.stopping = threading.Event()

    def run(self):
        connection = None
        index = 0
        while index < self.limit and not self.stopping.is_set() and time.monotonic() < self.deadline:
            identifier = self.FIRST_ID + index
            change = {"op": "add", "lines": [{"id": identifier, **line(10 + index % 50, 30, 40, 60 + index % 40)}]}
            try:
                connection = connection or http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
                connection.request(
                    "POST", f"/api/drawings/{self.name}/changes", json.dumps({"changes": [change]}),
                    {"Content-Type": "application/json", "Idempotency-Key": f"writer-{index}"},
                )
                response = connection.getresponse()
                response.read()
                status = response.status
            except (OSError, http.client.HTTPException):
                status = None
            if status == 200:
                self.acknowledged.append(identifier)
                index += 1
                continue
            assert status is None or status >= 500, f"the writer's save {index} was refused with {status}"
            self.failures += 1
            if connection:
                connection.close()
            connection = None
            time.sleep(0.05)
        if connection:
            connection.close()

    def wait_for(self, count, within=60):
        deadline = time.monotonic() + within
        while len(self.acknowledged) < count:
            assert self.is_alive() and time.monotonic() < deadline, (
                f"the writer had {len(self.acknowledged)} of {count} saves acknowledged ({self.failures} failures)"
            )
            time.sleep(0.02)


def test_a_server_killed_under_load_loses_nothing_acknowledged_and_its_page_moves_to_the_other(
    browser, two_servers
):
    first, second = two_servers
    proxy = Proxy(first.port)
    behind_proxy = types.SimpleNamespace(url=proxy.url)
    try:
        phone, phone_touch = open_live(browser, behind_proxy, "failover", PHONE)
        desk, desk_touch = open_live(browser, second, "failover", DESKTOP)
        phone_touch.line((60, 200), (300, 260))
        desk_touch.wait_for("touchtracker.document().lines.length === 1")

        writer = Writer(proxy.port, "failover")
        writer.start()
        writer.wait_for(30)
        first.process.kill()  # SIGKILL: no shutdown, no flush
        first.process.wait()
        killed_at = len(writer.acknowledged)
        proxy.point_at(second.port)

        # The page on the killed server reconnects to the same address, now the other server, and draws on.
        phone_touch.wait_for("touchtracker.live().status === 'live'", timeout=30_000)
        phone_touch.line((80, 400), (200, 420))
        writer.wait_for(killed_at + 30)
        writer.stopping.set()
        writer.join(30)
        assert writer.failures > 0, "the kill should have cut at least one of the writer's saves"

        total = 1 + len(writer.acknowledged) + 1
        for touch in (phone_touch, desk_touch):
            touch.wait_for(f"touchtracker.document().lines.length === {total}", timeout=30_000)
            converged(touch)
        document = stored(second, "failover", ids=True)
        ids = [shape["id"] for shape in document["lines"]]
        assert set(writer.acknowledged) <= set(ids), "an acknowledged save was lost"
        assert len(ids) == len(set(ids)) == total, "a save retried with its key was stored once"
        assert phone_touch.document(ids=True) == document
        assert desk_touch.document(ids=True) == document
        assert without_ids(document)["lines"][0] == line(60, 200, 300, 260)
        assert line(80, 400, 200, 420) in without_ids(document)["lines"]
        phone.screenshot(path=str(ROOT / ".build/e2e-failover-phone.png"))
        assert phone.errors == [] and desk.errors == []
        phone.context.close()
        desk.context.close()
    finally:
        proxy.close()
