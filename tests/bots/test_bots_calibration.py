"""The evaluation's calibration by empty cells: its tables, how they are applied, and a decision
they change."""

from __future__ import annotations

from dataclasses import replace

import pytest

from magdagdon.bots.calibration import CALIBRATION
from magdagdon.bots.evaluate import Evaluator, Weights
from magdagdon.bots.expectimax import TUNED, ExpectimaxBot, Settings
from magdagdon.bots.planner import magdagdon_chance
from magdagdon.engine import Difficulty, GameState, cell_of
from magdagdon.engine.board import from_codes


@pytest.mark.parametrize("difficulty", list(Difficulty), ids=lambda d: d.value)
def test_a_table_has_an_offset_for_every_count_of_empty_cells(difficulty: Difficulty) -> None:
    table = CALIBRATION[difficulty]
    assert len(table) == 17
    assert table[0] == 0.0  # a full board is worth exactly its score
    if difficulty is Difficulty.PEACEFUL:  # no data fitted: no offsets, and none is used
        assert not any(table)
        assert TUNED[difficulty][1].calibration is None


def test_the_offsets_decide_how_many_dice_the_look_ahead_confirms() -> None:
    # SURVIVAL, a roll of 5 4 3 4 on this board: a third die (the 4 on row 0, column 3) scores
    # more now, but leaves 9 empty cells instead of 10, whose offset is 12.5 points lower
    # (-49.6 against -37.1): calibrated, the bot keeps the cell open.
    rows = (".2..", ".34.", ".4..", "....")
    board = from_codes([int(c) for c in "".join(rows).replace(".", "0")])
    state = GameState(Difficulty.SURVIVAL, 1, board=board).roll_with((5, 4, 3, 4))
    settings, weights = TUNED[Difficulty.SURVIVAL]
    assert weights.calibration is not None
    assert weights.calibration[10] - weights.calibration[9] == pytest.approx(12.5)
    calibrated = ExpectimaxBot(settings, Evaluator(weights)).advise(state)
    plain = ExpectimaxBot(settings, Evaluator(replace(weights, calibration=None))).advise(state)
    assert calibrated.placement == ((0, cell_of(2, 2)), (2, cell_of(0, 2)))  # the 5, the 3
    assert plain.placement == ((0, cell_of(2, 2)), (2, cell_of(0, 2)), (1, cell_of(0, 3)))
    assert ExpectimaxBot().advise(state).placement == calibrated.placement  # the tuned bot


def test_the_offset_of_the_board_s_empty_cells_is_added() -> None:
    table = tuple(float(10 * e) for e in range(17))
    plain = Evaluator(Weights())
    calibrated = Evaluator(Weights(calibration=table))
    board = [0] * 16
    board[cell_of(1, 1)], board[cell_of(1, 2)], board[cell_of(2, 1)] = 3, 4, 7  # 7 is a RUIN
    codes = tuple(board)
    assert calibrated(codes) == pytest.approx(plain(codes) + 130.0)  # 13 empty cells
    full = (3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 6, 6, 6, 6)
    assert calibrated(full) == plain(full) == 544


@pytest.mark.parametrize("difficulty", [Difficulty.SURVIVAL, Difficulty.NIGHTMARE])
def test_the_tuned_evaluation_is_calibrated(difficulty: Difficulty) -> None:
    _, weights = TUNED[difficulty]
    assert weights.calibration == CALIBRATION[difficulty]
    assert any(weights.calibration)
    board = (3, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    uncalibrated = Evaluator(replace(weights, calibration=None))
    assert Evaluator(weights)(board) == pytest.approx(uncalibrated(board) + weights.calibration[14])


def test_the_look_ahead_takes_the_risk_off_near_the_end_only() -> None:
    bot = ExpectimaxBot(Settings(risk_weight=40.0, risk_upto=3), Evaluator())
    rows = [(3, 4, 4, 3), (4, 5, 5, 4), (5, 6, 0, 5), (0, 6, 0, 6)]  # three empty cells
    near_end = tuple(v for row in rows for v in row)
    risk = magdagdon_chance(near_end, 3)
    assert 0.0 < risk < 1.0
    assert bot.leaf_value(near_end, 3) == pytest.approx(bot.evaluate(near_end) - 40.0 * risk)
    earlier = (*near_end[:4], 0, 0, *near_end[6:])  # five empty cells: beyond risk_upto
    assert bot.leaf_value(earlier, 3) == bot.evaluate(earlier)


def test_the_frontier_counts_the_values_accepted_next_to_a_number() -> None:
    plain = Evaluator(Weights())
    wide = Evaluator(Weights(frontier=5.0))
    board = [0] * 16
    board[cell_of(0, 0)], board[cell_of(3, 3)] = 1, 6  # next to them: 1-2 and 5-6
    apart = tuple(board)
    assert wide(apart) == pytest.approx(plain(apart) + 5.0 * 4)
    board[cell_of(3, 3)] = 2  # now only 1, 2 and 3 are accepted next to a number
    close = tuple(board)
    assert wide(close) == pytest.approx(plain(close) + 5.0 * 3)
    rows = [(3, 4, 4, 3), (4, 5, 5, 4), (5, 6, 0, 5), (0, 6, 0, 6)]  # 3 empty cells: not counted
    near_end = tuple(v for row in rows for v in row)
    assert wide(near_end) == plain(near_end)
