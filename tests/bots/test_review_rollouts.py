"""The review's labels against paired rollouts (``bots/rollout.py``; the full check of 200
labelled decisions is ``bench/label_bench.py``): a fixed small sample of known bad choices,
each reached by the computer's own play, whose points given up the rollouts of the computer's
play from both choices (same dice draws) confirm within max(5 points, 2 se)."""

from __future__ import annotations

import random

import pytest

from magdagdon.bots.review import review_game
from magdagdon.bots.rollout import Start, agrees, paired, rollout
from magdagdon.bots.value import Values, after_advice
from magdagdon.engine import Action, Difficulty, GameState, Phase, Reroll, Ruin
from magdagdon.engine.board import from_codes

#: (difficulty, seed, turn, the bad choice played at that turn's first decision)
SAMPLE = [(Difficulty.NIGHTMARE, 4, 4, Ruin(0))]
ROLLOUTS = 30


@pytest.fixture(scope="module")
def values() -> Values:
    return Values()


def test_a_choice_rolled_out_against_itself_gives_up_nothing(values: Values) -> None:
    state = GameState.new(Difficulty.PEACEFUL, 3)
    start = Start(state)
    found = paired(values.bot, start, start, 5)
    assert (found.mean, found.se) == (0.0, 0.0)
    assert rollout(values.bot, start, 7) == rollout(values.bot, start, 7)  # seeded


@pytest.mark.parametrize(("difficulty", "seed", "turn", "bad"), SAMPLE)
def test_a_labelled_choice_agrees_with_the_rollouts(
    values: Values, difficulty: Difficulty, seed: int, turn: int, bad: Action
) -> None:
    rng = random.Random(seed)
    state = GameState.new(difficulty, seed)
    actions: list[Action] = []
    while not (state.turn == turn and state.phase is not Phase.ROLL):
        actions.append(values.bot.choose(state, rng))
        state = state.apply(actions[-1])
    computer = Start(after_advice(state, values.advice(state)))
    player = Start(state.apply(bad))
    rest = player.state
    tail: list[Action] = [bad]
    while not rest.is_over:
        tail.append(values.bot.choose(rest, rng))
        rest = rest.apply(tail[-1])
    review = review_game(difficulty, seed, [*actions, *tail], values=values)
    step = next(s for s in review["steps"] if s["kind"] == "decision" and s["turn"] == turn)
    assert step["label"] is not None
    found = paired(values.bot, computer, player, ROLLOUTS, seed=seed)
    assert found.mean > 0  # the rollouts agree that it gave something up
    assert agrees(step["given_up"], found), (step["given_up"], found)


def test_a_ruin_where_the_computer_would_reroll_agrees_with_the_rollouts(values: Values) -> None:
    """PEACEFUL, a MAGDAGDON at five empty cells (the human-like player's game of seed
    1478664266, turn 5): the computer would I-ROLL ULIT the 5, 5 and 6; the player put the RUIN
    on row 3, column 0. The reroll node is the exact mean of V over its 56 outcomes (186.7); the
    look-ahead's estimate of it (196.1) made the RUIN a 58.0-point blunder, which 30 paired
    rollouts put at 43.6 (se 5.8)."""
    board = from_codes([0, 2, 2, 1, 2, 3, 0, 2, 0, 0, 4, 3, 0, 2, 3, 4])
    state = GameState(Difficulty.PEACEFUL, 1, board=board, powers_used=1).roll_with((5, 5, 2, 6))
    assert state.phase is Phase.MAGDAGDON
    advice = values.advice(state)
    assert advice.action == Reroll((0, 1, 3))
    assert values.of(state) == pytest.approx(values.expected(state, (0, 1, 3)), abs=1e-9)
    ruin = state.apply(Ruin(12))
    given_up = values.of(state) - values.of(ruin)
    found = paired(values.bot, Start(state, (0, 1, 3)), Start(ruin), ROLLOUTS, seed=1478664266)
    assert agrees(given_up, found), (given_up, found)
    estimate = Values(values.bot, exact_rerolls=False)
    assert not agrees(estimate.of(state) - estimate.of(ruin), found)
