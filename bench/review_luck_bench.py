"""Where a review puts the RUINs of a bad player: luck or points given up.

    uv run python bench/review_luck_bench.py [--seeds 1 2 3 4] [--nodes 0]

For each PEACEFUL seed, two games on the same dice stream: the computer's own, and a player who
places as ``bots/risky.py`` does (for the highest chance of a MAGDAGDON on the next roll). For each
game: the final score, the RUINs, the review's start, luck and points given up, and the review's
CPU time (a new ``Values``: cold caches). Then the mean over the seeds of (bad luck − computer
luck) with its standard error: a review whose luck is true gives the two the same expectation,
since luck averages to zero over each roll's outcomes, whoever played before it (docs/rules.md,
Review). With ``--nodes N``, on the bad player's first N ROLLs: V before the roll as the hint tells
it against the exact expectation of V over the 126 outcomes (which the review uses after a choice
other than the computer's) and the chance of a MAGDAGDON.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import time

from magdagdon.bots.planner import ROLL_CHANCES, ROLL_VALUES
from magdagdon.bots.review import review_game
from magdagdon.bots.risky import risky_turn
from magdagdon.bots.value import Values
from magdagdon.engine import (
    Action,
    Difficulty,
    GameState,
    Phase,
    Roll,
    Ruin,
)

DIFFICULTY = Difficulty.PEACEFUL


def bad_game(seed: int) -> tuple[list[Action], list[GameState]]:
    """The bad player's log and the states before each of its ROLLs."""
    state = GameState.new(DIFFICULTY, seed)
    log: list[Action] = []
    nodes: list[GameState] = []
    while not state.is_over:
        for action in risky_turn(state):
            if isinstance(action, Roll):
                nodes.append(state)
            state = state.apply(action)
            log.append(action)
    return log, nodes


def computer_game(values: Values, seed: int) -> list[Action]:
    state = GameState.new(DIFFICULTY, seed)
    rng = random.Random(seed)
    log: list[Action] = []
    while not state.is_over:
        action = values.bot.choose(state, rng)
        state = state.apply(action)
        log.append(action)
    return log


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3, 4])
    parser.add_argument("--nodes", type=int, default=0)
    args = parser.parse_args()
    values = Values()
    lucks: dict[str, list[float]] = {"bad": [], "computer": []}
    given: dict[str, list[float]] = {"bad": [], "computer": []}
    cpu: list[float] = []
    for seed in args.seeds:
        bad_log, nodes = bad_game(seed)
        for name, log in (("bad", bad_log), ("computer", computer_game(values, seed))):
            started = time.process_time()
            review = review_game(DIFFICULTY, seed, log, values=Values())
            cpu.append(time.process_time() - started)
            ruins = sum(isinstance(a, Ruin) for a in log)
            lucks[name].append(review["luck"])
            given[name].append(review["given_up"])
            print(
                f"seed {seed} {name:8} final {review['final']:4} RUINs {ruins}"
                f"  start {review['start']:6.1f}  luck {review['luck']:+7.1f}"
                f"  given up {review['given_up']:6.1f}  review CPU {cpu[-1]:4.1f} s",
                flush=True,
            )
        for node in nodes[: args.nodes]:
            outcomes = [node.roll_with(tuple(v)) for v in ROLL_VALUES]
            expected = values.expected(node)
            ruined = sum(
                c for o, c in zip(outcomes, ROLL_CHANCES, strict=True) if o.phase is Phase.MAGDAGDON
            )
            before = values.of(node)
            print(
                f"   roll of turn {node.turn + 1:2}: V before {before:6.1f}"
                f"  E[V after] {expected:6.1f}  gap {before - expected:+5.1f}"
                f"  P(MAGDAGDON) {ruined:.2f}",
                flush=True,
            )
    n = len(args.seeds)
    for name in lucks:
        print(
            f"mean over {n} seeds, {name:8}: luck {statistics.fmean(lucks[name]):+7.1f}"
            f"  given up {statistics.fmean(given[name]):6.1f}"
        )
    gaps = [b - c for b, c in zip(lucks["bad"], lucks["computer"], strict=True)]
    se = statistics.stdev(gaps) / math.sqrt(n) if n > 1 else float("nan")
    print(f"bad luck - computer luck: mean {statistics.fmean(gaps):+.1f} (se {se:.1f})")
    print(f"review CPU: median {statistics.median(cpu):.1f} s, worst {max(cpu):.1f} s")


if __name__ == "__main__":
    main()
