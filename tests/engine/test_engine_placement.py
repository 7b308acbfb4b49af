"""docs/rules.md "Board" and "Valid placement": neighbours, the first die, ±1 against every
neighbour."""

from __future__ import annotations

import pytest
from engine_helpers import (
    board_of,
    cell,
    codes_of,
    expect_illegal,
    live_codes,
    ref_valid_cells,
    state_on,
)

from magdagdon.engine import Difficulty, Phase, Stage, cell_of, row_col
from magdagdon.engine.board import NEIGHBOURS, frame_of, frame_valid, from_codes, to_codes

P = Difficulty.PEACEFUL
EMPTY_ROWS = ("....", "....", "....", "....")


def test_cells_are_row_times_four_plus_column() -> None:
    assert [cell_of(r, c) for r in range(4) for c in range(4)] == list(range(16))
    assert [row_col(c) for c in range(16)] == [(r, c) for r in range(4) for c in range(4)]


def test_neighbours_share_a_side_never_a_diagonal() -> None:
    assert sorted(NEIGHBOURS[cell(0, 0)]) == [cell(0, 1), cell(1, 0)]
    assert sorted(NEIGHBOURS[cell(0, 2)]) == [cell(0, 1), cell(0, 3), cell(1, 2)]
    assert sorted(NEIGHBOURS[cell(1, 1)]) == [cell(0, 1), cell(1, 0), cell(1, 2), cell(2, 1)]
    assert sorted(NEIGHBOURS[cell(3, 3)]) == [cell(2, 3), cell(3, 2)]
    # the row ends do not wrap around: cell (0, 3) and cell (1, 0) are not neighbours
    assert cell(1, 0) not in NEIGHBOURS[cell(0, 3)]


def test_codes_round_trip() -> None:
    codes = codes_of("1.R6", "2345", "....", "RRRR")
    assert to_codes(from_codes(codes)) == codes


def test_first_die_of_the_game_goes_anywhere() -> None:
    s = state_on(P, EMPTY_ROWS, (1, 3, 5, 6))
    assert s.phase is Phase.PLACE
    assert s.valid_cells() == {d: list(range(16)) for d in range(4)}


def test_first_die_after_ruins_on_an_otherwise_empty_board_goes_on_any_empty_cell() -> None:
    rows = ("R...", ".R..", "....", "...R")
    s = state_on(P, rows, (1, 1, 6, 6))
    empty = [c for c, x in enumerate(codes_of(*rows)) if x == 0]
    assert len(empty) == 13
    assert s.valid_cells() == dict.fromkeys(range(4), empty)
    # a cell far from every RUIN, and one walled in by RUINs, both take the first die
    assert s.apply(Stage(0, cell(2, 2))).staged[0] == cell(2, 2)
    assert s.apply(Stage(2, cell(0, 1))).staged[2] == cell(0, 1)


def test_a_cell_needs_a_numeric_neighbour_once_there_is_a_number() -> None:
    s = state_on(P, ("3...", "....", "....", "...."), (3, 3, 3, 3))
    assert s.valid_cells()[0] == [cell(0, 1), cell(1, 0)]
    expect_illegal(s, Stage(0, cell(1, 1)), "invalid_cell")  # diagonal only
    expect_illegal(s, Stage(0, cell(3, 3)), "invalid_cell")


def test_value_must_be_within_one_of_every_neighbouring_number() -> None:
    # cell (0, 1) touches a 3 and a 4: it accepts only 3 or 4 (docs/rules.md's example)
    board = board_of("3.4.", "....", "....", "....")
    accepted = [v for v in range(1, 7) if frame_valid(frame_of(board), v) >> cell(0, 1) & 1]
    assert accepted == [3, 4]
    # cell (1, 0) touches only the 3: 2, 3 and 4
    accepted = [v for v in range(1, 7) if frame_valid(frame_of(board), v) >> cell(1, 0) & 1]
    assert accepted == [2, 3, 4]


