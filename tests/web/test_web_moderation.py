"""SETTINGS tells a player whose name the operator hid (``magdagdon admin hide``,
docs/hosting.md "Moderation"): in Filipino, and in English once chosen, naming the neutral name
everyone else sees; once shown again, the note is gone."""

from __future__ import annotations

import subprocess
import sys
from typing import TYPE_CHECKING

import pytest
from playwright.sync_api import expect

from magdagdon.services.players import player_id
from web.web_helpers import players_opened

if TYPE_CHECKING:
    from collections.abc import Iterator

    from playwright.sync_api import Browser

    from server_process import ServerProcess
    from web.web_helpers import Opener

pytestmark = pytest.mark.browser


@pytest.fixture
def opened(browser: Browser, live_server: ServerProcess) -> Iterator[Opener]:
    yield from players_opened(browser, live_server.url)


def admin(server: ServerProcess, *args: str) -> None:
    command = [sys.executable, "-m", "magdagdon", "admin", "--db", server.db, *args]
    subprocess.run(command, check=True, capture_output=True, timeout=120)


def test_settings_tells_a_player_whose_name_is_hidden(
    opened: Opener, live_server: ServerProcess
) -> None:
    player = opened("phone")
    page = player.page
    player.api("PUT", "/api/player", {"name": "Majda"})
    (token,) = [c["value"] for c in page.context.cookies() if c["name"] == "magdagdon_player"]
    tag = player_id(token)[:4]
    admin(live_server, "hide", player_id(token))
    player.menu("settings")
    note = page.locator("#name-hidden")
    expect(note).to_have_text(
        f"Itinago ng tagapangasiwa ng server ang pangalan mo: Manlalaro {tag} ang nakikita ng iba."
    )
    expect(page.locator("#player-name")).to_have_value("Majda")  # still hers
    player.api("PUT", "/api/player", {"language": "en"})
    page.reload()
    player.menu("settings")
    expect(note).to_have_text(
        f"This server's operator has hidden your name: everyone else sees Player {tag}."
    )
    admin(live_server, "show", player_id(token))
    page.reload()
    player.menu("settings")
    expect(page.locator("#player-name")).to_be_visible()
    expect(note).to_have_count(0)
