"""V (``bots/value.py``) is the computer's expected final score: at the start of a game it is what
the computer's own games come to, and it is STATISTIKA's computer figure."""

from __future__ import annotations

import math
import statistics

import pytest

from magdagdon.bots.strength import COMPUTER_MEAN, COMPUTER_MEAN_SE
from magdagdon.bots.value import Values
from magdagdon.bots.value_calibration import START_SE
from magdagdon.engine import Difficulty, GameState
from magdagdon.sim.summary import game_seed, play_with

#: A run seed apart from those the offsets were fitted on and the benchmark checks (100, 200).
SEED = 4242


@pytest.mark.slow
def test_v_at_the_start_is_what_the_computer_s_games_come_to() -> None:
    values = Values()
    start = values.of(GameState.new(Difficulty.PEACEFUL, 0))
    finals = [
        play_with(values.bot, Difficulty.PEACEFUL, game_seed(SEED, i)).score for i in range(100)
    ]
    # sd of a PEACEFUL game about 70: the mean of 100 within about 7; 25 is far outside chance
    assert abs(statistics.fmean(finals) - start) <= 25


@pytest.mark.parametrize("difficulty", list(Difficulty), ids=lambda d: d.value)
def test_v_at_the_start_is_statistika_s_computer_figure(difficulty: Difficulty) -> None:
    """One number for one thing: the review's start, the hint's value before the first ROLL and
    the computer's mean in STATISTIKA agree within the calibration's tolerance."""
    start = Values().of(GameState.new(difficulty, 7))
    assert start == Values().of(GameState.new(difficulty, 8))  # the same for every game
    # SPEC's ±3 points, or 2 standard errors of the two measurements where that is wider
    se = math.hypot(START_SE[difficulty], COMPUTER_MEAN_SE[difficulty])
    assert abs(start - COMPUTER_MEAN[difficulty]) <= max(3.0, 2 * se)
