"""A tap made before the page is ready is not lost: the markup's buttons show at the first
render, before the modules have drawn the game and listen. js/core/boot.js holds the last such tap,
and the page makes it once the game is drawn, on its button if the game still shows it."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
from playwright.sync_api import expect

from device.page_helpers import TIMEOUT_MS, api, body_data, eventually, new_device, wait_ready
from web.web_helpers import action_hook

if TYPE_CHECKING:
    from collections.abc import Iterator

    from playwright.sync_api import Browser, Page, Route

    from server_process import ServerProcess

pytestmark = pytest.mark.browser


@pytest.fixture
def held_page(browser: Browser, live_server: ServerProcess) -> Iterator[tuple[Page, list[Route]]]:
    """The page opened with its main module held back (not yet answered): the markup is drawn
    and the boot script has run, but nothing of the game is there."""
    context = new_device(browser)
    page = context.new_page()
    held: list[Route] = []

    def hold(route: Route) -> None:
        held.append(route)

    page.route("**/js/app/app.js", hold)
    page.goto(f"{live_server.url}/", wait_until="commit")
    # (the route's handler runs while Playwright is asked something: evaluate first)
    assert eventually(lambda: page.evaluate("window.magdagdonBoot !== undefined") and bool(held))
    yield page, held
    context.close()


def test_a_menu_tap_before_the_page_is_ready_opens_its_sheet_once_ready(
    held_page: tuple[Page, list[Route]],
) -> None:
    page, held = held_page
    page.locator(f".bar-daily{action_hook('daily')}").click(timeout=TIMEOUT_MS)  # in the bar
    assert body_data(page, "ready") is None
    held[0].continue_()
    wait_ready(page)
    expect(page.locator('#sheet[data-screen="daily"]')).to_be_visible()
    expect(page.locator("#sheet .daily-cards")).to_be_visible()


def test_the_first_roll_tapped_before_the_page_is_ready_is_made_once(
    held_page: tuple[Page, list[Route]], live_server: ServerProcess
) -> None:
    page, held = held_page
    # the roll button has no label yet: the player taps where I-ROLL is about to be
    page.locator(action_hook("roll")).click(timeout=TIMEOUT_MS)
    page.locator(action_hook("roll")).click(timeout=TIMEOUT_MS)
    held[0].continue_()
    wait_ready(page)
    expect(page.locator(".tray [data-die]")).to_have_count(4)
    game = api(page, "GET", f"{live_server.url}/api/games/current")
    assert game["phase"] == "place"
    assert game["version"] == 1  # rolled once: two early taps are one tap, the last
