"""Perft: exact counts of valid placement sequences from fixed boards and rolls.

A sequence is an ordered list of (die id, cell) stage actions, each valid when it is made. Each
count is found twice — by a brute force written from docs/rules.md's words (``ref_sequences``:
neighbours,
±1 against every numeric neighbour, any empty cell while no number is on the board) and through
the engine (``legal_actions()`` and ``apply(Stage …)``) — and both must equal the pinned numbers.

Checked by hand:
- empty board, 1 1 1 1: length 1 is 4 dice × 16 cells = 64; length 2 is 4 × 3 dice × (the 48
  ordered neighbour pairs of the 4×4 grid) = 576.
- empty board, 1 3 5 6: 64 first placements; then only 5 and 6 may meet, in either order on any
  ordered neighbour pair: 2 × 48 = 96; no third die can join.
- near full (3 empty cells): (2,3) takes 5 or 6 (dice 0, 1, 3), (3,2) takes 4 or 5 (dice 0, 2),
  (3,3) touches no number yet: 5 sequences of length 1.
- order dependent: after 4 | . . . with RUINs below, only the 5 or the 3 can start at (0,1);
  a 6 fits at (0,2) only after the 5: 2, 2, 2, 0.
"""

from __future__ import annotations

import pytest
from engine_helpers import codes_of, engine_sequences, ref_sequences, state_on

from magdagdon.engine import Difficulty, Phase

Rows = tuple[str, str, str, str]
Roll4 = tuple[int, int, int, int]

EMPTY: Rows = ("....", "....", "....", "....")
PERFT: list[tuple[str, Rows, Roll4, list[int]]] = [
    ("empty_1111", EMPTY, (1, 1, 1, 1), [64, 576, 4992, 25728]),
    ("empty_1234", EMPTY, (1, 2, 3, 4), [64, 288, 832, 1280]),
    ("empty_1356", EMPTY, (1, 3, 5, 6), [64, 96, 0, 0]),
    ("ruins_only", ("R..R", "....", ".R..", "...R"), (3, 3, 4, 5), [48, 224, 840, 1200]),
    ("mid_game", ("34..", "45..", "R...", "...."), (3, 4, 5, 6), [9, 59, 207, 319]),
    ("near_full", ("3456", "3456", "345.", "34.."), (5, 6, 4, 6), [5, 21, 16, 0]),
    ("order_dependent", ("4...", "RRR.", "RRRR", "RRRR"), (5, 6, 6, 3), [2, 2, 2, 0]),
]


@pytest.mark.parametrize(
    ("rows", "roll", "expected"),
    [p[1:] for p in PERFT],
    ids=[p[0] for p in PERFT],
)
def test_perft(rows: Rows, roll: Roll4, expected: list[int]) -> None:
    codes = codes_of(*rows)
    state = state_on(Difficulty.PEACEFUL, rows, roll)
    assert state.phase is Phase.PLACE
    reference = [ref_sequences(codes, roll, k) for k in range(1, 5)]
    engine = [engine_sequences(state, k) for k in range(1, 5)]
    assert reference == expected
    assert engine == expected


def test_no_stage_sequence_in_magdagdon() -> None:
    # 1 | . . . : the 2 alone fits (2 sequences of length 1) but no two dice: MAGDAGDON,
    # and the engine offers no stage action at all
    rows: Rows = ("1...", "....", "....", "....")
    roll: Roll4 = (2, 4, 5, 6)
    assert [ref_sequences(codes_of(*rows), roll, k) for k in (1, 2)] == [2, 0]
    state = state_on(Difficulty.PEACEFUL, rows, roll)
    assert state.phase is Phase.MAGDAGDON
    assert engine_sequences(state, 1) == 0
