"""The review's labels against paired rollouts (``bots/rollout.py``; the full check of 200
labelled decisions is ``bench/label_bench.py``): a fixed small sample of known bad choices,
each reached by the computer's own play, whose points given up the rollouts of the computer's
play from both choices (same dice draws) confirm within max(5 points, 2 se)."""

from __future__ import annotations

import random

import pytest

from action_logs import actions_of
from magdagdon.bots.review import review_game
from magdagdon.bots.rollout import Start, agrees, paired, rollout
from magdagdon.bots.value import Values, after_advice, unstaged
from magdagdon.engine import Action, Adjust, Confirm, Difficulty, GameState, Phase, Reroll, Ruin
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


#: The human-like player's PEACEFUL game of seed 2083096177 (bench/label_bench.py's sample).
AFTER_A_POWER = (
    "R S1d S29 C R A2- S1e S35 S06 S22 C R S03 S17 C R A3+ S0b S34 C R S18 S3c C R M0 R Ma R Mf "
    "R A1+ S11 C"
)


def test_a_placement_after_the_computer_s_power_is_valued_as_deep_as_the_computer_s(
    values: Values,
) -> None:
    """Turn 4: DAGDAG +1 on the 4th die, as the computer would, then the 1st and 4th dice on
    row 2, column 3 and row 1, column 0, where the computer would place the 3rd and 4th on row 2.
    The player's board is valued as the exact mean of V over the roll after it; valued as V of
    the roll after it, the computer's made the placement a 183.1-point blunder, where 200 paired
    rollouts of the computer's play from the two boards put it at 150.7 (se 2.8). Both valued
    alike, and the DAGDAG before it carried back, the review says what the rollouts say."""
    difficulty, seed = Difficulty.PEACEFUL, 2083096177
    log = actions_of(AFTER_A_POWER)
    review = review_game(difficulty, seed, log, values=values)
    turn = [s for s in review["steps"] if s["turn"] == 4]
    assert [s["type"] for s in turn] == ["roll", "adjust", "place"]
    roll, power, place = turn
    assert power["given_up"] == 0  # the computer's own DAGDAG
    assert power["before"] == roll["after"] == place["before"]
    assert place["label"] == "blunder"
    power_at = log.index(Adjust(3, 1))
    placed_at = log.index(Confirm(), power_at)
    state = GameState.new(difficulty, seed)
    for action in log[: power_at + 1]:
        state = state.apply(action)
    position = unstaged(state)  # after the DAGDAG, nothing staged
    player = position
    for action in log[power_at + 1 : placed_at + 1]:
        player = player.apply(action)
    computer = Start(after_advice(position, values.advice(position)))
    found = paired(values.bot, computer, Start(player), 200, seed=seed)
    assert agrees(place["given_up"], found), (place["given_up"], found)
    one_side = values.of(position) - place["after"]  # the computer's side a roll less deep
    assert not agrees(one_side, found), (one_side, found)
