"""The evaluation's shared line table and its written-out masks change no value: literal boards
of a game's stages and a number placed on random boards (the boards a search walks to) are valued
to the bit as the evaluation spelled out with ``fit_masks`` values them, whichever evaluators
filled the line table before."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import magdagdon.bots.evaluate as evaluate_module
from evaluation_reference import spelled_out
from magdagdon.bots.evaluate import Evaluator
from magdagdon.bots.expectimax import LOOKAHEAD_RESIDUALS, RESIDUAL_SHARE
from magdagdon.bots.tuning import weights_for
from magdagdon.engine import Difficulty
from magdagdon.engine.board_codes import put

WEIGHTS = [
    weights_for(d, residual=RESIDUAL_SHARE, tables=LOOKAHEAD_RESIDUALS) for d in Difficulty
] + [weights_for(d) for d in Difficulty]


def _codes(rows: tuple[str, ...]) -> tuple[int, ...]:
    return tuple(int(c) for c in "".join(rows).replace(".", "0").replace("x", "7"))


#: A game's stages: the empty board, a first turn, a crowded middle with RUINs, one cell to go,
#: a cell no value fits, a corner held by a number on one side and a RUIN on the other, the full
#: board.
BOARDS = [
    _codes(rows)
    for rows in (
        ("....", "....", "....", "...."),
        ("....", ".34.", "..5.", "...."),
        ("12x.", "2.4.", "x56.", "..65"),
        ("1234", "2345", "3456", "456."),
        ("1.5.", "....", "x...", "...6"),
        (".x..", "3...", "....", "...2"),
        ("1234", "2345", "3456", "4565"),
    )
]


def test_evaluators_with_the_same_line_weights_share_one_table() -> None:
    first, second = Evaluator(WEIGHTS[0]), Evaluator(WEIGHTS[0])
    assert first._lines is second._lines
    assert Evaluator(WEIGHTS[2])._lines is not first._lines  # other line weights
    # The same line weights with another correction: the same lines.
    assert Evaluator(weights_for(Difficulty.PEACEFUL))._lines is first._lines


@pytest.mark.parametrize("weights", WEIGHTS, ids=range(len(WEIGHTS)))
def test_literal_boards_are_valued_asspelled_out(
    weights: evaluate_module.Weights, monkeypatch: pytest.MonkeyPatch
) -> None:
    warm = Evaluator(weights)
    warmed = [warm(codes) for codes in BOARDS]  # the table as other evaluators leave it
    monkeypatch.setattr(evaluate_module, "_LINE_TABLES", {})
    cold = Evaluator(weights)  # a table of its own, empty
    assert cold._lines is not warm._lines
    for codes, value in zip(BOARDS, warmed, strict=True):
        assert cold(codes) == value == spelled_out(Evaluator(weights), codes)


@settings(max_examples=80)
@given(
    st.lists(st.integers(0, 7), min_size=16, max_size=16).map(tuple),
    st.integers(0, 15),
    st.integers(1, 6),
)
def test_a_number_placed_is_valued_asspelled_out(
    codes: tuple[int, ...], cell: int, value: int
) -> None:
    """A board and the board one number further on (a search's walk), on every set of
    weights, to the bit."""
    boards = [codes, put(codes, cell, value)]
    for weights in WEIGHTS:
        evaluate = Evaluator(weights)
        for board in boards:
            assert evaluate(board) == spelled_out(evaluate, board)
