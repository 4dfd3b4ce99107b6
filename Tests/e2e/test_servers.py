"""Several servers on one PostgreSQL database (issue 13): a page on each of
two `touchtracker serve` processes sharing one database draws on the same
drawing, and each sees the other's finished lines live, in the same order,
ending with the same document on both servers.

Needs TOUCHTRACKER_TEST_POSTGRES_URL (Scripts/test.sh starts a throwaway
server with Scripts/postgres.sh and sets it); skipped, saying so, without it."""

import os
import subprocess
import uuid

import pytest

from conftest import ROOT, Server
from test_live import DESKTOP, PHONE, converged, open_live
from test_saving import line, stored

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
    servers = [Server(binary, database, log=tmp_path / f"server{index}.log") for index in range(2)]
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
