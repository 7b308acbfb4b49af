"""The bots are ordered by strength on a small fixed set of seeds (a margin, not a figure)."""

from __future__ import annotations

import statistics

from magdagdon.bots.base import make_bot
from magdagdon.engine import Difficulty
from magdagdon.sim.summary import game_seed, play_with

SEEDS = [game_seed(2024, i) for i in range(8)]


def _mean(name: str, difficulty: Difficulty) -> float:
    bot = make_bot(name)
    return statistics.fmean(play_with(bot, difficulty, seed).score for seed in SEEDS)


def test_greedy_beats_random_and_expectimax_beats_greedy() -> None:
    random_mean = _mean("random", Difficulty.PEACEFUL)
    greedy_mean = _mean("greedy", Difficulty.PEACEFUL)
    expectimax_mean = _mean("expectimax", Difficulty.PEACEFUL)
    assert greedy_mean > random_mean + 100
    assert expectimax_mean > greedy_mean + 30
