"""The rules on the cell-code form of a board, and the chance outcomes, as the bots ask them.

Each is checked against the reference written from docs/rules.md (``engine_helpers``), so the bots'
search and the game's own checks answer from one reading of the rules.
"""

from __future__ import annotations

from collections import Counter
from itertools import product

import pytest
from engine_helpers import (
    RUIN,
    codes_of,
    is_number,
    neighbours,
    ref_can_place,
    ref_score,
    ref_valid_cells,
)
from hypothesis import example, given
from hypothesis import strategies as st

from magdagdon.engine import Difficulty, GameState, Roll
from magdagdon.engine.board import frame_place, frame_valid, iter_cells
from magdagdon.engine.board_codes import (
    BESIDE,
    fit_masks,
    frame_of_codes,
    images,
    live_masks,
    mask_values,
    put,
    ruin_boards,
)
from magdagdon.engine.dice import roll_chances, roll_expectation, roll_outcomes
from magdagdon.engine.rules import DELTAS, adjusted, may_touch, min_required
from magdagdon.engine.scoring import board_points
from magdagdon.engine.search import can_place_frame

boards = st.lists(st.integers(0, 7), min_size=16, max_size=16).map(tuple)


def _ref_fits(codes: tuple[int, ...], cell: int) -> tuple[int, ...]:
    """The values within 1 of every number beside ``cell`` (any, with no number beside it)."""
    near = [codes[n] for n in neighbours(cell) if is_number(codes[n])]
    return tuple(v for v in range(1, 7) if all(abs(v - w) <= 1 for w in near))


@given(codes=boards)
def test_fit_masks_are_the_values_within_one_of_every_neighbouring_number(
    codes: tuple[int, ...],
) -> None:
    masks = fit_masks(codes)
    for cell in range(16):
        if codes[cell]:
            assert masks[cell] == -1
        else:
            assert mask_values(masks[cell]) == _ref_fits(codes, cell)


def test_a_cell_between_a_3_and_a_5_fits_a_4_only_and_between_a_1_and_a_4_nothing() -> None:
    masks = fit_masks(tuple(codes_of("3.5.", "....", "1R4.", "....")))
    assert mask_values(masks[1]) == (4,)
    assert masks[2 * 4 + 1] == -1  # the RUIN
    assert mask_values(masks[1 * 4 + 2]) == (4, 5)  # a 5 above, a 4 below
    assert mask_values(masks[3 * 4 + 0]) == (1, 2)
    codes = tuple(codes_of("1.4.", "....", "....", "...."))
    assert fit_masks(codes)[1] == 0  # no value is within 1 of both: it will be a RUIN


def test_beside_lists_the_values_within_one_of_a_number_and_any_value_beside_no_number() -> None:
    assert [mask_values(BESIDE[code]) for code in range(8)] == [
        (1, 2, 3, 4, 5, 6),
        (1, 2),
        (1, 2, 3),
        (2, 3, 4),
        (3, 4, 5),
        (4, 5, 6),
        (5, 6),
        (1, 2, 3, 4, 5, 6),
    ]
    assert all(
        may_touch(a, b) == bool(BESIDE[a] >> (b - 1) & 1) for a, b in product(range(1, 7), repeat=2)
    )


@given(codes=boards)
@example(codes=(RUIN,) * 6 + (0,) * 10)  # no number yet: every empty cell, every value
@example(codes=(0,) * 16)
def test_live_masks_are_the_values_a_die_may_be_staged_with_cell_by_cell(
    codes: tuple[int, ...],
) -> None:
    """On every board, with a number or none: the cells of ``live_masks`` are the cells the
    reference lets some value be staged on, in order, each with the values it lets there."""
    valid = {value: ref_valid_cells(list(codes), value) for value in range(1, 7)}
    live = [cell for cell in range(16) if any(cell in cells for cells in valid.values())]
    assert [mask_values(mask) for mask in live_masks(codes)] == [
        tuple(value for value in range(1, 7) if cell in valid[value]) for cell in live
    ]


