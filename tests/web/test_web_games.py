"""Whole games by taps alone, on SURVIVAL and NIGHTMARE, from the first roll to the High Scores."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
from playwright.sync_api import expect

from magdagdon.engine import Difficulty
from web.web_helpers import action_hook

if TYPE_CHECKING:
    from web.web_helpers import Player

pytestmark = pytest.mark.browser


# PEACEFUL's whole game is played at every size in test_screens.py.
@pytest.mark.parametrize(
    ("layout", "difficulty"),
    [("phone", Difficulty.SURVIVAL), ("desktop", Difficulty.NIGHTMARE)],
    ids=["phone-survival", "desktop-nightmare"],
)
def test_a_whole_game_by_taps_reaches_the_high_scores(
    player: Player, difficulty: Difficulty
) -> None:
    player.seed_game(difficulty, seed=7)
    player.play_turn()
    player.screenshot(f"play-{difficulty.value}")
    player.play_to_end()

    final = player.api("GET", f"/api/games/{player.game_id}")
    assert final["phase"] == "over"
    assert final["rank"] == 1
    over = player.page.locator("#over")
    expect(over).to_be_visible()
    expect(over.locator(".final-score")).to_have_text(str(final["score"]["total"]))
    expect(over.locator(".rank")).to_contain_text("1")
    expect(player.page.locator(action_hook("roll"))).to_be_hidden()
    player.screenshot(f"over-{difficulty.value}")

    player.menu("highscores")
    table = player.page.locator(f'[data-difficulty-table="{difficulty.value}"]')
    expect(table).to_be_visible()
    mine = table.locator("tbody tr.mine")
    expect(mine).to_have_count(1)
    expect(mine.locator("td").nth(1)).to_contain_text(str(final["score"]["total"]))
    expect(mine.locator("td").nth(3)).to_have_text(str(final["turn"]))
    player.screenshot(f"highscores-{difficulty.value}")

    player.tap(action_hook("close"))
    player.tap(action_hook("new-game"))
    fresh = player.state()
    assert fresh["id"] != final["id"]
    assert (fresh["difficulty"], fresh["turn"], fresh["phase"]) == (difficulty.value, 0, "roll")
