"""A review's luck where the player did not play the computer's way (docs/rules.md "Modes and
records" (Review); ``bots/review.py``): after a choice ``EXACT_FROM`` points or more from the
computer's by the hints' values (either way), V before the next roll is the
exact mean of V over its 126 outcomes, so that roll's luck averages to zero whatever the board,
and what a bad board costs is the choice's, not the dice's."""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from magdagdon.bots.planner import ROLL_CHANCES, ROLL_VALUES
from magdagdon.bots.review import EXACT_FROM, review_game
from magdagdon.bots.risky import risky_game
from magdagdon.bots.value import Values
from magdagdon.engine import (
    Action,
    Difficulty,
    GameState,
    Roll,
    Ruin,
    Stage,
)


@pytest.fixture(scope="module")
def bad() -> tuple[Values, list[Action], dict[str, Any]]:
    values = Values()
    log = risky_game(Difficulty.PEACEFUL, 1)
    return values, log, review_game(Difficulty.PEACEFUL, 1, log, values=values)


def test_after_a_labelled_choice_a_roll_s_luck_averages_to_zero(
    bad: tuple[Values, list[Action], dict[str, Any]],
) -> None:
    values, log, review = bad
    state = GameState.new(Difficulty.PEACEFUL, 1)
    steps = iter(review["steps"])
    last: dict[str, Any] | None = None
    checked = gaps = 0
    for action in log:
        if isinstance(action, Stage):
            state = state.apply(action)
            continue
        step = next(steps)
        # a choice other than the computer's, EXACT_FROM or more from it by the hints' values
        if (
            isinstance(action, Roll)
            and last
            and abs(last["before"] - values.of(state)) >= EXACT_FROM
        ):
            outcomes = [values.of(state.roll_with(v)) for v in ROLL_VALUES]
            mean = sum(c * v for c, v in zip(ROLL_CHANCES, outcomes, strict=True))
            # V before the roll is the mean; each outcome's luck is V(outcome) − that mean
            assert step["before"] == pytest.approx(mean, abs=0.005), (state, step)
            lucks = [v - mean for v in outcomes]
            assert abs(sum(c * x for c, x in zip(ROLL_CHANCES, lucks, strict=True))) < 1e-9
            checked += 1
            # the hint's value of this roll stands off that mean: the old review's luck was off
            gaps += abs(values.of(state) - mean) > 2.0
        last = step if step["kind"] == "decision" else None
        state = state.apply(action)
    assert checked >= 5
    assert gaps >= 2


def test_the_bad_game_still_adds_up(bad: tuple[Values, list[Action], dict[str, Any]]) -> None:
    _, log, review = bad
    assert sum(isinstance(a, Ruin) for a in log) >= 3  # a RUIN-heavy game
    total = review["start"] + review["luck"] - review["given_up"]
    assert abs(total - review["final"]) <= 0.02
    steps = review["steps"]
    for a, b in itertools.pairwise(steps):
        assert b["before"] == a["after"]