@given(codes=boards)
def test_the_frame_of_codes_gives_the_valid_cells_of_the_reference(codes: tuple[int, ...]) -> None:
    frame = frame_of_codes(codes)
    for value in range(1, 7):
        cells = iter_cells(frame_valid(frame, value))
        assert cells == ref_valid_cells(list(codes), value)
        for cell in cells[:2]:  # and after placing there, as the planner walks on
            after = put(codes, cell, value)
            moved = frame_place(frame, cell, value)
            assert iter_cells(frame_valid(moved, 3)) == ref_valid_cells(list(after), 3)


@given(codes=boards, dice=st.lists(st.integers(1, 6), min_size=4, max_size=4).map(tuple))
def test_can_place_on_the_frame_of_codes_is_the_reference_s(
    codes: tuple[int, ...], dice: tuple[int, ...]
) -> None:
    need = min_required(3, codes.count(0))
    assert can_place_frame(frame_of_codes(codes), dice, need) == ref_can_place(
        list(codes), dice, need
    )


def test_ruin_boards_put_a_ruin_on_each_empty_cell_in_order() -> None:
    codes = tuple(codes_of("1234", "R...", "....", "...6"))
    ruined = ruin_boards(codes)
    empty = [c for c in range(16) if codes[c] == 0]
    assert len(ruined) == len(empty) == 10
    for cell, board in zip(empty, ruined, strict=True):
        assert board == put(codes, cell, RUIN)
        assert board_points(board) == ref_score(list(board), 0)


def test_images_are_the_eight_turns_and_mirrors_of_the_board() -> None:
    codes = tuple(range(16))  # every cell a different code: each image is a permutation
    found = images(codes)
    assert found[0] == codes
    assert len(set(found)) == 8
    assert (3, 7, 11, 15, 2, 6, 10, 14, 1, 5, 9, 13, 0, 4, 8, 12) in found  # a quarter turn
    assert (3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12) in found  # a mirror
    for image in found:  # neighbours stay neighbours
        where = {code: cell for cell, code in enumerate(image)}
        for cell in range(16):
            assert {where[n] for n in neighbours(cell)} == set(neighbours(where[cell]))


@given(codes=st.lists(st.integers(1, 7), min_size=16, max_size=16).map(tuple))
def test_every_image_of_a_full_board_scores_the_same(codes: tuple[int, ...]) -> None:
    assert {board_points(image) for image in images(codes)} == {ref_score(list(codes), 0)}


@pytest.mark.parametrize("count", [1, 2, 3, 4])
def test_roll_chances_are_the_exact_probabilities(count: int) -> None:
    counts = Counter(tuple(sorted(r)) for r in product(range(1, 7), repeat=count))
    chances = roll_chances(count)
    assert [values for values, _ in chances] == [values for values, _ in roll_outcomes(count)]
    assert dict(chances) == {values: ways / 6**count for values, ways in counts.items()}
    assert sum(chance for _, chance in chances) == pytest.approx(1.0, abs=1e-12)


def test_a_state_s_chance_outcomes_are_the_roll_chances_of_four_dice() -> None:
    state = GameState.new(Difficulty.NIGHTMARE, 4)
    assert state.chance_outcomes() == roll_chances(4)
    assert state.apply(Roll()).chance_outcomes() == ()


def test_roll_expectation_weighs_each_outcome_by_its_ways() -> None:
    assert roll_expectation(2, sum) == 7.0
    assert roll_expectation(3, max) == pytest.approx(
        sum(max(r) for r in product(range(1, 7), repeat=3)) / 216
    )
    assert roll_expectation(4, lambda values: float(values == (6, 6, 6, 6))) == 1 / 1296


def test_bawas_and_dagdag_stay_within_one_to_six() -> None:
    assert DELTAS == (-1, 1)
    assert [adjusted(v, -1) for v in range(1, 7)] == [None, 1, 2, 3, 4, 5]
    assert [adjusted(v, 1) for v in range(1, 7)] == [2, 3, 4, 5, 6, None]


def test_the_next_power_penalty_by_uses_made() -> None:
    assert [Difficulty.PEACEFUL.penalty_after(u) for u in range(4)] == [10, 20, 40, None]
    assert [Difficulty.SURVIVAL.penalty_after(u) for u in range(2)] == [70, None]
    assert Difficulty.NIGHTMARE.penalty_after(0) is None
