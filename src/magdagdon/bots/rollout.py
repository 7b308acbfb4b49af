"""Paired rollouts: what a decision's choice truly came to, to check a review's label against.

From the state a choice leads to, the computer plays to the end with dice drawn from a seeded
RNG; the player's choice and the computer's are rolled out with the same draws (rollout ``k``
of both uses the seed ``k``), so that much of the dice's swing cancels in their difference.
A review's points given up at a decision are checked against the mean difference
(``bench/label_bench.py``, ``tests/bots/test_review_rollouts.py``).
"""

from __future__ import annotations

import math
import random
import statistics
from typing import TYPE_CHECKING, NamedTuple

from magdagdon.engine import GameState, Phase, Reroll

if TYPE_CHECKING:
    from magdagdon.bots.advice import TurnBot


class Start(NamedTuple):
    """Where a rollout starts: a state, and the tray dice chosen to I-ROLL ULIT (or None)."""

    state: GameState
    reroll: tuple[int, ...] | None = None


def _values(rng: random.Random, count: int) -> tuple[int, ...]:
    return tuple(rng.randint(1, 6) for _ in range(count))


def rollout(bot: TurnBot, start: Start, seed: int) -> int:
    """The final score of the computer's play from ``start``, the dice drawn from ``seed``."""
    rng = random.Random(seed)
    state = start.state
    if start.reroll is not None:
        state = state.reroll_with(start.reroll, _values(rng, len(start.reroll)))
    while not state.is_over:
        if state.phase is Phase.ROLL:
            state = state.roll_with(_values(rng, 4))
            continue
        action = bot.choose(state, rng)
        if isinstance(action, Reroll):
            state = state.reroll_with(action.dice, _values(rng, len(action.dice)))
        else:
            state = state.apply(action)
    return state.score().total


class Paired(NamedTuple):
    """The mean of (computer's choice − player's choice) over paired rollouts, and its se."""

    mean: float
    se: float
    rollouts: int


def paired(bot: TurnBot, computer: Start, player: Start, count: int, seed: int = 0) -> Paired:
    """``count`` paired rollouts of the computer's choice against the player's."""
    diffs = [
        rollout(bot, computer, seed + k) - rollout(bot, player, seed + k) for k in range(count)
    ]
    se = statistics.stdev(diffs) / math.sqrt(count) if count > 1 else math.inf
    return Paired(statistics.fmean(diffs), se, count)


def agrees(given_up: float, found: Paired, margin: float = 5.0) -> bool:
    """Whether a review's ``given_up`` agrees with the rollouts: within ``margin`` points or two
    standard errors, whichever is wider."""
    return abs(given_up - found.mean) <= max(margin, 2 * found.se)
