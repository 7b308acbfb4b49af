"""A game played offline on one day and synced on a later one is dated when it was played, in
Debian's Chromium with a real server that stops (its port refuses) and comes back days later by
its clock (``MAGDAGDON_CLOCK``): the page keeps when the game began and when its last tap ended
it (this device's clock), sends both with the game (``played_at``, ``finished_at``), and High
Scores shows the day it was played, not the day the server got it; STATISTIKA counts it.

The game is put on the device as the page's engine keeps one (IndexedDB), one tap before its
end; the engine plays that tap. Pyodide starts slowly on a loaded machine: every wait is on a
condition, with long deadlines."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any

import pytest

from api_helpers import whole_game
from device.kept_games import keep_game
from device.page_helpers import TIMEOUT_MS, api, body_data, eventually, open_page, open_screen
from device.pwa_helpers import wait_controlled
from magdagdon import clock
from magdagdon.engine import Difficulty, GameState, action_to_json
from magdagdon.engine.view import state_view
from offline.test_no_dead_end import again
from offline.test_offline_play import ENGINE_MS, KEPT, idle, tap
from server_process import launch_server

if TYPE_CHECKING:
    from pathlib import Path

    from playwright.sync_api import BrowserContext, Page

pytestmark = [pytest.mark.browser, pytest.mark.slow]

GAME_ID = "o0dated0000000001"
SEED = 3  # a plain game of it ends with KUMPIRMAHIN
LATER = timedelta(days=3)  # the server's clock when the game reaches it
DATE = "async (when) => (await import('/js/lib/format.js')).date(when)"


def one_tap_from_its_end(began: str) -> dict[str, Any]:
    """A PEACEFUL game as core/kept.js keeps one played here, its last action not yet played."""
    actions = whole_game(GameState.new(Difficulty.PEACEFUL, SEED))
    assert action_to_json(actions[-1]) == {"type": "confirm"}
    state = GameState.new(Difficulty.PEACEFUL, SEED)
    for action in actions[:-1]:
        state = state.apply(action)
    return {
        "id": GAME_ID,
        "difficulty": "peaceful",
        "seed": SEED,
        "mode": "normal",
        "daily_date": None,
        "actions": [action_to_json(a) for a in actions[:-1]],
        "view": state_view(state, game_id=GAME_ID, version=len(actions) - 1),
        "began": began,
        "refused": None,
    }


def high_score_row(page: Page) -> list[str]:
    open_screen(page, "highscores")
    table = page.locator('#sheet [data-difficulty-table="peaceful"]')
    table.wait_for(timeout=TIMEOUT_MS)
    cells: list[str] = table.locator("tbody tr").first.locator("td").all_inner_texts()
    page.locator('#sheet [data-action="close"]').first.click()
    return cells


def test_a_game_played_offline_is_dated_the_day_it_was_played(
    context: BrowserContext, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock_file = tmp_path / "clock"
    monkeypatch.setenv(clock.ENV_VAR, str(clock_file))  # the server's clock; the page's is real
    played = datetime.now(UTC).replace(microsecond=0) - timedelta(hours=2)
    clock_file.write_text(clock.stamp(datetime.now(UTC)), encoding="utf-8")
    server = launch_server(tmp_path / "dated.sqlite3", tmp_path / "logs")
    try:
        page = context.new_page()
        open_page(page, f"{server.url}/")
        wait_controlled(page)
        page.wait_for_selector('body[data-offline="ready"]', state="attached", timeout=ENGINE_MS)
        game = one_tap_from_its_end(clock.stamp(played))
        keep_game(page, game)
        server.kill()

        page.reload()  # no server: the game kept here, one KUMPIRMAHIN from its end
        page.wait_for_selector('body[data-offline="ready"]', state="attached", timeout=ENGINE_MS)
        idle(page)
        assert body_data(page, "version") == str(len(game["actions"]))
        tap(page, '[data-action="confirm"]')  # played by the page's engine
        assert body_data(page, "phase") == "over"
        [held] = page.evaluate(KEPT)
        assert held["began"] == played.timestamp() * 1000
        ended = datetime.fromtimestamp(held["ended"] / 1000, UTC)  # this device's clock
        assert played < ended <= datetime.now(UTC)

        synced_at = datetime.now(UTC) + LATER
        clock_file.write_text(clock.stamp(synced_at), encoding="utf-8")
        server = again(server, tmp_path)  # days later, by the server's clock
        assert eventually(lambda: page.evaluate(KEPT) == [], 120)  # sent, and stored
        scores = api(page, "GET", f"{server.url}/api/highscores?difficulty=peaceful")
        assert [(e["game_id"], e["date"]) for e in scores] == [(GAME_ID, clock.stamp(ended))]
        export = api(page, "GET", f"{server.url}/api/player/export")
        [kept] = [g for g in export["games"] if g["id"] == GAME_ID]
        assert (kept["created_at"], kept["finished_at"]) == (
            clock.stamp(played),
            clock.stamp(ended),
        )

        # High Scores shows the day it was played, not the day it was synced
        idle(page)
        cells = high_score_row(page)
        assert cells[2] == page.evaluate(DATE, clock.stamp(ended)), cells
        assert cells[2] != page.evaluate(DATE, clock.stamp(synced_at)), cells
        open_screen(page, "stats")  # and STATISTIKA counts it
        page.locator('#sheet [data-stats="peaceful"]').wait_for(timeout=TIMEOUT_MS)
        stats = api(page, "GET", f"{server.url}/api/stats?difficulty=peaceful")
        assert stats["finished"] == 1
        assert stats["best_game_id"] == GAME_ID
    finally:
        server.kill()
