"""A dead board (``board_codes.dead``: no die can be staged on it again) has an exact V at any
stage of the game: every roll to the end is a MAGDAGDON and every empty cell a RUIN. The look-ahead
valued such boards a bad player leaves 60–70 points above what the computer then scores."""

from __future__ import annotations

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from test_value_exact import brute_force

from magdagdon.bots.endgame import EXACT_UPTO
from magdagdon.bots.ordered import ordered_sum
from magdagdon.bots.value import Values, walled_in
from magdagdon.engine import Difficulty, GameState, Phase, Reroll
from magdagdon.engine.board import NEIGHBOURS, RUIN_CODE, from_codes
from magdagdon.engine.board_codes import EMPTY, dead, fit_masks
from magdagdon.engine.dice import roll_chances

PEACEFUL, SURVIVAL, NIGHTMARE = Difficulty.PEACEFUL, Difficulty.SURVIVAL, Difficulty.NIGHTMARE

#: Two 6s walled in by RUINs with ten empty cells left: a risky player's game of seed 400 came
#: to this board on its sixth turn with every Power use in hand, and the computer then scored
#: -186 from it; the look-ahead's V was 25.3.
WALLED = (6, 6, 7, 7, 7, 7) + (EMPTY,) * 10


def _state(difficulty: Difficulty, codes: tuple[int, ...], used: int = 0) -> GameState:
    return GameState(difficulty, 1, board=from_codes(list(codes)), powers_used=used)


def test_a_walled_in_board_is_worth_its_ruins() -> None:
    state = _state(PEACEFUL, WALLED)
    assert dead(WALLED)
    assert all(state.roll_with(v).phase is Phase.MAGDAGDON for v, _ in roll_chances(4))
    assert walled_in(WALLED, 0) == -186.0
    values = Values()
    assert values.of(state) == -186.0
    # a decision there: the computer lays a RUIN, no Power (none places a die)
    magdagdon = state.roll_with((1, 2, 3, 4))
    assert values.of(magdagdon) == -186.0
    assert not isinstance(values.advice(magdagdon).action, Reroll)
    # a player's I-ROLL ULIT there pays its penalty and changes nothing else
    penalty = PEACEFUL.penalty_after(0)
    assert penalty is not None
    assert values.after_reroll(magdagdon, (0, 1)) == -186.0 - penalty


def test_dead_is_the_brute_force_with_powers() -> None:
    """Five empty cells on PEACEFUL (before its exact end), one Power use left: the best play
    over every legal action and every outcome, Powers included, is the walled-in score."""
    codes = (1, 7, 0, 0, 7, 6, 7, 0, 0, 7, 1, 7, 0, 7, 7, 7)
    assert codes.count(EMPTY) == EXACT_UPTO[PEACEFUL] + 1
    assert dead(codes)
    state = _state(PEACEFUL, codes, used=2)
    exact = walled_in(codes, state.power_penalty)
    assert Values().of(state) == exact
    assert brute_force(state, {}) == pytest.approx(exact, abs=1e-9)  # its sums of chances


def _walled(codes: list[int]) -> tuple[int, ...]:
    """``codes`` with a RUIN on every empty cell that accepts a die: a dead board once it holds
    a number."""
    masks = fit_masks(tuple(codes))
    return tuple(
        RUIN_CODE
        if code == EMPTY
        and masks[cell]
        and any(codes[n] not in (EMPTY, RUIN_CODE) for n in NEIGHBOURS[cell])
        else code
        for cell, code in enumerate(codes)
    )


def _board(numbers: dict[int, int], ruins: set[int]) -> tuple[int, ...]:
    codes = [RUIN_CODE if cell in ruins else EMPTY for cell in range(16)]
    for cell, value in numbers.items():
        codes[cell] = value
    return _walled(codes)


#: One or two numbers and a few RUINs, walled in: ten or so empty cells left, some of them
#: beside numbers that allow no value between them (a dead cell, not a wall).
boards = st.builds(
    _board,
    st.dictionaries(st.integers(0, 15), st.integers(1, 6), min_size=1, max_size=2),
    st.sets(st.integers(0, 15), max_size=2),
)


@settings(max_examples=25, deadline=None)
@given(boards, st.sampled_from((PEACEFUL, SURVIVAL, NIGHTMARE)))
def test_a_dead_roll_is_the_mean_of_its_outcomes(
    codes: tuple[int, ...], difficulty: Difficulty
) -> None:
    """On a dead board before the exact end the engine finds every roll a MAGDAGDON, and V is
    the mean over the outcomes of V of the computer's decision there: a chance node true to
    its step, not only the number it is written as."""
    state = _state(difficulty, codes)
    assume(dead(codes) and codes.count(EMPTY) > EXACT_UPTO[difficulty])
    values = Values()
    outcomes = [(state.roll_with(v), chance) for v, chance in roll_chances(4)]
    assert all(after.phase is Phase.MAGDAGDON for after, _ in outcomes)
    mean = ordered_sum(chance * values.of(after) for after, chance in outcomes)
    assert values.of(state) == walled_in(codes, 0)
    assert mean == pytest.approx(values.of(state), abs=1e-9)
