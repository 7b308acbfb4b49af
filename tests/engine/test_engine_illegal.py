"""Every illegal action raises its own code and leaves the state exactly as it was."""

from __future__ import annotations

import pytest
from engine_helpers import board_of, cell, expect_illegal, state_on

from magdagdon.engine import (
    Action,
    Adjust,
    Confirm,
    Difficulty,
    GameState,
    IllegalActionError,
    MalformedError,
    Phase,
    Reroll,
    Roll,
    Ruin,
    Stage,
    Unstage,
)

P, S, N = Difficulty.PEACEFUL, Difficulty.SURVIVAL, Difficulty.NIGHTMARE
THREE = ("3...", "....", "....", "....")


def _roll() -> GameState:
    return GameState.new(P, 1)


def _place() -> GameState:
    """Die 0 (a 4) staged at (0, 1); dice 1–3 (1, 6, 3) in the tray."""
    return state_on(P, THREE, (4, 1, 6, 3)).apply(Stage(0, cell(0, 1)))


def _magdagdon() -> GameState:
    s = state_on(P, ("1...", "....", "....", "...."), (4, 4, 6, 6))
    assert s.phase is Phase.MAGDAGDON
    return s


def _spent() -> GameState:
    return state_on(S, THREE, (4, 1, 6, 3)).apply(Adjust(1, 1))


def _over() -> GameState:
    s = GameState(P, 1, board=board_of("3333", "3333", "3333", "333."))
    return s.roll_with((3, 1, 1, 1)).apply(Stage(0, 15)).apply(Confirm())


CASES: list[tuple[str, object, Action, str]] = [
    ("roll", _roll, Stage(0, 0), "not_your_turn_phase"),
    ("roll", _roll, Unstage(0), "not_your_turn_phase"),
    ("roll", _roll, Confirm(), "not_your_turn_phase"),
    ("roll", _roll, Adjust(0, 1), "not_your_turn_phase"),
    ("roll", _roll, Reroll((0,)), "not_your_turn_phase"),
    ("roll", _roll, Ruin(0), "not_your_turn_phase"),
    ("place", _place, Roll(), "not_your_turn_phase"),
    ("place", _place, Ruin(cell(3, 3)), "not_your_turn_phase"),
    ("place", _place, Stage(4, 0), "unknown_die"),
    ("place", _place, Stage(-1, 0), "unknown_die"),
    ("place", _place, Stage(0, cell(1, 0)), "die_staged"),
    ("place", _place, Stage(1, cell(1, 0)), "invalid_cell"),  # a 1 next to a 3
    ("place", _place, Stage(3, cell(3, 3)), "invalid_cell"),  # no neighbour
    ("place", _place, Stage(3, cell(0, 0)), "invalid_cell"),  # a number
    ("place", _place, Stage(3, cell(0, 1)), "invalid_cell"),  # a staged die
    ("place", _place, Stage(3, 16), "invalid_cell"),
    ("place", _place, Stage(3, -1), "invalid_cell"),
    ("place", _place, Unstage(1), "die_not_staged"),
    ("place", _place, Unstage(9), "unknown_die"),
    ("place", _place, Confirm(), "below_minimum"),
    ("place", _place, Adjust(0, 1), "die_staged"),
    ("place", _place, Adjust(1, -1), "value_out_of_range"),
    ("place", _place, Adjust(2, 1), "value_out_of_range"),
    ("place", _place, Adjust(3, 3), "invalid_delta"),
    ("place", _place, Adjust(7, 1), "unknown_die"),
    ("place", _place, Reroll(()), "no_dice_chosen"),
    ("place", _place, Reroll((2, 2)), "duplicate_die"),
    ("place", _place, Reroll((0, 1)), "die_staged"),
    ("place", _place, Reroll((4,)), "unknown_die"),
    ("magdagdon", _magdagdon, Roll(), "not_your_turn_phase"),
    ("magdagdon", _magdagdon, Stage(0, cell(0, 1)), "not_your_turn_phase"),
    ("magdagdon", _magdagdon, Unstage(0), "not_your_turn_phase"),
    ("magdagdon", _magdagdon, Confirm(), "not_your_turn_phase"),
    ("magdagdon", _magdagdon, Ruin(0), "invalid_cell"),
    ("magdagdon", _magdagdon, Ruin(16), "invalid_cell"),
    ("spent", _spent, Adjust(2, -1), "no_powers_left"),
    ("spent", _spent, Reroll((2,)), "no_powers_left"),
    ("over", _over, Roll(), "game_over"),
    ("over", _over, Ruin(0), "game_over"),
]


@pytest.mark.parametrize(
    ("where", "make", "action", "code"), CASES, ids=[f"{w}-{a}-{c}" for w, _, a, c in CASES]
)
def test_illegal_action(where: str, make: object, action: Action, code: str) -> None:
    assert callable(make)
    state = make()
    assert isinstance(state, GameState)
    assert where
    expect_illegal(state, action, code)
    assert action not in list(state.legal_actions())


def test_every_code_is_covered() -> None:
    codes = {code for *_, code in CASES}
    assert codes == {
        "not_your_turn_phase",
        "game_over",
        "unknown_die",
        "die_staged",
        "die_not_staged",
        "invalid_cell",
        "below_minimum",
        "no_powers_left",
        "value_out_of_range",
        "invalid_delta",
        "no_dice_chosen",
        "duplicate_die",
    }


def test_roll_with_outside_roll_is_refused_and_bad_values_are_malformed() -> None:
    with pytest.raises(IllegalActionError):
        _place().roll_with((1, 1, 1, 1))
    with pytest.raises(MalformedError):
        _roll().roll_with((0, 1, 2, 3))
    with pytest.raises(MalformedError):
        _roll().roll_with((1, 2, 3))
    with pytest.raises(MalformedError):
        _place().reroll_with((1,), (7,))
