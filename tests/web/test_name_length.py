"""The longest name is the server's rule: the page's name field and its words take it from
``GET /api/player`` (``name_max``) and never name it themselves."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from playwright.sync_api import expect

from magdagdon.services.name_rules import MAX_LENGTH
from web.web_helpers import open_player

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Route

    from server_process import ServerProcess

WEB = Path(__file__).resolve().parents[2] / "src" / "magdagdon" / "web" / "js"
NAME_WORDS = ("nameLabel", "nameInvalid")


def test_the_page_names_no_name_length() -> None:
    settings = (WEB / "sheets" / "settings.js").read_text(encoding="utf-8")
    assert not re.search(rf"\b{MAX_LENGTH}\b", settings), "settings.js names the name's length"
    for table in sorted((WEB / "i18n").glob("*.sheets.js")):
        for line in table.read_text(encoding="utf-8").splitlines():
            if line.strip().startswith(NAME_WORDS):
                assert not re.search(rf"\b{MAX_LENGTH}\b", line), f"{table.name}: {line}"


@pytest.mark.browser
def test_the_name_field_follows_the_servers_length(
    browser: Browser, web_server: ServerProcess
) -> None:
    """A server whose names are 12 characters at most: the field and its label say 12."""
    context, player = open_player(browser, "phone", web_server.url)
    try:
        page = player.page

        def shorter(route: Route) -> None:
            if route.request.method != "GET":
                route.continue_()
                return
            answer = route.fetch()
            body = answer.json()
            assert body["name_max"] == MAX_LENGTH
            route.fulfill(response=answer, body=json.dumps({**body, "name_max": 12}))

        page.route("**/api/player", shorter)
        player.menu("settings")
        field = page.locator("#player-name")
        expect(field).to_have_attribute("maxlength", "24")  # twice: room for trimmed spaces
        expect(page.locator('label[for="player-name"]')).to_have_text("Pangalan (1–12 titik)")
    finally:
        context.close()
