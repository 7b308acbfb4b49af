"""The states of a game are freed as soon as nothing refers to them, without the garbage collector.

Within a roll the states share a table of the positions seen (a transposition table, kept by the
roll they share), which refers back to them; the roll lets go of it when it ends, so no reference
cycle outlives a roll.

The games are played in an interpreter of their own: ``gc.collect()`` counts every unreachable
object of its process, and a test worker's other threads (servers, browsers' drivers) make
cycles of their own while the collector is held.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

from magdagdon.engine import Difficulty

PLAYED = """
import gc, random, sys
from magdagdon.engine import Difficulty, GameState

def random_game(difficulty, seed):
    rng = random.Random(seed)
    state = GameState.new(difficulty, seed)
    while not state.is_over:
        actions = state.legal_actions()
        state = state.apply(actions[rng.randrange(len(actions))])
    return state.score().total

gc.collect()
gc.disable()
for seed in range(20):
    random_game(Difficulty(sys.argv[1]), seed)
print(gc.collect())
"""


@pytest.mark.parametrize("difficulty", list(Difficulty))
def test_a_played_game_leaves_nothing_for_the_garbage_collector(difficulty: Difficulty) -> None:
    played = subprocess.run(
        [sys.executable, "-c", PLAYED, difficulty.value],
        capture_output=True,
        text=True,
        check=True,
    )
    assert int(played.stdout) == 0, played.stderr
