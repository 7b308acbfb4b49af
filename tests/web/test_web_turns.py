"""A turn's moments by taps: MAGDAGDON and a RUIN, every Power, the return of a staged die with
its cascade, and the stuck message."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
from playwright.sync_api import expect

from magdagdon.engine import (
    Action,
    Adjust,
    Difficulty,
    GameState,
    Phase,
    Reroll,
    Roll,
    Ruin,
    Stage,
    Unstage,
)
from plans import cascade_pair
from web.web_helpers import action_hook, cell_hook, die_hook, find_game

if TYPE_CHECKING:
    from web.web_helpers import Player

pytestmark = pytest.mark.browser


def reach(player: Player, difficulty: Difficulty, seed: int, actions: list[Action]) -> None:
    player.seed_game(difficulty, seed)
    for action in actions:
        player.do(action)


def test_magdagdon_is_announced_accepted_and_a_ruin_placed(player: Player) -> None:
    seed, actions = find_game(Difficulty.PEACEFUL, lambda s: s.phase is Phase.MAGDAGDON)
    reach(player, Difficulty.PEACEFUL, seed, actions)
    page = player.page
    banner = page.locator("#message.banner")
    expect(banner).to_be_visible()
    expect(banner).to_contain_text("MAGDAGDON")
    expect(page.locator("#live")).to_contain_text("MAGDAGDON")
    expect(page.locator(action_hook("confirm"))).to_be_hidden()
    expect(page.locator(".cell.ruinable")).to_have_count(0)
    player.screenshot("magdagdon")

    player.tap(action_hook("accept"))
    state = player.state()
    ruinable = {f"{r}-{c}" for r, c in state["ruinable"]}
    lit = set(page.locator(".cell.ruinable").evaluate_all("els => els.map(e => e.dataset.cell)"))
    assert lit == ruinable
    assert len(ruinable) == 16 - sum(cell is not None for row in state["board"] for cell in row)
    player.screenshot("magdagdon-accepted")

    assert player.mirror is not None
    target = player.mirror.empty_cells()[-1]
    player.do(Ruin(target))
    cell = page.locator(cell_hook(target))
    assert "ruin" in player.classes(cell_hook(target))
    expect(cell).to_have_text("RUIN")
    expect(cell).to_have_attribute(
        "aria-label", f"row {target // 4 + 1}, column {target % 4 + 1}: RUIN"
    )
    assert player.state()["score"]["ruins"] == 1


def test_every_power_shows_its_cost_and_changes_the_dice(player: Player) -> None:
    player.seed_game(Difficulty.PEACEFUL, seed=11)
    player.do(Roll())
    page = player.page
    mirror = player.mirror
    assert mirror is not None
    assert mirror.phase is Phase.PLACE

    # Each tray die enables BAWAS / DAGDAG exactly as the state's `adjust` says.
    state = player.state()
    for die in range(4):
        player.tap(die_hook(die))
        allowed = state["adjust"][str(die)]
        assert page.locator(action_hook("minus")).is_enabled() == (-1 in allowed)
        assert page.locator(action_hook("plus")).is_enabled() == (1 in allowed)
    expect(page.locator(action_hook("plus"))).to_contain_text("−10")
    player.screenshot("powers")

    up = next(a for a in mirror.legal_actions() if isinstance(a, Adjust) and a.delta == 1)
    value = mirror.dice[up.die]
    player.do(up)
    assert player.state()["dice"][up.die]["value"] == value + 1
    expect(page.locator(action_hook("plus"))).to_contain_text("−20")

    mirror = player.mirror
    assert mirror is not None
    down = next(a for a in mirror.legal_actions() if isinstance(a, Adjust) and a.delta == -1)
    value = mirror.dice[down.die]
    player.do(down)
    assert player.state()["dice"][down.die]["value"] == value - 1
    expect(page.locator(action_hook("reroll"))).to_contain_text("−40")

    player.tap(action_hook("reroll"))  # the selected die comes chosen; a tap lets it go
    expect(page.locator(".die.picked")).to_have_count(1)
    player.tap(die_hook(down.die))
    expect(page.locator(".die.picked")).to_have_count(0)
    expect(page.locator(action_hook("reroll"))).to_be_disabled()
    player.tap(die_hook(0))
    player.tap(die_hook(2))
    expect(page.locator(action_hook("reroll"))).to_contain_text("2 napili")
    player.tap(action_hook("cancel"))
    expect(page.locator(".die.picked")).to_have_count(0)
    player.do(Reroll((0, 2)))
    state = player.state()
    assert state["powers"] == {
        "total": 3,
        "used": 3,
        "left": 0,
        "penalty": 70,
        "next_penalty": None,
    }
    for name in ("minus", "plus", "reroll"):
        expect(page.locator(action_hook(name))).to_be_disabled()


def _cascade(state: GameState) -> bool:
    if state.phase is not Phase.PLACE or state.turn < 2:
        return False
    return cascade_pair(state) is not None


@pytest.mark.parametrize("layout", ["phone"])  # the desktop: test_screens.py
def test_a_staged_die_returns_to_the_tray_with_its_cascade(player: Player) -> None:
    seed, actions = find_game(Difficulty.PEACEFUL, _cascade)
    reach(player, Difficulty.PEACEFUL, seed, actions)
    assert player.mirror is not None
    pair = cascade_pair(player.mirror)
    assert pair is not None
    first, second = pair
    player.do(first)
    player.do(second)
    assert "staged" in player.classes(cell_hook(second.cell))
    player.screenshot("staged")
    player.do(Unstage(first.die))
    for stage in pair:
        assert "staged" not in player.classes(cell_hook(stage.cell))
        expect(player.page.locator(die_hook(stage.die))).to_be_enabled()
    assert all(die["cell"] is None for die in player.state()["dice"])


def _stuck_stage(state: GameState) -> Stage | None:
    if state.phase is not Phase.PLACE or state.order:
        return None
    for action in state.legal_actions():
        if isinstance(action, Stage) and state.apply(action).stuck:
            return action
    return None


@pytest.mark.parametrize("layout", ["phone"])  # the desktop: test_screens.py
def test_the_stuck_message_asks_to_return_a_die(player: Player) -> None:
    seed, actions = find_game(Difficulty.NIGHTMARE, lambda s: _stuck_stage(s) is not None)
    reach(player, Difficulty.NIGHTMARE, seed, actions)
    assert player.mirror is not None
    stage = _stuck_stage(player.mirror)
    assert stage is not None
    page = player.page
    expect(page.locator("#message.stuck")).to_have_count(0)
    player.do(stage)
    message = page.locator("#message.stuck")
    expect(message).to_be_visible()
    expect(message).to_contain_text("Ibalik")
    expect(page.locator(action_hook("confirm"))).to_be_disabled()
    player.screenshot("stuck")
    player.do(Unstage(stage.die))
    expect(page.locator("#message.stuck")).to_have_count(0)
