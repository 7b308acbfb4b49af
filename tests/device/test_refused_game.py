"""A game played on this device that the server refuses is never a dead end: once the page is
back in touch with the server, it names the game (its difficulty, the day it was played, its
score) and offers it as a file; the file holds the game's whole record, dated when it was played.
The game is put on the device as the page's engine keeps one (IndexedDB), with a log the server
cannot replay, so no engine is needed to play it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from device.kept_games import keep_game
from device.page_helpers import TIMEOUT_MS, api, new_device, open_page, wait_ready
from web.web_helpers import TUTORIAL_OFFERED

if TYPE_CHECKING:
    from playwright.sync_api import Browser

    from server_process import ServerProcess

pytestmark = pytest.mark.browser

GAME_ID = "o0123456789abcdef"
PLAYED = "2026-11-30T10:00:00.000Z"


def test_a_refused_game_is_named_and_offered_as_a_file(
    browser: Browser, live_server: ServerProcess
) -> None:
    context = new_device(browser, accept_downloads=True)
    context.add_init_script(TUTORIAL_OFFERED)
    try:
        page = context.new_page()
        open_page(page, f"{live_server.url}/")
        state: dict[str, Any] = api(page, "GET", f"{live_server.url}/api/games/current")
        # a confirm before any roll: the server's replay refuses the log
        game = {
            "id": GAME_ID,
            "difficulty": "survival",
            "seed": 12345,
            "mode": "normal",
            "daily_date": None,
            "actions": [{"type": "confirm"}],
            "view": {**state, "id": GAME_ID, "difficulty": "survival"},
            "began": PLAYED,
            "refused": None,
        }
        keep_game(page, game)
        with page.expect_response(lambda r: r.url.endswith("/api/games/sync")) as sync:
            page.reload()
            wait_ready(page)
        assert sync.value.status == 422
        export = page.locator('#message [data-action="export-refused"]')
        export.wait_for(timeout=TIMEOUT_MS)
        words = page.locator("#message").inner_text()
        played_on = page.evaluate(f"new Date({json.dumps(PLAYED)}).toLocaleDateString()")
        assert "SURVIVAL" in words.upper()
        assert played_on in words  # the day it was played, not the day it was sent

        with page.expect_download() as download:
            export.click()
        saved = json.loads(Path(download.value.path()).read_text(encoding="utf-8"))
        [kept] = saved["magdagdon_offline_games"]
        assert kept["id"] == GAME_ID
        assert kept["actions"] == game["actions"]
        assert kept["seed"] == game["seed"]
        assert kept["played_at"] == PLAYED
        assert kept["refused"]["code"] == "sync_invalid"

        # still kept, and said again at the next opening: never sent again by itself
        page.reload()
        wait_ready(page)
        export.wait_for(timeout=TIMEOUT_MS)
    finally:
        context.close()
