"""axe with every rule it runs by default (WCAG A and AA and the best practices: ``region``,
``landmark-one-main``…; not the AAA contrast nor the experimental rules) on every screen and state
of the page (tests/web/state_walk.py), at every size, light and dark, in Filipino and then in
English: no violation of any impact. One page per size; the colour scheme is switched in place at
each state."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pytest
from axe_playwright_python.sync_playwright import Axe

from web.state_walk import switch_language, walk_over, walk_play, walk_sheets
from web.web_helpers import LAYOUTS, action_hook, open_player

if TYPE_CHECKING:
    from playwright.sync_api import Browser

    from server_process import ServerProcess
    from web.web_helpers import Player

pytestmark = pytest.mark.browser

AXE = Axe()


def violations(player: Player, state: str) -> list[str]:
    """Every rule's violations on the page as it is now, light then dark."""
    page = player.page
    player.settle(everything=True)  # colours are read when every effect has ended
    options: dict[str, Any] = {"resultTypes": ["violations"]}
    found = []
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        result = AXE.run(page, options=options)
        for v in result.response["violations"]:
            where = [node["target"] for node in v["nodes"]][:3]
            found.append(f"{player.layout} {scheme} {state}: {v['id']} ({v['impact']}) {where}")
    page.emulate_media(color_scheme="light")
    return found


@pytest.mark.parametrize("layout", list(LAYOUTS))
def test_axe_finds_nothing_on_any_screen_or_state(
    browser: Browser, web_server: ServerProcess, layout: str
) -> None:
    context, player = open_player(browser, layout, web_server.url, offered=False)
    found: list[str] = []

    def visit(state: str) -> None:
        found.extend(violations(player, state))

    try:
        visit("the tutorial offered")
        player.tap(f"#message {action_hook('tutorial')}")
        player.tap(action_hook("roll"))
        visit("the tutorial's coach")
        player.tap(action_hook("tutorial-skip"))
        walk_play(player, visit)
        walk_sheets(player, visit)
        switch_language(player)  # the rest in English
        walk_over(player, visit)
        player.menu("settings")
        visit("SETTINGS in English")
        player.tap(action_hook("close"))
        assert not player.errors, "the page threw"
    finally:
        context.close()
    assert not found, "\n".join(found)
