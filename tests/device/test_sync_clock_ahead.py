"""A device whose clock runs a day ahead of the server's never loses a game played on it: the
server refuses the game's times (422 naming ``played_at``), and the page sends the game again
without them, dated by the server. The game is put on the device as the page's engine keeps one
(IndexedDB), whole and over: no engine is needed."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any

import pytest

from api_helpers import whole_game
from device.kept_games import keep_game
from device.page_helpers import api, eventually, new_device, open_page
from magdagdon import clock
from magdagdon.engine import Difficulty, GameState, action_to_json
from magdagdon.engine.view import state_view
from offline.test_offline_play import KEPT
from server_process import launch_server
from web.web_helpers import TUTORIAL_OFFERED

if TYPE_CHECKING:
    from pathlib import Path

    from playwright.sync_api import Browser, Response

pytestmark = pytest.mark.browser

GAME_ID = "o0ahead0000000001"


def test_a_game_dated_in_the_future_is_sent_again_undated(
    browser: Browser, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock_file = tmp_path / "clock"
    monkeypatch.setenv(clock.ENV_VAR, str(clock_file))
    now = datetime(2026, 12, 3, 12, tzinfo=UTC)  # the server's; the device is a day ahead
    clock_file.write_text(clock.stamp(now), encoding="utf-8")
    server = launch_server(tmp_path / "ahead.sqlite3", tmp_path / "logs")
    context = new_device(browser)
    context.add_init_script(TUTORIAL_OFFERED)
    try:
        page = context.new_page()
        open_page(page, f"{server.url}/")
        actions = whole_game(GameState.new(Difficulty.PEACEFUL, 5))
        state = GameState.new(Difficulty.PEACEFUL, 5)
        for action in actions:
            state = state.apply(action)
        game: dict[str, Any] = {
            "id": GAME_ID,
            "difficulty": "peaceful",
            "seed": 5,
            "mode": "normal",
            "daily_date": None,
            "actions": [action_to_json(a) for a in actions],
            "view": state_view(state, game_id=GAME_ID, version=len(actions)),
            "began": clock.stamp(now + timedelta(days=1)),
            "refused": None,
        }
        keep_game(page, game)
        answers: list[Response] = []
        page.on("response", lambda r: answers.append(r) if "/api/games/sync" in r.url else None)
        page.reload()
        assert eventually(lambda: page.evaluate(KEPT) == [], 60)  # stored, not refused
        statuses = [r.status for r in answers]
        assert statuses[0] == 422, statuses
        assert statuses.count(422) == 1, statuses
        assert 200 in statuses, statuses
        assert answers[0].json()["error"]["field"] == "played_at"
        export = api(page, "GET", f"{server.url}/api/player/export")
        [kept] = [g for g in export["games"] if g["id"] == GAME_ID]
        assert kept["created_at"] == kept["finished_at"] == clock.stamp(now)
    finally:
        context.close()
        server.kill()
