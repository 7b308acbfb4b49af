"""V (``bots/value.py``) is the computer's expected final score: at the start of a game it is what
the computer's own games come to, and it is STATISTIKA's computer figure."""

from __future__ import annotations

import math
import random
import statistics

import pytest

from magdagdon.bots.endgame import EXACT_UPTO
from magdagdon.bots.risky import risky_turn
from magdagdon.bots.strength import COMPUTER_MEAN, COMPUTER_MEAN_SE
from magdagdon.bots.value import Values
from magdagdon.bots.value_calibration import START_SE
from magdagdon.engine import Difficulty, GameState, Phase
from magdagdon.engine.board import RUIN_CODE
from magdagdon.engine.board_codes import EMPTY
from magdagdon.sim.summary import game_seed, play_with

#: A run seed apart from those the offsets were fitted on and the benchmark checks (100, 200).
SEED = 4242
#: Bad players' games the computer takes over, and how far V may stand from what it comes to.
GAMES_TAKEN_OVER = 80
RUIN_HEAVY_TOLERANCE = 12.0


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


def _taken_over(values: Values, difficulty: Difficulty, seed: int) -> tuple[float, int]:
    """V where the computer takes over a bad player's game (``bots/risky.py``) as soon as its
    board has two RUINs with more empty cells than the exact end, and the final score the
    computer then reaches (V None: the bad player's board never came to that)."""
    state = GameState.new(difficulty, seed)
    rng = random.Random(seed)
    while not state.is_over:
        codes = state.codes()
        if (
            state.phase is Phase.ROLL
            and codes.count(RUIN_CODE) >= 2
            and codes.count(EMPTY) > EXACT_UPTO[difficulty]
        ):
            taken = values.of(state)
            while not state.is_over:
                state = state.apply(values.bot.choose(state, rng))
            return taken, state.score().total
        for action in risky_turn(state):
            state = state.apply(action)
    raise LookupError("no board with two RUINs")


@pytest.mark.slow
def test_v_on_a_ruin_heavy_board_is_what_the_computer_comes_to_from_it() -> None:
    """V is the computer's expectation from any board, not only from its own: on a bad player's
    boards with two RUINs the look-ahead's value runs high, and the offsets by RUINs take that
    out."""
    values = Values()
    gaps: list[float] = []
    for i in range(GAMES_TAKEN_OVER):
        try:
            taken, final = _taken_over(values, Difficulty.PEACEFUL, game_seed(SEED, i))
        except LookupError:
            continue
        gaps.append(final - taken)
    assert len(gaps) >= GAMES_TAKEN_OVER // 4
    se = statistics.stdev(gaps) / math.sqrt(len(gaps))
    assert abs(statistics.fmean(gaps)) <= max(RUIN_HEAVY_TOLERANCE, 3 * se), (
        statistics.fmean(gaps),
        se,
    )
