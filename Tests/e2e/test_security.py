"""The page runs under the server's Content-Security-Policy: the module
compiles ('wasm-unsafe-eval'), the drawing loads and saves, and the browser
reports no violation."""

import pytest

from conftest import VIEWPORT

pytestmark = pytest.mark.server

RECORD_VIOLATIONS = """
window.cspViolations = [];
document.addEventListener('securitypolicyviolation',
  (event) => window.cspViolations.push(event.violatedDirective + ' ' + event.blockedURI));
"""


def test_the_page_runs_under_its_content_security_policy(browser, server):
    context = browser.new_context(viewport=VIEWPORT, has_touch=True)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.add_init_script(RECORD_VIOLATIONS)
    response = page.goto(f"{server.url}/?drawing=csp")
    assert "frame-ancestors 'none'" in response.headers["content-security-policy"]
    page.evaluate("window.touchtracker.ready")
    assert page.evaluate("window.cspViolations") == []
    assert errors == []
    context.close()
