"""The HTTP API's contract, docs/openapi.yaml, checked against a real
`touchtracker serve`: the document is valid OpenAPI 3.1, the server serves
it as it is in the repository, and schemathesis finds no server error, no
status, content type or body the document does not promise, and no request
the document forbids that the server takes, with access control off and on
(then with the admin token).

CI runs a bounded number of examples per operation; Scripts/fuzz-api.sh
runs the same with more, and the stateful phase, through these variables:

    TOUCHTRACKER_FUZZ_EXAMPLES   examples per operation (default 12)
    TOUCHTRACKER_FUZZ_PHASES     schemathesis phases (default examples,coverage,fuzzing)
    TOUCHTRACKER_FUZZ_SEED       the seed (default 1, so CI is repeatable; "random" for none)
"""

import os
import pathlib
import re
import shutil
import subprocess
import sys
import time
import urllib.request

import pytest
from openapi_spec_validator import validate
from openapi_spec_validator.readers import read_from_filename

from conftest import ROOT, Server

pytestmark = pytest.mark.server

CONTRACT = ROOT / "docs" / "openapi.yaml"
CHECKS = ",".join([
    "not_a_server_error",
    "status_code_conformance",
    "content_type_conformance",
    "response_schema_conformance",
    "negative_data_rejection",
])


def binary():
    path = pathlib.Path(os.environ.get("TOUCHTRACKER_BIN", ROOT / ".build/debug/touchtracker"))
    path = path if path.is_absolute() else ROOT / path
    if not path.exists():
        pytest.skip(f"no touchtracker binary at {path} (set TOUCHTRACKER_BIN)")
    return path


def started(tmp_path, arguments=()):
    server = Server(binary(), tmp_path / "drawings.sqlite", arguments)
    server.start()
    return server


def test_the_contract_is_valid_openapi_3_1():
    document, url = read_from_filename(str(CONTRACT))
    assert document["openapi"].startswith("3.1")
    validate(document, base_uri=url)


def test_the_server_serves_the_contract(tmp_path):
    server = started(tmp_path)
    try:
        with urllib.request.urlopen(server.url + "/api/openapi.yaml", timeout=10) as response:
            assert response.headers["Content-Type"] == "application/yaml"
            assert response.read() == CONTRACT.read_bytes()
    finally:
        server.stop()


def schemathesis(server, tmp_path, headers=()):
    """Runs schemathesis against `server` with the served contract; returns its output."""
    command = shutil.which("schemathesis") or shutil.which("st")
    command = [command] if command else [sys.executable, "-m", "schemathesis.cli"]
    seed = os.environ.get("TOUCHTRACKER_FUZZ_SEED", "1")
    command += [
        "run", server.url + "/api/openapi.yaml",
        "--url", server.url,
        "--checks", CHECKS,
        "--phases", os.environ.get("TOUCHTRACKER_FUZZ_PHASES", "examples,coverage,fuzzing"),
        "--max-examples", os.environ.get("TOUCHTRACKER_FUZZ_EXAMPLES", "12"),
        # One worker: Python 3.11.7's AST validator keeps its recursion depth per interpreter, not per
        # thread, so hypothesis describing filters on two threads at once can fail with "SystemError: AST
        # constructor recursion depth mismatch".
        "--workers", "1",
        # A busy 2-core machine: generous, and not a check (speed is the benchmarks').
        "--request-timeout", "30",
        "--suppress-health-check", "too_slow",
        "--continue-on-failure",
        "--report", "junit", "--report-dir", str(tmp_path / "report"),
    ]
    if seed != "random":
        command += ["--seed", seed]
    for header in headers:
        command += ["--header", header]
    started_at = time.monotonic()
    result = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True, timeout=1800)
    output = result.stdout + result.stderr
    print(output)
    print(f"schemathesis took {time.monotonic() - started_at:.0f} s")
    assert result.returncode == 0, f"schemathesis found problems (exit {result.returncode}):\n{output[-20000:]}"
    return output


def test_schemathesis_finds_nothing_with_access_control_off(tmp_path):
    server = started(tmp_path)
    try:
        output = schemathesis(server, tmp_path)
        assert re.search(r"\b[1-9][0-9]* passed\b", output), output[-3000:]
    finally:
        server.stop()


def test_schemathesis_finds_nothing_with_access_control_on(tmp_path):
    server = started(tmp_path, ["--access-control"])
    try:
        token = server.admin_token
        assert token, server.log.read_text()
        output = schemathesis(server, tmp_path, [f"Authorization: Bearer {token}"])
        assert re.search(r"\b[1-9][0-9]* passed\b", output), output[-3000:]
    finally:
        server.stop()
