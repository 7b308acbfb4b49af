"""A daily challenge begun offline, in Debian's Chromium: HAMON NG ARAW says before the tap, in
Filipino and in English, that the day's challenge begun on this device is practice and never
ranked; it is begun in the page's engine as practice of the day's seed, and back online it is on
the server as practice, off the day's table, with the day's ranked attempt still to play."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import TYPE_CHECKING

import pytest

from device.page_helpers import api, eventually, open_page, open_screen
from device.pwa_helpers import wait_controlled
from offline.test_offline_play import ENGINE_MS, KEPT, idle, shown, tap

if TYPE_CHECKING:
    from playwright.sync_api import BrowserContext, Page

    from server_process import ServerProcess

pytestmark = [pytest.mark.browser, pytest.mark.slow]

WORDS = {
    "fil": ("Praktis ang HAMON NG ARAW", "wala itong ranggo ngayong", "praktis, walang ranggo"),
    "en": ("is practice", "will not be ranked on today's leaderboard", "practice, not ranked"),
}


def offline_daily_sheet(page: Page, language: str) -> None:
    """HAMON NG ARAW opened offline says, before any tap, that a game begun now is practice."""
    open_screen(page, "daily")
    said = page.locator("[data-daily-offline]")
    said.wait_for(timeout=ENGINE_MS)
    intro, unranked, status = WORDS[language]
    assert intro in said.inner_text()
    assert unranked in said.inner_text()
    assert said.get_attribute("data-daily-offline") == datetime.now(UTC).date().isoformat()
    cards = page.locator("#sheet .daily-card-status")
    assert cards.count() == 3
    assert all(text == status for text in cards.all_inner_texts())


def test_a_daily_begun_offline_is_practice_and_says_so_first(
    context: BrowserContext, live_server: ServerProcess
) -> None:
    url = live_server.url
    page = context.new_page()
    open_page(page, f"{url}/")
    wait_controlled(page)
    page.wait_for_selector('body[data-offline="ready"]', state="attached", timeout=ENGINE_MS)

    context.set_offline(True)
    offline_daily_sheet(page, "fil")
    page.locator('#sheet [data-action="daily-play"][data-value="survival"]').click()
    sure = page.locator('#sheet [data-action="daily-play"][data-sure="1"]')
    if sure.is_visible():  # the game under way is abandoned by it: asked first
        sure.click()
    idle(page)
    day = datetime.now(UTC).date().isoformat()
    state = shown(page)
    assert (state["mode"], state["daily"]["date"], state["difficulty"]) == (
        "practice",
        day,
        "survival",
    )
    tap(page, '[data-action="roll"]')
    played = page.evaluate(KEPT)
    assert [(g["mode"], g["daily_date"], g["actions"]) for g in played] == [
        ("practice", day, [{"type": "roll"}])
    ]

    # the same words in English, on the same device still offline
    page.evaluate("localStorage.setItem('magdagdon.language', 'en')")
    page.reload()
    idle(page)
    page.wait_for_selector('body[data-offline="ready"]', state="attached", timeout=ENGINE_MS)
    offline_daily_sheet(page, "en")

    context.set_offline(False)
    assert eventually(lambda: page.evaluate(KEPT) == [], 120)
    log = api(page, "GET", f"{url}/api/games/{played[0]['id']}/log")
    assert (log["mode"], log["daily_date"], log["actions"]) == ("practice", day, [{"type": "roll"}])
    table = api(page, "GET", f"{url}/api/daily/table?difficulty=survival&date={day}")
    assert table == []
    today = api(page, "GET", f"{url}/api/daily")
    survival = next(c for c in today["challenges"] if c["difficulty"] == "survival")
    assert survival["status"] == "new"  # the day's ranked attempt is still to play
