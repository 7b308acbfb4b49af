"""The ``greedy`` bot: the best board of the turn by the evaluation tuned for the difficulty."""

from __future__ import annotations

import pytest

from magdagdon.bots.advice import codes_of
from magdagdon.bots.evaluate import Evaluator
from magdagdon.bots.greedy import GreedyBot
from magdagdon.bots.planner import turn_plans
from magdagdon.bots.tuning import weights_for
from magdagdon.engine import Difficulty, GameState, Ruin


@pytest.mark.parametrize("difficulty", [Difficulty.SURVIVAL, Difficulty.NIGHTMARE])
def test_greedy_scores_boards_with_the_weights_tuned_for_the_difficulty(
    difficulty: Difficulty,
) -> None:
    state = GameState.new(difficulty, 3).roll_with((2, 3, 3, 4))
    advice = GreedyBot().advise(state)
    tuned = Evaluator(weights_for(difficulty, residual=1.0))
    plans = turn_plans(codes_of(state), state.dice, state.min_required)
    best = max(plans, key=tuned)
    assert advice.placement == plans[best]
    assert advice.expected_value == pytest.approx(tuned(best))
    assert tuned(best) != pytest.approx(Evaluator()(best))  # not the default weights


def test_greedy_ruins_the_cell_whose_loss_its_evaluation_minds_least() -> None:
    state = GameState.new(Difficulty.NIGHTMARE, 3).roll_with((1, 3, 5, 6))
    assert state.phase.value == "magdagdon"  # no three of these can stand on an empty board
    advice = GreedyBot().advise(state)
    assert isinstance(advice.action, Ruin)
    tuned = Evaluator(weights_for(Difficulty.NIGHTMARE, residual=1.0))
    values = {c: tuned(tuple(7 if i == c else 0 for i in range(16))) for c in range(16)}
    assert values[advice.action.cell] == max(values.values())
