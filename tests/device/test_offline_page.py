"""Play on a real phone connection, in a real Chromium under the page's
CSP. With the context offline, a reload shows the page (from the service worker) with the game
as it was and the offline notice; a tap made offline is sent once when the connection is back,
and the server's action log has it once. An answer the connection loses (a proxy that closes
the connection once the server has answered) is asked again by the page: applied once, and
"saving…" shows meanwhile."""

from __future__ import annotations

from contextlib import contextmanager
from typing import TYPE_CHECKING

import pytest

from device.dropping_proxy import DroppingProxy
from device.page_helpers import TIMEOUT_MS, api, body_data, eventually, new_device, open_page
from device.pwa_helpers import wait_controlled
from magdagdon.store import Store
from waits import EVENTUALLY_MS

if TYPE_CHECKING:
    from collections.abc import Iterator

    from playwright.sync_api import Browser, BrowserContext, Page, Request

    from server_process import ServerProcess

pytestmark = pytest.mark.browser
# remembers whether "saving…" was ever shown (it may show for a fraction of a second)
WATCH_SAVING = """() => {
  window.sawSaving = false;
  const saving = document.querySelector('[data-notice="saving"]');
  new MutationObserver(() => { if (!saving.hidden) window.sawSaving = true; })
    .observe(saving, { attributes: true });
}"""


@pytest.fixture
def context(browser: Browser) -> Iterator[BrowserContext]:
    made = new_device(browser)
    yield made
    made.close()


@contextmanager
def failed_request(page: Page, url: str) -> Iterator[None]:
    """Ends once a request of the page to ``url`` failed. A wait on the event itself: Playwright's
    sync API hands events to listeners only while the test calls into it, so a list a listener
    fills never grows while a plain Python loop polls it."""
    with page.expect_event(
        "requestfailed", lambda request: request.url == url, timeout=EVENTUALLY_MS
    ):
        yield


def logged(server: ServerProcess, game_id: str) -> list[str]:
    """The server's action log of the game, as the store has it."""
    with Store(server.db) as store:
        return [type(action).__name__ for action in store.actions(game_id)]


def test_offline_the_page_opens_says_so_and_sends_the_tap_once_when_back(
    context: BrowserContext, live_server: ServerProcess
) -> None:
    page = context.new_page()
    open_page(page, f"{live_server.url}/")
    wait_controlled(page)
    game = api(page, "GET", f"{live_server.url}/api/games/current")
    assert game["phase"] == "roll"
    notice = page.locator('[data-notice="offline"]')
    assert not notice.is_visible()

    context.set_offline(True)
    page.reload()
    page.wait_for_selector("body[data-ready]", timeout=TIMEOUT_MS)
    notice.wait_for(state="visible", timeout=TIMEOUT_MS)
    assert page.locator('[data-cell="0-0"]').is_visible()  # the board, as it was
    assert body_data(page, "version") == str(game["version"])

    actions = f"{live_server.url}/api/games/{game['id']}/actions"
    # tried, found no connection: the browser says it is offline, so the next try waits for it
    with failed_request(page, actions):
        page.locator('[data-action="roll"]').click()  # the tap waits for the connection
    page.locator("[data-offline-pending]").wait_for(timeout=TIMEOUT_MS)
    assert logged(live_server, game["id"]) == []

    sent: list[int] = []

    def finished(request: Request) -> None:
        answer = request.response()
        if request.url == actions and answer is not None:
            sent.append(answer.status)

    page.on("requestfinished", finished)
    context.set_offline(False)
    assert eventually(lambda: body_data(page, "version") == str(game["version"] + 1))
    notice.wait_for(state="hidden", timeout=TIMEOUT_MS)
    assert body_data(page, "phase") == "place"
    page.wait_for_selector("body[data-ready]:not([data-busy])", timeout=TIMEOUT_MS)
    assert sent == [200]  # the tap went once, and nothing after it
    assert logged(live_server, game["id"]) == ["Roll"]


def test_a_lost_answer_is_asked_again_and_applied_once(
    context: BrowserContext, live_server: ServerProcess
) -> None:
    proxy = DroppingProxy(live_server.port)
    try:
        page: Page = context.new_page()
        open_page(page, f"{proxy.url}/")
        game = api(page, "GET", f"{proxy.url}/api/games/current")
        saving = page.locator('[data-notice="saving"]')
        page.evaluate(WATCH_SAVING)
        # every answer is lost for a while: Chromium itself sends a request again when a
        # kept-alive connection closes before the answer, and those are lost too, so the
        # page gets a network error and sends the action again itself
        proxy.lose(1000)
        actions = f"{proxy.url}/api/games/{game['id']}/actions"
        with failed_request(page, actions):  # the page itself got no answer
            page.locator('[data-action="roll"]').click()
        proxy.lose(0)
        assert eventually(lambda: body_data(page, "version") == str(game["version"] + 1))
        saving.wait_for(state="hidden", timeout=TIMEOUT_MS)
        assert page.evaluate("window.sawSaving") is True  # it said "saving…" meanwhile
        assert logged(live_server, game["id"]) == ["Roll"]
    finally:
        proxy.close()
