"""The order the dice lie in the tray decides nothing: the same board, Power uses and dice
values are one position, with one V and one decision (the same values on the same cells, the
same Power on a die of the same value). The look-ahead searches only its best two BAWAS −1 /
DAGDAG +1 and its best boards by evaluation; ties among them were once broken by the dice's
order, and the same first roll of PEACEFUL said 438.7 in one order and 421.0 in another; the
exact end, V the same, placed the same dice on other cells."""

from __future__ import annotations

from itertools import permutations
from typing import TYPE_CHECKING

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from magdagdon.bots.advice import Advice
from magdagdon.bots.value import Values
from magdagdon.engine import Adjust, Difficulty, GameState, Phase, Reroll
from magdagdon.engine.board import from_codes

if TYPE_CHECKING:
    import random

PEACEFUL, SURVIVAL, NIGHTMARE = Difficulty.PEACEFUL, Difficulty.SURVIVAL, Difficulty.NIGHTMARE


def _decision(state: GameState) -> tuple[float, object]:
    """V at ``state`` and its decision told by dice values, not by the dice's places."""
    value, advice = Values().judge(state)
    assert isinstance(advice, Advice)
    dice, action = state.dice, advice.action
    if isinstance(action, Adjust):
        said: object = ("adjust", dice[action.die], action.delta)
    elif isinstance(action, Reroll):
        said = ("reroll", tuple(sorted(dice[d] for d in action.dice)))
    elif advice.placement:
        said = ("place", tuple(sorted((dice[d], cell) for d, cell in advice.placement)))
    else:
        said = ("ruin", action)
    return value, said


def _rows(rows: str, difficulty: Difficulty = PEACEFUL, used: int = 0) -> GameState:
    """A phase roll on the board of ``rows`` (``.`` empty, ``x`` a RUIN)."""
    codes = [int(c) for c in rows.replace(" ", "").replace(".", "0").replace("x", "7")]
    return GameState(difficulty, 1, board=from_codes(codes), powers_used=used)


@pytest.mark.parametrize(
    ("difficulty", "board", "dice"),
    [
        # The first roll: staging the 5 and the 4, or DAGDAG +1 on the 2, by the tray's order.
        (PEACEFUL, "....  ....  ....  ....", (5, 1, 4, 2)),
        # Mid-game: a placement in one order, DAGDAG +1 in another.
        (PEACEFUL, ".6..  .555  .44.  .3..", (4, 1, 6, 2)),
        # The exact end: two placements of equal value, the first found in die order.
        (NIGHTMARE, "x4..  x34x  123.  112x", (4, 3, 3, 4)),
    ],
)
def test_every_order_of_a_roll_is_one_position(
    difficulty: Difficulty, board: str, dice: tuple[int, ...]
) -> None:
    state = _rows(board, difficulty)
    found = {_decision(state.roll_with(order)) for order in set(permutations(dice))}
    assert len(found) == 1, found


positions = st.tuples(
    st.sampled_from([PEACEFUL, SURVIVAL, NIGHTMARE]),
    st.sampled_from(
        [
            "....  ....  ....  ....",
            "....  .5..  .4..  ....",
            ".6..  .55.  .4..  ....",
            ".6..  .555  .44.  .3..",
            ".6..  5555  4444  .33.",
            "..5.  .54.  543.  ....",
            "x...  .34.  .3..  ....",
        ]
    ),
    st.integers(0, 2),
    st.lists(st.integers(1, 6), min_size=4, max_size=4).map(tuple),
    st.randoms(use_true_random=False),
)


@settings(max_examples=25, deadline=None)
@given(positions)
def test_the_dice_order_changes_neither_v_nor_the_decision(
    position: tuple[Difficulty, str, int, tuple[int, ...], random.Random],
) -> None:
    difficulty, board, used, dice, rng = position
    codes = [int(c) for c in board.replace(" ", "").replace(".", "0").replace("x", "7")]
    start = GameState(
        difficulty, 1, board=from_codes(codes), powers_used=min(used, difficulty.power_uses)
    )
    state = start.roll_with(dice)
    shuffled = list(dice)
    rng.shuffle(shuffled)
    other = start.roll_with(tuple(shuffled))
    if state.phase is Phase.OVER:
        return
    assert _decision(state) == _decision(other)


@pytest.mark.parametrize(
    ("board", "dice"),
    [
        ("....  ....  ....  ....", (5, 1, 4, 2)),  # a placement in one order, a Power in another
        (".6..  .555  .44.  .3..", (4, 1, 6, 2)),
    ],
)
def test_v_kept_for_one_order_serves_another_and_the_advice_is_that_order_s(
    board: str, dice: tuple[int, ...]
) -> None:
    """V is kept by the position in any order of its dice (an exact mean's outcomes meet the
    same position in other orders); the advice, which names dice by their places, is not."""
    start = _rows(board)
    orders = sorted(set(permutations(dice)))
    values = Values()
    asked: list[tuple[int, ...]] = []
    advise = values.bot.advise

    def counted(state: GameState) -> Advice:
        asked.append(state.dice)
        return advise(state)

    values.bot.advise = counted  # type: ignore[method-assign]
    first = values.of(start.roll_with(orders[0]))
    searched = len(asked)
    for order in orders:
        assert values.of(start.roll_with(order)) == first
    assert len(asked) == searched  # every other order found without a search
    for order in orders:
        state = start.roll_with(order)
        fresh = Values()
        assert first == fresh.of(state)
        assert values.advice(state) == fresh.advice(state), order


def test_an_exact_mean_searches_the_dice_of_each_outcome_in_order() -> None:
    """A reroll's outcomes lie in the tray's order, the kept dice where they were, and a
    BAWAS −1 / DAGDAG +1 changes a die where it lies: V asks the look-ahead for each position's
    dice in order, so the same dice on the same board are searched once, however they lie and
    at each Power use left (what a review's exact means spend their time on)."""
    state = _rows(".6..  .555  .44.  .3..").roll_with((2, 5, 1, 6))
    values = Values()
    searched: list[tuple[int, ...]] = []
    search = values.bot._searched

    def counted(
        codes: tuple[int, ...], dice: tuple[int, ...], min_required: int
    ) -> tuple[object, ...]:
        searched.append(dice)
        return search(codes, dice, min_required)

    values.bot._searched = counted  # type: ignore[assignment,method-assign]
    mean = values.expected(state, (1, 3))  # the 5 and the 6 in the air, the 2 and the 1 kept
    assert len(searched) > 100  # the 21 outcomes, and the Powers weighed and used at them
    assert all(list(dice) == sorted(dice) for dice in searched)
    assert mean == Values().expected(state, (1, 3))
