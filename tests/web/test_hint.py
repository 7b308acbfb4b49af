"""The hint button: the best bot's placement shown on the board, cleared when the game moves on,
counted in the game and shown with its High Scores entry."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
from playwright.sync_api import expect

from magdagdon.bots.expectimax import ExpectimaxBot
from magdagdon.engine import Difficulty, GameState, Roll, row_col
from web.web_helpers import action_hook

if TYPE_CHECKING:
    from web.web_helpers import Player

pytestmark = pytest.mark.browser


def _seed_with_a_placement_hint() -> int:
    """The first seed whose first roll the bot answers with a placement (not a Power)."""
    bot = ExpectimaxBot()
    for seed in range(1, 100):
        if bot.advise(GameState.new(Difficulty.PEACEFUL, seed).apply(Roll())).placement:
            return seed
    raise AssertionError("no seed found")


def test_hint_marks_the_recommended_placement_and_is_counted(player: Player) -> None:
    page = player.page
    player.seed_game(Difficulty.PEACEFUL, seed=_seed_with_a_placement_hint())
    button = page.locator(action_hook("hint"))
    expect(button).to_have_text("PAHIWATIG")
    player.do(Roll())
    assert player.mirror is not None
    advice = ExpectimaxBot().advise(player.mirror)  # the same bot the server asks
    assert len(advice.placement) >= player.mirror.min_required

    player.tap(action_hook("hint"))
    page.wait_for_selector("body[data-hint]")
    marked = page.locator(".board .cell.hinted")
    expect(marked).to_have_count(len(advice.placement))
    for die, cell in advice.placement:
        row, col = row_col(cell)
        target = page.locator(f'.board [data-cell="{row}-{col}"]')
        expect(target).to_have_attribute("data-hint", str(player.mirror.dice[die]))
    expect(page.locator("#hint-note")).to_contain_text("Mungkahi")
    assert player.api("GET", f"/api/games/{player.game_id}")["hints_used"] == 1
    player.screenshot("hint")

    player.play_turn()  # the game moves on: the marks go
    expect(page.locator(".hinted")).to_have_count(0)
    expect(page.locator("#hint-note")).to_be_hidden()

    player.play_to_end()
    expect(button).to_be_disabled()
    player.tap(action_hook("highscores"))
    mine = page.locator('[data-difficulty-table="peaceful"] tbody tr.mine')
    expect(mine.locator("td").last).to_have_text("1")
