"""The daily challenge without the connection, in Debian's Chromium: today's challenge needs the
connection (its dice are the server's secret until rolled), and HAMON NG ARAW says so, in Filipino
and in English; a past day, whose seed the server published once it was over and the page kept
while online, is begun in the page's engine as practice on that seed, and back online it is on
the server as practice of that day, off its table."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any

import pytest

from device.page_helpers import api, eventually, open_page, open_screen
from device.pwa_helpers import wait_controlled
from magdagdon.engine import Difficulty, GameState, Roll
from offline.test_offline_play import ENGINE_MS, KEPT, idle, shown, tap

if TYPE_CHECKING:
    from playwright.sync_api import BrowserContext, Page

    from server_process import ServerProcess

pytestmark = [pytest.mark.browser, pytest.mark.slow]

WORDS = {
    "fil": (
        "Kailangan ng koneksyon ang HAMON NG ARAW ngayong araw",
        "Praktis ang HAMON NG ARAW",
        "praktis, walang ranggo",
    ),
    "en": ("Today's DAILY needs the connection", "is practice", "practice, not ranked"),
}
SEEDS = "() => JSON.parse(localStorage.getItem('magdagdon.dailySeeds') ?? '{}')"


def offline_daily_sheet(page: Page, language: str, day: str) -> None:
    """HAMON NG ARAW opened while offline says, before any tap, that today's challenge needs the
    connection and that the past day's begun now is practice."""
    open_screen(page, "daily")
    needs = page.locator("[data-daily-offline-today]")
    needs.wait_for(timeout=ENGINE_MS)
    today_words, practice_words, status = WORDS[language]
    assert today_words in needs.inner_text()
    assert needs.get_attribute("data-daily-offline-today") == datetime.now(UTC).date().isoformat()
    said = page.locator("[data-daily-offline]")
    assert practice_words in said.inner_text()
    assert said.get_attribute("data-daily-offline") == day
    cards = page.locator("#sheet .daily-card-status")
    assert cards.count() == 3
    assert all(text == status for text in cards.all_inner_texts())


def test_todays_daily_needs_the_connection_and_a_past_day_plays_offline(
    context: BrowserContext, live_server: ServerProcess
) -> None:
    url = live_server.url
    page = context.new_page()
    open_page(page, f"{url}/")
    wait_controlled(page)
    page.wait_for_selector('body[data-offline="ready"]', state="attached", timeout=ENGINE_MS)
    today = datetime.now(UTC).date()
    day = (today - timedelta(days=1)).isoformat()

    # online, HAMON NG ARAW keeps yesterday's published seeds; today's it never has
    open_screen(page, "daily")
    assert eventually(lambda: day in page.evaluate(SEEDS))
    kept: dict[str, Any] = page.evaluate(SEEDS)
    assert today.isoformat() not in kept
    published = api(page, "GET", f"{url}/api/daily?date={day}")
    seeds = {c["difficulty"]: c["seed"] for c in published["challenges"]}
    assert kept[day] == seeds
    assert api(page, "GET", f"{url}/api/daily")["challenges"][0]["seed"] is None

    context.set_offline(True)
    page.reload()
    idle(page)
    page.wait_for_selector('body[data-offline="ready"]', state="attached", timeout=ENGINE_MS)
    offline_daily_sheet(page, "fil", day)
    page.locator('#sheet [data-action="daily-play"][data-value="survival"]').click()
    sure = page.locator('#sheet [data-action="daily-play"][data-sure="1"]')
    if sure.is_visible():  # the game under way is abandoned by it: asked first
        sure.click()
    idle(page)
    state = shown(page)
    assert (state["mode"], state["daily"]["date"], state["difficulty"]) == (
        "practice",
        day,
        "survival",
    )
    tap(page, '[data-action="roll"]')
    rolled = GameState.new(Difficulty.SURVIVAL, seeds["survival"]).apply(Roll())
    assert [d["value"] for d in shown(page)["dice"]] == list(rolled.dice)  # the day's dice
    played = page.evaluate(KEPT)
    assert [(g["mode"], g["daily_date"], g["seed"], g["actions"]) for g in played] == [
        ("practice", day, seeds["survival"], [{"type": "roll"}])
    ]

    # the same words in English, on the same device still offline
    page.evaluate("localStorage.setItem('magdagdon.language', 'en')")
    page.reload()
    idle(page)
    page.wait_for_selector('body[data-offline="ready"]', state="attached", timeout=ENGINE_MS)
    offline_daily_sheet(page, "en", day)

    context.set_offline(False)
    assert eventually(lambda: page.evaluate(KEPT) == [], 120)
    log = api(page, "GET", f"{url}/api/games/{played[0]['id']}/log")
    assert (log["mode"], log["daily_date"], log["seed"], log["actions"]) == (
        "practice",
        day,
        seeds["survival"],
        [{"type": "roll"}],
    )
    assert api(page, "GET", f"{url}/api/daily/table?difficulty=survival&date={day}") == []
