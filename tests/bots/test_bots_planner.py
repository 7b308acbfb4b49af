"""The planner's chance that a roll is a MAGDAGDON, against the engine's search."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from magdagdon.bots.planner import ROLL_CHANCES, ROLL_VALUES, magdagdon_chance
from magdagdon.engine import cell_of
from magdagdon.engine.board import from_codes
from magdagdon.engine.search import can_place


def test_one_cell_next_to_a_1_takes_a_1_or_a_2() -> None:
    codes = [7] * 16  # RUINs everywhere but two cells
    codes[cell_of(0, 0)], codes[cell_of(0, 1)] = 1, 0
    # Minimum 1: the roll fails when none of its four dice is a 1 or a 2.
    assert magdagdon_chance(tuple(codes), 1) == pytest.approx(float(Fraction(4, 6) ** 4))


def test_a_full_board_and_a_minimum_of_zero() -> None:
    full = (3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 6, 6, 6, 6)
    assert magdagdon_chance(full, 0) == 0.0
    assert magdagdon_chance(full, 1) == pytest.approx(1.0)


def test_two_cells_apart_need_two_dice_that_fit_both() -> None:
    codes = [7] * 16
    # A 6 with an empty cell on each side of it: each takes a 5 or a 6.
    codes[cell_of(1, 0)], codes[cell_of(1, 1)], codes[cell_of(1, 2)] = 0, 6, 0
    placeable = sum(
        chance
        for values, chance in zip(ROLL_VALUES, ROLL_CHANCES, strict=True)
        if sum(1 for v in values if v >= 5) >= 2
    )
    assert magdagdon_chance(tuple(codes), 2) == pytest.approx(1.0 - placeable)


@settings(max_examples=60, deadline=None)
@given(
    codes=st.lists(st.sampled_from([0, 0, 0, 1, 2, 3, 4, 5, 6, 7]), min_size=16, max_size=16),
    minimum=st.integers(1, 4),
)
def test_the_magdagdon_chance_is_the_chance_of_the_rolls_the_search_refuses(
    codes: list[int], minimum: int
) -> None:
    board = from_codes(codes)
    refused = sum(
        chance
        for values, chance in zip(ROLL_VALUES, ROLL_CHANCES, strict=True)
        if not can_place(board, values, minimum)
    )
    assert magdagdon_chance(tuple(codes), minimum) == pytest.approx(refused)
