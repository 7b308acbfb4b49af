"""Without the server, the game's own words stay on screen: at 360×640 and 390×844 a MAGDAGDON
reopened with the server stopped shows its banner and instruction in the message area, the
connection being a small mark beside it (never in the words' place); a screenshot of each is
kept in the test's folder."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from device.page_helpers import TIMEOUT_MS, body_data, new_device, open_page
from offline.test_offline_play import play_a_turn

if TYPE_CHECKING:
    from pathlib import Path

    from playwright.sync_api import Browser, Page

    from server_process import ServerProcess

pytestmark = pytest.mark.browser


def inside(page: Page, selector: str) -> bool:
    """Drawn, and wholly inside the viewport."""
    box = page.locator(selector).bounding_box()
    size = page.viewport_size
    assert size is not None
    return (
        box is not None
        and box["width"] > 0
        and box["x"] >= 0
        and box["y"] >= 0
        and box["x"] + box["width"] <= size["width"] + 1
        and box["y"] + box["height"] <= size["height"] + 1
    )


@pytest.mark.parametrize("layout", ["phone-360", "phone"])
def test_offline_a_magdagdon_keeps_its_words(
    browser: Browser, live_server: ServerProcess, tmp_path: Path, layout: str
) -> None:
    context = new_device(browser, layout)
    context.add_init_script("localStorage.setItem('magdagdon.tutorialOffered', '1')")
    try:
        page = context.new_page()
        open_page(page, f"{live_server.url}/")
        avoid: set[tuple[int, int, int, int]] = set()  # places that left a roll stuck
        for _ in range(2000):  # a game that ends without one: the next game
            phase = body_data(page, "phase")
            if phase == "magdagdon":
                break
            if phase == "over":
                page.locator('[data-action="new-game"]').first.click()
                page.wait_for_selector('body[data-phase="roll"]:not([data-busy])')
                continue
            play_a_turn(page, avoid)
        assert body_data(page, "phase") == "magdagdon"
        live_server.kill()
        page.reload()
        page.wait_for_selector("body[data-ready]", timeout=TIMEOUT_MS)
        page.locator('[data-notice="offline"]').wait_for(timeout=TIMEOUT_MS)
        assert body_data(page, "phase") == "magdagdon"
        assert page.locator("#message .banner-title").is_visible()
        assert "MAGDAGDON" in page.locator("#message").inner_text()
        assert inside(page, "#message .banner-title")
        assert inside(page, '[data-notice="offline"]')
        page.screenshot(path=str(tmp_path / f"offline-magdagdon-{layout}.png"))
    finally:
        context.close()