def test_equal_values_are_fine_and_two_apart_is_not() -> None:
    s = state_on(P, ("....", ".4..", "....", "...."), (4, 2, 6, 5))
    cells = s.valid_cells()
    around = [cell(0, 1), cell(1, 0), cell(1, 2), cell(2, 1)]
    assert cells[0] == around  # 4 next to 4
    assert cells[3] == around  # 5 next to 4
    assert cells[1] == []  # 2 next to 4
    assert cells[2] == []  # 6 next to 4


def test_occupied_cells_are_never_valid() -> None:
    s = state_on(P, ("34..", "R...", "....", "...."), (3, 4, 3, 4))
    expect_illegal(s, Stage(0, cell(0, 0)), "invalid_cell")  # a number
    expect_illegal(s, Stage(0, cell(1, 0)), "invalid_cell")  # a RUIN
    staged = s.apply(Stage(0, cell(0, 2)))
    expect_illegal(staged, Stage(1, cell(0, 2)), "invalid_cell")  # a staged die


def test_ruin_connects_nothing() -> None:
    # (2, 0) touches only the RUIN at (1, 0): not valid, although the 3 is two cells away
    s = state_on(P, ("3...", "R...", "....", "...."), (3, 3, 3, 3))
    assert cell(2, 0) not in s.valid_cells()[0]
    assert s.valid_cells()[0] == [cell(0, 1)]


def test_ruin_constrains_nothing() -> None:
    # (0, 1) touches a 3 and a RUIN: 2, 3 and 4 are all fine, the RUIN changes nothing
    board = board_of("3.R.", "R...", "....", "....")
    accepted = [v for v in range(1, 7) if frame_valid(frame_of(board), v) >> cell(0, 1) & 1]
    assert accepted == [2, 3, 4]


def test_staged_dice_count_as_numbers_for_later_placements() -> None:
    s = state_on(P, ("3...", "....", "....", "...."), (4, 6, 5, 1))
    assert s.valid_cells()[1] == []  # no cell takes the 6 yet
    s = s.apply(Stage(0, cell(0, 1)))  # a 4 next to the 3
    assert s.valid_cells()[2] == [cell(0, 2), cell(1, 1)]  # the 5 goes next to the 4 only
    s = s.apply(Stage(2, cell(0, 2)))
    assert s.valid_cells()[1] == [cell(0, 3), cell(1, 2)]  # now the 6 fits next to the 5
    # the staged 4 also constrains: the 6 may not go at (1, 1), next to the 4
    expect_illegal(s, Stage(1, cell(1, 1)), "invalid_cell")


def test_order_dependent_placement() -> None:
    # a 6 is valid at (0, 2) only after the 5 is staged at (0, 1)
    s = state_on(P, ("4...", "....", "....", "...."), (6, 5, 1, 1))
    expect_illegal(s, Stage(0, cell(0, 2)), "invalid_cell")
    s = s.apply(Stage(1, cell(0, 1)))
    s = s.apply(Stage(0, cell(0, 2)))
    assert s.staged[:2] == (cell(0, 2), cell(0, 1))
    assert s.order == (1, 0)


@pytest.mark.parametrize(
    "rows",
    [
        EMPTY_ROWS,
        ("R..R", "....", "....", "R..R"),
        ("3...", ".R..", "..5.", "...."),
        ("1234", "2345", "3456", "...."),
        ("6.6.", ".5.5", "1.R.", "...2"),
    ],
)
def test_valid_cells_match_the_reference_for_every_value(rows: tuple[str, str, str, str]) -> None:
    codes = codes_of(*rows)
    board = from_codes(codes)
    for v in range(1, 7):
        mask = frame_valid(frame_of(board), v)
        assert [c for c in range(16) if mask >> c & 1] == ref_valid_cells(codes, v), v


def test_valid_cells_follow_the_live_board() -> None:
    s = state_on(P, ("3...", "....", "....", "...."), (3, 4, 2, 4))
    s = s.apply(Stage(1, cell(0, 1)))
    live = live_codes(s)
    for die in s.tray:
        assert s.valid_cells()[die] == ref_valid_cells(live, s.dice[die])
