"""A review's I-ROLL ULIT is a chance node true at its step (``bots/value.py``): V before it is
the exact mean of V over its outcomes, so its luck averages to zero over them, whoever chose the
dice; the look-ahead's estimate there (the hint's) stands points away from that mean."""

from __future__ import annotations

import pytest

from action_logs import bot_game
from magdagdon.bots.base import make_bot
from magdagdon.bots.endgame import EXACT_UPTO
from magdagdon.bots.review import review_game
from magdagdon.bots.value import Values
from magdagdon.engine import Action, Difficulty, GameState, Reroll, Roll
from magdagdon.engine.board_codes import EMPTY
from magdagdon.engine.dice import roll_chances

#: PEACEFUL seeds whose games by a player of random legal actions reroll before the exact end.
SEEDS = (1, 2, 3)


def _random_game(seed: int) -> list[Action]:
    return bot_game(make_bot("random"), Difficulty.PEACEFUL, seed)


@pytest.mark.parametrize("seed", SEEDS)
def test_a_reroll_s_luck_averages_to_zero_over_its_outcomes(seed: int) -> None:
    values = Values()
    log = _random_game(seed)
    review = review_game(Difficulty.PEACEFUL, seed, log, values=values)
    chances = iter(s for s in review["steps"] if s["kind"] == "chance")
    state = GameState.new(Difficulty.PEACEFUL, seed)
    checked = 0
    for action in log:
        if isinstance(action, Reroll | Roll):
            step = next(chances)
        if isinstance(action, Reroll) and state.codes().count(EMPTY) > EXACT_UPTO[state.difficulty]:
            outcomes = roll_chances(len(action.dice))
            mean = sum(p * values.of(state.reroll_with(action.dice, v)) for v, p in outcomes)
            assert step["before"] == round(mean, 2), step
            assert values.after_reroll(state, action.dice) == pytest.approx(mean, abs=1e-9)
            checked += 1
        state = state.apply(action)
    assert checked > 0, seed


def test_the_estimate_is_not_that_mean() -> None:
    """The look-ahead's estimate at these rerolls (the hint's) stands away from the exact mean,
    so the test above fails on it (at one reroll it may come within a point by chance)."""
    apart = 0
    for seed in SEEDS:
        values = Values()
        estimate = Values(values.bot, exact_rerolls=False)
        state = GameState.new(Difficulty.PEACEFUL, seed)
        for action in _random_game(seed):
            empties = state.codes().count(EMPTY)
            if isinstance(action, Reroll) and empties > EXACT_UPTO[state.difficulty]:
                mean = values.after_reroll(state, action.dice)
                apart += abs(estimate.after_reroll(state, action.dice) - mean) > 1.0
            state = state.apply(action)
    assert apart >= 2
