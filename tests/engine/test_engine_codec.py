"""The JSON codec (docs/api.md's action form) and replay: seed + actions reproduce a game."""

from __future__ import annotations

from typing import Any

import pytest
from engine_helpers import board_of, cell, state_on

from magdagdon.engine import (
    Action,
    Adjust,
    Confirm,
    Difficulty,
    GameState,
    MalformedError,
    Phase,
    Reroll,
    Roll,
    Ruin,
    Stage,
    Unstage,
    action_from_json,
    action_to_json,
    die_value,
    replay,
    state_from_json,
    state_to_json,
)

P = Difficulty.PEACEFUL

ACTIONS: list[tuple[Action, dict[str, Any]]] = [
    (Roll(), {"type": "roll"}),
    (Stage(1, cell(2, 3)), {"type": "stage", "die": 1, "cell": [2, 3]}),
    (Unstage(2), {"type": "unstage", "die": 2}),
    (Confirm(), {"type": "confirm"}),
    (Adjust(0, -1), {"type": "adjust", "die": 0, "delta": -1}),
    (Adjust(3, 1), {"type": "adjust", "die": 3, "delta": 1}),
    (Reroll((0, 2)), {"type": "reroll", "dice": [0, 2]}),
    (Ruin(cell(3, 0)), {"type": "ruin", "cell": [3, 0]}),
]


@pytest.mark.parametrize(("action", "data"), ACTIONS)
def test_action_json_form(action: Action, data: dict[str, Any]) -> None:
    assert action_to_json(action) == data
    assert action_from_json(data) == action


@pytest.mark.parametrize(
    "data",
    [
        None,
        [],
        "roll",
        {},
        {"type": "jump"},
        {"type": "stage", "die": 0},
        {"type": "stage", "die": 0, "cell": [4, 0]},
        {"type": "stage", "die": 0, "cell": [0]},
        {"type": "stage", "die": 0, "cell": "a1"},
        {"type": "stage", "die": "0", "cell": [0, 0]},
        {"type": "unstage"},
        {"type": "adjust", "die": 0},
        {"type": "reroll", "dice": 0},
        {"type": "reroll", "dice": ["0"]},
        {"type": "ruin", "cell": [0, -1]},
    ],
)
def test_malformed_actions(data: Any) -> None:
    with pytest.raises(MalformedError):
        action_from_json(data)


def _states() -> list[GameState]:
    new = GameState.new(P, seed=8)
    place = state_on(P, ("3...", "....", "....", "...."), (4, 5, 3, 1))
    staged = place.apply(Stage(0, cell(0, 1))).apply(Stage(1, cell(0, 2)))
    magdagdon = state_on(P, ("1...", "....", "....", "...."), (4, 4, 6, 6)).apply(Adjust(0, 1))
    over = (
        GameState(P, 1, board=board_of("3333", "3333", "3333", "333."))
        .roll_with((3, 1, 1, 1))
        .apply(Stage(0, 15))
        .apply(Confirm())
    )
    return [new, new.apply(Roll()), place, staged, magdagdon, over]


def test_state_round_trip_in_every_phase() -> None:
    phases = set()
    for s in _states():
        data = state_to_json(s)
        back = state_from_json(data)
        assert back == s
        assert back.live == s.live
        assert back.valid_cells() == s.valid_cells()
        phases.add(s.phase)
    assert phases == set(Phase)


def test_malformed_states() -> None:
    good = state_to_json(_states()[3])
    for broken in (
        {},
        {**good, "format": 99},
        {**good, "board": [0] * 15},
        {**good, "board": [9] * 16},
        {**good, "phase": "sleeping"},
        {**good, "difficulty": "easy"},
        {**good, "dice": [1, 2, 3]},
        {**good, "dice": [0, 2, 3, 4]},
        {**good, "order": [*good["order"], good["order"][0]]},
        {**good, "order": good["order"][:-1]},
        {**good, "staged": [16, -1, -1, -1], "order": [0]},
        {**good, "staged": [5, 5, -1, -1], "order": [0, 1]},
        {**good, "board": [1] * 16},
        {**good, "min_required": good["min_required"] + 1},  # not the board's
    ):
        with pytest.raises(MalformedError):
            state_from_json(broken)


def test_replay_reproduces_the_game_rerolls_included() -> None:
    log: list[Action] = [Roll()]
    s = GameState.new(P, seed=77).apply(Roll())
    s2 = s.apply(Reroll((0, 1, 2, 3)))
    log.append(Reroll((0, 1, 2, 3)))
    assert replay(P, 77, log) == s2
    other = replay(P, 78, log)
    assert other.seed == 78
    assert other.dice == tuple(die_value(78, i) for i in range(4, 8))
    assert s2.dice == tuple(die_value(77, i) for i in range(4, 8))
    # the same seed gives the same dice however the state was stored in between
    restored = state_from_json(state_to_json(s2))
    assert restored.apply(Reroll((1,))) == s2.apply(Reroll((1,)))


def test_a_reroll_is_a_set_of_dice() -> None:
    assert Reroll((2, 0)) == Reroll((0, 2))
    assert Reroll((3, 1, 0)).dice == (0, 1, 3)
    state = GameState.new(Difficulty.PEACEFUL, seed=4).apply(Roll())
    assert Reroll((2, 0)) in state.legal_actions()
    assert state.apply(Reroll((2, 0))) == state.apply(Reroll((0, 2)))
