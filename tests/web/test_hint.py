"""The hint (data-action="hint"): its marks (class `hinted`, on cells and dice only) are exactly
what GET /api/games/{id}/hint recommends — the placement's cells with the faces to put there, the
die to return, the dice of a Power, the RUIN's cell — with one sentence naming the step and its cost
and the expected final score; it moves nothing on the screen, survives a language switch, stays
while the player follows it, and is counted only when it gave advice."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import pytest
from playwright.sync_api import expect

from magdagdon.bots.expectimax import ExpectimaxBot
from magdagdon.engine import Adjust, Difficulty, GameState, Phase, Reroll, Roll, Ruin, Stage
from web.web_helpers import action_hook, cell_hook, find_game

if TYPE_CHECKING:
    from web.web_helpers import Player

pytestmark = pytest.mark.browser

BUTTONS = ["roll", "confirm", "accept", "minus", "plus", "reroll", "new-game", "hint"]


def _seed_with_a_placement_hint() -> int:
    """The first seed whose first roll the bot answers with a placement of 3 dice or more."""
    bot = ExpectimaxBot()
    for seed in range(1, 200):
        if len(bot.advise(GameState.new(Difficulty.PEACEFUL, seed).apply(Roll())).placement) >= 3:
            return seed
    raise AssertionError("no seed found")


def expected_marks(hint: dict[str, Any], state: dict[str, Any]) -> tuple[set[str], set[int]]:
    """The cells and dice the hint points at: the steps of its placement not staged yet (the
    faces go on their cells, the dice of those values are marked in the tray), the die to return,
    the dice of a Power, the RUIN's cell."""
    cells: set[str] = set()
    dice: set[int] = set()
    value = {d["id"]: d["value"] for d in state["dice"]}
    action = hint["action"]
    if hint["placement"] and state["phase"] == "place":
        staged = [d for d in state["dice"] if d["cell"] is not None]
        done: set[int] = set()
        for step in hint["placement"]:
            there = [
                d
                for d in staged
                if d["id"] not in done
                and d["value"] == value[step["die"]]
                and d["cell"] == step["cell"]
            ]
            if there:
                done.add(there[0]["id"])
                continue
            cells.add("{}-{}".format(*step["cell"]))
            tray = [
                d["id"]
                for d in state["dice"]
                if d["cell"] is None and d["id"] not in dice and d["value"] == value[step["die"]]
            ]
            if tray:  # (a die staged elsewhere, to return first, is marked on the board)
                dice.add(step["die"] if step["die"] in tray else tray[0])
    if action["type"] == "unstage":
        cells.add(
            "{}-{}".format(*next(d["cell"] for d in state["dice"] if d["id"] == action["die"]))
        )
    elif action["type"] == "adjust":
        dice.add(action["die"])
    elif action["type"] == "reroll":
        dice.update(action["dice"])
    elif action["type"] == "ruin":
        cells.add("{}-{}".format(*action["cell"]))
    return cells, dice


def shown_marks(player: Player) -> tuple[set[str], set[int]]:
    page = player.page
    assert page.locator(".hinted:not(.cell):not(.die)").count() == 0
    cells = page.locator(".board .cell.hinted").evaluate_all("els => els.map(e => e.dataset.cell)")
    dice = page.locator(".tray .die.hinted").evaluate_all(
        "els => els.map(e => Number(e.dataset.die))"
    )
    return set(cells), set(dice)


def ask_hint(player: Player) -> dict[str, Any]:
    """Taps the hint button; answers the hint the page received."""
    with player.page.expect_response(lambda r: r.url.endswith("/hint")) as answer:
        player.tap(action_hook("hint"))
    hint: dict[str, Any] = answer.value.json()
    player.page.wait_for_selector("body[data-hint]")
    return hint


def boxes(player: Player) -> dict[str, Any]:
    found: dict[str, Any] = player.page.evaluate(
        """names => Object.fromEntries(names.map(n => {
            const el = [...document.querySelectorAll(`#actions [data-action="${n}"],
                #powers [data-action="${n}"]`)].find(e => e.offsetParent !== null);
            const r = el && el.getBoundingClientRect();
            return [n, r ? [r.x, r.y, r.width, r.height] : null];
        }).concat([["tray", (() => { const r = document.querySelector("#tray")
            .getBoundingClientRect(); return [r.x, r.y, r.width, r.height]; })()]]))""",
        BUTTONS,
    )
    return found


def check_marks(player: Player, hint: dict[str, Any]) -> None:
    state = player.api("GET", f"/api/games/{player.game_id}")
    assert shown_marks(player) == expected_marks(hint, state)


