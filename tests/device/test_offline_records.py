"""Without the server, the records come from this device and say so: High Scores shows the last
lists the server sent with the games finished here since (tagged, dated when they were played),
STATISTIKA its last figures and the games finished here that are not in them yet, and a game that
ended here gives its place among them, not "not in the High Scores" (a screenshot of each is
kept in the test's folder). The game is put on the device as the page's engine keeps one
(IndexedDB): no engine is needed."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pytest

from device.kept_games import keep_game
from device.page_helpers import (
    TIMEOUT_MS,
    api,
    eventually,
    new_device,
    open_page,
    open_screen,
    wait_ready,
)
from device.pwa_helpers import wait_controlled
from device.test_download import finish_a_turn
from web.web_helpers import TUTORIAL_OFFERED

if TYPE_CHECKING:
    from pathlib import Path

    from playwright.sync_api import Browser

    from server_process import ServerProcess

pytestmark = pytest.mark.browser

GAME_ID = "o00112233445566aa"
PLAYED = "2026-11-28T09:30:00.000Z"
KEPT = "async (paths) => (await Promise.all(paths.map((p) => caches.match(p)))).every(Boolean)"
LATER = [
    *("/js/render/over.js", "/js/render/sheet.js", "/css/sheet.css", "/js/sheets/devices.js"),
    *("/js/sheets/scores.js", "/css/more.css", "/js/i18n/fil.sheets.js", "/js/i18n/fil.devices.js"),
    *("/js/sheets/stats.js", "/js/lib/chart.js", "/js/sheets/moreApi.js"),
]


def test_offline_high_scores_and_rank_come_from_this_device(
    browser: Browser, live_server: ServerProcess, tmp_path: Path
) -> None:
    context = new_device(browser)
    context.add_init_script(TUTORIAL_OFFERED)
    try:
        page = context.new_page()
        open_page(page, f"{live_server.url}/")
        wait_controlled(page)
        state: dict[str, Any] = api(page, "GET", f"{live_server.url}/api/games/current")
        # High Scores once with the server: its lists (none yet) are kept, its files too
        open_screen(page, "highscores")
        page.locator("#sheet [data-difficulty-table], #sheet .empty").first.wait_for()
        page.locator('#sheet [data-action="close"]').first.click()
        open_screen(page, "stats")  # and STATISTIKA's figures
        page.locator("#sheet [data-stats]").wait_for()
        page.locator('#sheet [data-action="close"]').first.click()
        # a finished turn: the service worker keeps the rest of the page (the game-over panel,
        # the sheet's parts: what the first visit did not load, or loaded past it)
        finish_a_turn(page, live_server.url)
        assert eventually(lambda: page.evaluate(KEPT, LATER))

        score = state["score"] | {"total": 77}
        over = state | {"id": GAME_ID, "phase": "over", "score": score, "turn": 12}
        over["rank_here"] = {"rank": 1, "among": 1}  # as core/local.js says it at the end
        keep_game(
            page,
            {
                "id": GAME_ID,
                "difficulty": state["difficulty"],
                "seed": 7,
                "mode": "normal",
                "daily_date": None,
                "actions": [],
                "view": over,
                "began": PLAYED,
                "refused": None,
            },
        )
        live_server.kill()
        page.reload()
        wait_ready(page)
        page.locator('[data-notice="offline"]').wait_for(timeout=TIMEOUT_MS)
        # the game this device kept last, over: its place here, said as this device's
        rank = page.locator("#over .rank")
        rank.wait_for(timeout=TIMEOUT_MS)
        assert "#1" in rank.inner_text()
        assert "device" in rank.inner_text()
        page.screenshot(path=str(tmp_path / "offline-over.png"))

        open_screen(page, "highscores")
        page.locator("#sheet [data-scores-here]").wait_for(timeout=TIMEOUT_MS)
        table = page.locator(f'#sheet [data-difficulty-table="{state["difficulty"]}"]')
        row = table.locator("tbody tr").filter(has=page.locator("[data-here]"))
        assert row.count() == 1
        cells = row.locator("td").all_inner_texts()
        assert "77" in cells[1]
        # dated when it was played (render/sheet.js draws dates with lib/format.js's date)
        assert cells[2] == page.evaluate(
            "async (when) => (await import('/js/lib/format.js')).date(when)", PLAYED
        )
        page.screenshot(path=str(tmp_path / "offline-high-scores.png"))
        page.locator('#sheet [data-action="close"]').first.click()

        # STATISTIKA: the figures the server last sent, and the game here not in them yet
        open_screen(page, "stats")
        here = page.locator("#sheet [data-stats-here]")
        here.wait_for(timeout=TIMEOUT_MS)
        assert page.locator(f'#sheet [data-stats="{state["difficulty"]}"]').is_visible()
        assert "STATISTIKA" in here.inner_text()
        assert "device" in here.inner_text()  # the game finished here, not in them yet
        page.screenshot(path=str(tmp_path / "offline-stats.png"))
    finally:
        context.close()
