"""The dice's order in the tray against V and the decision (docs/bots.md "One policy").

At every phase roll of seeded greedy games, rolls drawn at random, each valued and advised in its
order and in one other order of the same dice (each by a ``Values`` of its own, nothing shared):
how many positions differ in V (and by how much) and in the decision told by dice values.

Usage: ``python bench/dice_order_bench.py [--games 4] [--seed 3] [--rolls 8]`` (one core; a
few minutes a difficulty).
"""

from __future__ import annotations

import argparse
import itertools
import random

from magdagdon.bots.base import make_bot
from magdagdon.bots.value import Values
from magdagdon.engine import Difficulty, GameState, Phase
from magdagdon.sim.summary import game_seed


def told(state: GameState) -> tuple[float, object]:
    """V at ``state`` and its decision by dice values, not by the dice's places."""
    value, advice = Values().judge(state)
    assert advice is not None
    dice = state.dice
    placed = sorted((dice[d], cell) for d, cell in advice.placement)
    return value, (type(advice.action).__name__, placed)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--rolls", type=int, default=8)
    args = parser.parse_args()
    rng = random.Random(5)
    for difficulty in Difficulty:
        same = differs = decided = 0
        worst = 0.0
        for i in range(args.games):
            seed = game_seed(args.seed, i)
            bot, bot_rng = make_bot("greedy"), random.Random(seed)
            state = GameState.new(difficulty, seed)
            while not state.is_over:
                if state.phase is Phase.ROLL:
                    for _ in range(args.rolls):
                        dice = tuple(rng.randint(1, 6) for _ in range(4))
                        orders = list(dict.fromkeys(itertools.permutations(dice)))
                        if len(orders) < 2:
                            continue
                        (v1, d1), (v2, d2) = (
                            told(state.roll_with(dice)),
                            told(state.roll_with(rng.choice(orders[1:]))),
                        )
                        decided += d1 != d2
                        if v1 == v2:
                            same += 1
                        else:
                            differs += 1
                            worst = max(worst, abs(v1 - v2))
                state = state.apply(bot.choose(state, bot_rng))
        print(
            f"{difficulty.value:9s} positions {same + differs:4d}  V differs {differs:3d} "
            f"(worst {worst:5.1f})  decision differs {decided:3d}",
            flush=True,
        )


if __name__ == "__main__":
    main()
