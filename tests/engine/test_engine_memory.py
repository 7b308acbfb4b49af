"""The states of a game are freed as soon as nothing refers to them, without the garbage collector.

Within a roll the states share a table of the positions seen (a transposition table, kept by the
roll they share), which refers back to them; the roll lets go of it when it ends, so no reference
cycle outlives a roll.
"""

from __future__ import annotations

import gc
import random

import pytest

from magdagdon.engine import Difficulty, GameState


def _random_game(difficulty: Difficulty, seed: int) -> int:
    rng = random.Random(seed)
    state = GameState.new(difficulty, seed)
    while not state.is_over:
        actions = state.legal_actions()
        state = state.apply(actions[rng.randrange(len(actions))])
    return state.score().total


@pytest.mark.parametrize("difficulty", list(Difficulty))
def test_a_played_game_leaves_nothing_for_the_garbage_collector(difficulty: Difficulty) -> None:
    gc.collect()
    gc.disable()
    try:
        for seed in range(20):
            _random_game(difficulty, seed)
        unreachable = gc.collect()
    finally:
        gc.enable()
    assert unreachable == 0
