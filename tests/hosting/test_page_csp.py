"""The real page in a real Chromium under the server's Content-Security-Policy: it boots and
plays with no ``securitypolicyviolation`` at all, a script injected into it is refused, and no
other page can frame it."""

from __future__ import annotations

import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import TYPE_CHECKING, Any

import pytest
from playwright.sync_api import expect

from device.page_helpers import eventually
from edge_helpers import EdgeServers
from magdagdon.engine import Difficulty, GameState, action_to_json
from plans import plain_turn
from waits import EVENTUALLY_MS

if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path

    from playwright.sync_api import Browser, Page

    from server_process import ServerProcess

pytestmark = pytest.mark.browser

# recorded from the first byte of every document, before any of the page's own scripts
RECORD_VIOLATIONS = """
window.cspViolations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  window.cspViolations.push({
    directive: event.violatedDirective, blocked: event.blockedURI, sample: event.sample,
  });
});
"""


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerProcess]:
    with EdgeServers(tmp_path) as servers:
        yield servers.start()


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    context = browser.new_context()
    opened = context.new_page()
    opened.add_init_script(RECORD_VIOLATIONS)
    yield opened
    context.close()


def violations(page: Page) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = page.evaluate("window.cspViolations")
    return found


def test_the_page_boots_and_plays_with_no_violation(page: Page, server: ServerProcess) -> None:
    response = page.goto(f"{server.url}/")
    assert response is not None
    assert "frame-ancestors 'none'" in response.headers["content-security-policy"]
    expect(page.locator('[data-cell="0-0"]')).to_be_visible()
    expect(page.locator('[data-action="hint"]')).to_be_visible()
    # every module ran and the game is drawn, its taps listened to (before the ready mark a tap
    # on the page's bare markup does nothing)
    page.wait_for_selector("body[data-ready]")
    # the boot script (js/core/boot.js, async, no inline script) ran (polled from here:
    # wait_for_function would need 'unsafe-eval')
    assert eventually(lambda: page.evaluate("typeof window.magdagdonBoot") == "object")
    page.locator('[data-action="roll"]').click()
    expect(page.locator(".tray [data-die]").first).to_be_visible()
    page.locator('[data-action="hint"]').click()
    expect(page.locator(".hinted").first).to_be_visible()
    # each sheet, and what the ones loaded when opened (more.js) draw with their own modules
    drawn = {"daily": ".daily-cards", "stats": "[data-stats]", "settings": "#player-name"}
    for screen in ("rules", "highscores", "daily", "stats", "settings", "about"):
        page.locator(f'.menu [data-action="{screen}"]').click()
        expect(page.locator("#sheet")).to_be_visible()
        if screen in drawn:
            expect(page.locator(f"#sheet {drawn[screen]}")).to_be_visible()
        page.locator('[data-action="close"]').click()
    assert violations(page) == []


def played(page: Page, url: str, sent: dict[str, Any]) -> dict[str, Any]:
    """The answer to an action, sent again as the page does when the server says it is busy
    (a 503 or 429 changes nothing and says when to come back): a loaded machine's server may."""
    for _ in range(20):
        answer = page.request.post(url, data=sent)
        if answer.status not in (429, 503):
            assert answer.ok, (answer.status, answer.text())
            found: dict[str, Any] = answer.json()
            return found
        time.sleep(float(answer.headers.get("retry-after", "1")))
    raise AssertionError(f"the server stayed busy: {answer.status} {answer.text()}")


def test_the_review_loads_and_steps_with_no_violation(page: Page, server: ServerProcess) -> None:
    """The review's modules and style sheet, loaded when opened (import()), and its chart, an
    inline SVG made with the DOM's own calls, need nothing the policy refuses."""
    page.goto(f"{server.url}/")
    expect(page.locator('[data-cell="0-0"]')).to_be_visible()
    # the page has its player (its cookie) before the test makes a game with that cookie
    page.wait_for_selector("body[data-ready]", state="attached")
    game = page.request.post(f"{server.url}/api/games", data={"difficulty": "nightmare", "seed": 5})
    state, version = GameState.new(Difficulty.NIGHTMARE, 5), game.json()["version"]
    while not state.is_over:  # a whole game through the API, with the page's own cookie
        for action in plain_turn(state):
            sent = {**action_to_json(action), "version": version}
            answer = played(page, f"{server.url}/api/games/{game.json()['id']}/actions", sent)
            version, state = answer["version"], state.apply(action)
    page.locator('.menu [data-action="highscores"]').click()
    page.locator('#sheet [data-action="review"]').first.click()
    expect(page.locator('#review[data-status="done"]')).to_be_visible(timeout=EVENTUALLY_MS)
    expect(page.locator("#review [data-review-chart] polyline")).to_be_attached()
    page.locator('#review [data-review="next"]').click()
    expect(page.locator('#review[data-step="1"]')).to_be_visible()
    assert violations(page) == []


def test_an_injected_script_is_refused_and_reported(page: Page, server: ServerProcess) -> None:
    page.goto(f"{server.url}/")
    expect(page.locator('[data-cell="0-0"]')).to_be_visible()
    # (waited for through the console: wait_for_function would need 'unsafe-eval' itself)
    with page.expect_console_message(lambda m: "Content Security Policy" in m.text):
        page.evaluate(
            """() => {
              const script = document.createElement("script");
              script.textContent = "window.injected = true";
              document.head.append(script);
            }"""
        )
    assert page.evaluate("window.injected") is None
    assert [v["directive"] for v in violations(page)] == ["script-src-elem"]


@pytest.fixture
def other_site(server: ServerProcess) -> Iterator[str]:
    """Another origin on this machine (another port): a page that frames the game."""
    page = f'<!doctype html><iframe src="{server.url}/" width="400" height="400"></iframe>'.encode()

    class Framing(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            self.send_response(200)
            self.send_header("content-type", "text/html")
            self.send_header("content-length", str(len(page)))
            self.end_headers()
            self.wfile.write(page)

        def log_message(self, format: str, *args: object) -> None:
            pass

    site = ThreadingHTTPServer(("127.0.0.1", 0), Framing)
    thread = threading.Thread(target=site.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{site.server_address[1]}/"
    site.shutdown()
    site.server_close()


def test_no_other_page_can_frame_the_game(
    page: Page, server: ServerProcess, other_site: str
) -> None:
    refused = lambda m: "frame-ancestors 'none'" in m.text  # noqa: E731
    with page.expect_console_message(refused, timeout=EVENTUALLY_MS):
        page.goto(other_site)
    frame = page.frames[1]
    frame.wait_for_load_state()
    assert frame.url != f"{server.url}/"
    assert frame.locator("[data-cell]").count() == 0
