"""Browser tests of the page (Web/) with Debian's Chromium, headless.

Nothing is built here. The tests expect:
- Web/touchtracker.wasm (Scripts/build-wasm.sh),
- for the tests marked `server`: the `touchtracker` binary at
  $TOUCHTRACKER_BIN (default .build/debug/touchtracker), started here as
  `touchtracker serve --port PORT --database TMP`.
Tests not marked `server` serve Web/ from a small static server, with no API:
they check drawing, touches and pixels.

    python3 -m pytest Tests/e2e            # everything
    python3 -m pytest Tests/e2e -m 'not server'
"""

import functools
import http.server
import os
import pathlib
import re
import socket
import subprocess
import threading
import time
import urllib.error
import urllib.request

import pytest
from playwright.sync_api import sync_playwright

from touchscreen import Touchscreen

ROOT = pathlib.Path(__file__).resolve().parents[2]
WEB = ROOT / "Web"
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
VIEWPORT = {"width": 800, "height": 600}
PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 3, "is_mobile": True}


def pytest_configure(config):
    config.addinivalue_line("markers", "server: needs the touchtracker server (TOUCHTRACKER_BIN)")


def free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture(scope="session")
def wasm():
    path = WEB / "touchtracker.wasm"
    if not path.exists():
        pytest.fail(f"{path} is missing: run Scripts/build-wasm.sh first")
    return path


@pytest.fixture(scope="session")
def browser(wasm):
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox"])
        yield browser
        browser.close()


class StaticHandler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, ".wasm": "application/wasm"}

    def log_message(self, *args):
        pass


class QuietServer(http.server.ThreadingHTTPServer):
    def handle_error(self, request, client_address):
        pass  # a page closed while its save was on the way


@pytest.fixture(scope="session")
def static_url(wasm):
    """Web/ over HTTP without the API: loads answer 404 (a new drawing), saves fail."""
    server = QuietServer(("127.0.0.1", 0), functools.partial(StaticHandler, directory=str(WEB)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()


class Server:
    """`touchtracker serve` on a free port with its own database; restartable."""

    def __init__(self, binary, database, arguments=(), log=None):
        """`database`: a SQLite file's path, or a PostgreSQL URL (then `log` names the log file)."""
        self.binary = binary
        self.database = database
        self.arguments = list(arguments)
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.process = None
        self.log = log or database.with_suffix(".log")

    def start(self):
        command = [str(self.binary), "serve", "--port", str(self.port), "--database", str(self.database)]
        command += self.arguments
        # The page's files from a directory instead of those built into the binary (while changing Web/).
        if os.environ.get("TOUCHTRACKER_WEB_ROOT"):
            command += ["--web-root", os.environ["TOUCHTRACKER_WEB_ROOT"]]
        with open(self.log, "ab") as log:
            self.process = subprocess.Popen(
                command,
                cwd=ROOT, stdout=log, stderr=subprocess.STDOUT,
            )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                pytest.fail(f"touchtracker serve exited with {self.process.returncode}:\n{self.log.read_text()}")
            try:
                # /healthz: the list needs the admin token when access control is on.
                with urllib.request.urlopen(self.url + "/healthz", timeout=1):
                    return
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                time.sleep(0.1)
        pytest.fail(f"touchtracker serve did not answer within 30 s:\n{self.log.read_text()}")

    @property
    def admin_token(self):
        """The token of the admin link the server printed last (with --access-control)."""
        tokens = re.findall(r"/\?token=([A-Za-z0-9_-]{32})", self.log.read_text())
        return tokens[-1] if tokens else None

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process = None

    def restart(self):
        self.stop()
        self.start()


def touchtracker_binary():
    """The `touchtracker` binary the tests start: $TOUCHTRACKER_BIN, else .build/debug/touchtracker."""
    binary = pathlib.Path(os.environ.get("TOUCHTRACKER_BIN", ROOT / ".build/debug/touchtracker"))
    return binary if binary.is_absolute() else ROOT / binary


@pytest.fixture
def server(tmp_path, wasm):
    binary = touchtracker_binary()
    if not binary.exists():
        pytest.skip(f"no touchtracker binary at {binary} (set TOUCHTRACKER_BIN)")
    server = Server(binary, tmp_path / "drawings.sqlite")
    server.start()
    yield server
    server.stop()


def open_page(browser, url, hint_read=False, **options):
    # The tests' own probes (`wait_for_function` with a string) are evaluated
    # inside the page, which the server's Content-Security-Policy forbids;
    # test_security.py checks the page itself under the policy.
    options.setdefault("bypass_csp", True)
    options.setdefault("viewport", VIEWPORT)
    context = browser.new_context(has_touch=True, **options)
    if hint_read:
        # The first-run hint sits at the bottom of a phone's screen, where a test may tap.
        context.add_init_script("localStorage.setItem('touchtracker.helpSeen', '1')")
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda error: page.errors.append(str(error)))
    page.goto(url)
    page.evaluate("window.touchtracker.ready")
    return page


@pytest.fixture
def page(browser, static_url):
    page = open_page(browser, static_url + "/")
    yield page
    assert page.errors == []
    page.context.close()


@pytest.fixture
def phone(browser, static_url):
    """The page on a phone-sized touchscreen (390x844 points at 3x), without the API, its first-run hint read."""
    page = open_page(browser, static_url + "/", hint_read=True, **PHONE)
    yield page
    assert page.errors == []
    page.context.close()


@pytest.fixture
def touch(page):
    return Touchscreen(page)