def test_the_hint_marks_the_placement_reads_at_a_glance_and_is_counted(player: Player) -> None:
    page = player.page
    player.seed_game(Difficulty.PEACEFUL, seed=_seed_with_a_placement_hint())
    message = page.locator("#message")

    # Before the roll: I-ROLL is the only move; the button is pointed at, nothing counted.
    hint = ask_hint(player)
    assert hint["action"] == {"type": "roll"}
    assert shown_marks(player) == (set(), set())
    expect(page.locator(action_hook("roll"))).to_have_class(re.compile(r"\bhint-button\b"))
    expect(message).to_contain_text("MUNGKAHI: I-ROLL na.")
    expect(message).to_contain_text("Inaasahang Final Score:")
    assert player.api("GET", f"/api/games/{player.game_id}")["hints_used"] == 0

    player.do(Roll())
    expect(page.locator(".hinted")).to_have_count(0)
    before = boxes(player)
    hint = ask_hint(player)
    assert hint["action"]["type"] == "stage"
    check_marks(player, hint)
    assert boxes(player) == before  # the hint moves nothing
    state = player.api("GET", f"/api/games/{player.game_id}")
    assert state["hints_used"] == 1
    values = {d["id"]: d["value"] for d in state["dice"]}
    for step in hint["placement"]:  # the face to put there, drawn big on the cell
        pips = page.locator(f"{cell_hook(step['cell'][0] * 4 + step['cell'][1])} .hint-face circle")
        expect(pips).to_have_count(values[step["die"]])
    n = len(hint["placement"])
    expect(message).to_contain_text(f"Ilagay ang {n} dice sa mga cell na may marka")
    total = round(hint["expected_value"])
    expect(message).to_contain_text(f"Inaasahang Final Score: {total}.")
    player.screenshot("hint")

    # Another language: the same marks, the sentence in English.
    player.menu("settings")
    player.tap('[data-lang="en"]')
    player.tap(action_hook("close"))
    check_marks(player, hint)
    expect(message).to_contain_text(f"HINT: Put the {n} dice on the marked cells")
    expect(message).to_contain_text(f"Expected final score: {total}.")
    player.screenshot("hint-english")

    # Following it: the marks of the steps left stay.
    first = hint["placement"][0]
    player.do(Stage(first["die"], first["cell"][0] * 4 + first["cell"][1]))
    check_marks(player, hint)
    assert len(shown_marks(player)[0]) == n - 1
    expect(message).to_contain_text(f"Put the {n - 1} dice" if n > 2 else "Put the die")

    player.play_turn()  # the turn ends: the hint goes
    expect(page.locator(".hinted")).to_have_count(0)
    expect(page.locator("body[data-hint]")).to_have_count(0)
    assert player.api("GET", f"/api/games/{player.game_id}")["hints_used"] == 1


def _power_state(state: GameState) -> bool:
    return state.phase is Phase.MAGDAGDON and state.powers_left == 3


@pytest.mark.parametrize("layout", ["phone"])  # the desktop: test_screens.py
def test_the_hint_names_the_power_and_its_cost_or_the_ruin(player: Player) -> None:
    seed, actions = find_game(Difficulty.PEACEFUL, _power_state)
    player.seed_game(Difficulty.PEACEFUL, seed)
    for action in actions:
        player.do(action)
    hint = ask_hint(player)
    check_marks(player, hint)
    message = player.page.locator("#message")
    expect(message).to_contain_text("MAGDAGDON")
    kind = hint["action"]["type"]
    if kind in ("adjust", "reroll"):
        expect(message).to_contain_text("−10 puntos")
        name = kind if kind == "reroll" else ("minus" if hint["action"]["delta"] < 0 else "plus")
        expect(player.page.locator(action_hook(name))).to_have_class(re.compile(r"hint-button"))
    else:
        assert kind == "ruin"
        expect(message).to_contain_text("gawing RUIN ang cell na may marka")
    player.screenshot("hint-magdagdon")
    assert player.mirror is not None
    if kind == "adjust":
        player.do(Adjust(hint["action"]["die"], hint["action"]["delta"]))
    elif kind == "reroll":
        player.do(Reroll(tuple(hint["action"]["dice"])))
    else:
        player.do(Ruin(hint["action"]["cell"][0] * 4 + hint["action"]["cell"][1]))
    expect(player.page.locator(".hinted")).to_have_count(0)


def _misplaced(state: GameState) -> Stage | None:
    """A stage outside the bot's placement for this roll (so the hint says to return it)."""
    if state.phase is not Phase.PLACE or state.turn < 3:
        return None
    advice = ExpectimaxBot().advise(state)
    if not advice.placement:
        return None
    planned = {(state.dice[d], c) for d, c in advice.placement}
    for action in state.legal_actions():
        if isinstance(action, Stage) and (state.dice[action.die], action.cell) not in planned:
            return action
    return None


@pytest.mark.parametrize("layout", ["phone"])  # the desktop: test_screens.py
def test_the_hint_marks_the_die_to_return_on_the_board(player: Player) -> None:
    seed, actions = find_game(Difficulty.NIGHTMARE, lambda s: _misplaced(s) is not None, turns=4)
    player.seed_game(Difficulty.NIGHTMARE, seed)
    for action in actions:
        player.do(action)
    assert player.mirror is not None
    wrong = _misplaced(player.mirror)
    assert wrong is not None
    player.do(wrong)
    hint = ask_hint(player)
    assert hint["action"] == {"type": "unstage", "die": wrong.die}
    check_marks(player, hint)
    cell = player.page.locator(cell_hook(wrong.cell))
    expect(cell).to_have_class(re.compile(r"\bhinted\b"))
    expect(cell.locator(".hint-face")).to_have_text("↩")
    expect(player.page.locator("#message")).to_contain_text("Kunin mula sa board ang")
    player.screenshot("hint-return")
