"""The MAGDAGDON search (``search.can_place``) against the from-scratch brute force."""

from __future__ import annotations

from engine_helpers import codes_of, ref_can_place
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from magdagdon.engine.board import EMPTY_BOARD, FULL, frame_of, frame_valid, from_codes
from magdagdon.engine.search import can_place, roll_masks, search_frame

cells = st.lists(
    st.one_of(st.just(0), st.integers(0, 7), st.sampled_from([3, 4])), min_size=16, max_size=16
)
rolls = st.tuples(*[st.integers(1, 6)] * 4)


@settings(max_examples=400, deadline=None)
@given(codes=cells, dice=rolls, need=st.integers(1, 3))
def test_can_place_matches_the_brute_force(
    codes: list[int], dice: tuple[int, ...], need: int
) -> None:
    expected = ref_can_place(codes, dice, need)
    board = from_codes(codes)
    assert can_place(board, dice, need) == expected
    assert search_frame(frame_of(board), dice, need) == expected  # the same, no answers kept


@settings(max_examples=600, deadline=None)
@given(
    codes=cells, dice=st.one_of(rolls, st.tuples(*[st.integers(1, 6)] * 3)), need=st.integers(1, 3)
)
def test_roll_masks_is_the_search_and_each_dies_valid_cells(
    codes: list[int], dice: tuple[int, ...], need: int
) -> None:
    frame = frame_of(from_codes(codes))
    near = frame & FULL
    assume(near)  # roll_masks is for boards with a number
    masks = roll_masks(frame, near, dice, need)
    if ref_can_place(codes, dice, need):
        assert masks == tuple(frame_valid(frame, value) for value in dice)
    else:
        assert masks is None


def test_roll_masks_literal_case() -> None:
    frame = frame_of(from_codes(codes_of("3...", "....", "....", "....")))
    right, below = 1 << 1, 1 << 4
    for need in (1, 2, 3):  # 4 right of the 3, 3 right of the 4, 2 below the 3
        assert roll_masks(frame, frame & FULL, (4, 2, 6, 3), need) == (right | below,) * 2 + (
            0,
            right | below,
        )
    assert roll_masks(frame, frame & FULL, (6, 6, 1, 1), 2) is None
    assert roll_masks(frame, frame & FULL, (6, 6, 1, 1), 1) is None
    # Two 2s fit around the 3, but no 6 can follow them: two dice, not three.
    assert roll_masks(frame, frame & FULL, (2, 6, 2, 6), 2) == (right | below, 0) * 2
    assert roll_masks(frame, frame & FULL, (2, 6, 2, 6), 3) is None


def test_can_place_literal_cases() -> None:
    assert can_place(EMPTY_BOARD, (1, 3, 5, 1), 2)
    assert not can_place(EMPTY_BOARD, (1, 3, 5, 1), 3)
    assert not can_place(EMPTY_BOARD, (1, 1, 6, 6), 3)
    assert can_place(EMPTY_BOARD, (1, 2, 3, 6), 3)
    # RUINs split the board: a 4 and a 5 in a pocket of two cells, the rest walled off
    pocket = codes_of("..RR", "RRRR", "RR..", "RR..")
    assert can_place(from_codes(pocket), (4, 5, 1, 1), 2)
    corridor = codes_of("3..R", "RRRR", "RRRR", "RRRR")
    assert can_place(from_codes(corridor), (5, 4, 1, 1), 2)  # the 4 first, then the 5
    assert not can_place(from_codes(corridor), (5, 6, 1, 1), 2)
    assert not can_place(from_codes(corridor), (5, 4, 1, 1), 3)  # only two empty cells
