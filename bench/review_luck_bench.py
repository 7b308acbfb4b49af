"""Where a review puts the RUINs of a bad player: luck or points given up.

    uv run python bench/review_luck_bench.py [--seeds 1 2 3 4] [--nodes 4]

For each PEACEFUL seed, two games on the same dice stream: the computer's own, and a player who
places, every turn, the board with the highest chance of a MAGDAGDON on the next roll (the lower
numbers on a tie), never uses a Power and puts each RUIN on the first empty cell. For each game:
the final score, the RUINs, the review's start, luck and points given up. Then, on the bad
player's first ``--nodes`` ROLLs, V before the roll against the exact expectation of V over the
126 outcomes, and the chance of a MAGDAGDON: docs/rules.md (Review) makes V before a roll that
expectation, so any gap between the two is luck that belongs to earlier choices.
"""

from __future__ import annotations

import argparse
import random
import time

from magdagdon.bots.planner import ROLL_CHANCES, ROLL_VALUES, magdagdon_chance, turn_plans
from magdagdon.bots.review import review_game
from magdagdon.bots.value import Values
from magdagdon.engine import (
    Action,
    Confirm,
    Difficulty,
    GameState,
    Phase,
    Roll,
    Ruin,
    Stage,
    rules,
)
from magdagdon.engine.codes import EMPTY, Codes

DIFFICULTY = Difficulty.PEACEFUL


def _risk(board: Codes) -> float:
    empties = board.count(EMPTY)
    if not empties:
        return 0.0
    return magdagdon_chance(board, rules.min_required(DIFFICULTY.base_minimum, empties))


def bad_turn(state: GameState) -> list[Action]:
    """The bad player's actions at ``state``."""
    if state.phase is Phase.ROLL:
        return [Roll()]
    if state.phase is Phase.MAGDAGDON:
        return [Ruin(state.empty_cells()[0])]
    plans = turn_plans(tuple(state.codes()), state.dice, state.min_required)
    board = max(plans, key=lambda b: (_risk(b), -sum(x for x in b if 0 < x < 7)))
    return [*(Stage(die, cell) for die, cell in plans[board]), Confirm()]


def bad_game(seed: int) -> tuple[list[Action], list[GameState]]:
    """The bad player's log and the states before each of its ROLLs."""
    state = GameState.new(DIFFICULTY, seed)
    log: list[Action] = []
    nodes: list[GameState] = []
    while not state.is_over:
        for action in bad_turn(state):
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
    parser.add_argument("--nodes", type=int, default=4)
    args = parser.parse_args()
    values = Values()
    totals = {"bad": [0.0, 0.0], "computer": [0.0, 0.0]}
    for seed in args.seeds:
        bad_log, nodes = bad_game(seed)
        for name, log in (("bad", bad_log), ("computer", computer_game(values, seed))):
            review = review_game(DIFFICULTY, seed, log, values=values)
            ruins = sum(isinstance(a, Ruin) for a in log)
            totals[name][0] += review["luck"]
            totals[name][1] += review["given_up"]
            print(
                f"seed {seed} {name:8} final {review['final']:4} RUINs {ruins}"
                f"  start {review['start']:6.1f}  luck {review['luck']:+7.1f}"
                f"  given up {review['given_up']:6.1f}",
                flush=True,
            )
        for node in nodes[: args.nodes]:
            started = time.monotonic()
            outcomes = [node.roll_with(tuple(v)) for v in ROLL_VALUES]
            expected = sum(c * values.of(o) for o, c in zip(outcomes, ROLL_CHANCES, strict=True))
            ruined = sum(
                c for o, c in zip(outcomes, ROLL_CHANCES, strict=True) if o.phase is Phase.MAGDAGDON
            )
            before = values.of(node)
            print(
                f"   roll of turn {node.turn + 1:2}: V before {before:6.1f}"
                f"  E[V after] {expected:6.1f}  gap {before - expected:+5.1f}"
                f"  P(MAGDAGDON) {ruined:.2f}  ({time.monotonic() - started:.1f} s)",
                flush=True,
            )
    n = len(args.seeds)
    for name, (luck, given_up) in totals.items():
        print(f"mean over {n} seeds, {name:8}: luck {luck / n:+7.1f}  given up {given_up / n:6.1f}")


if __name__ == "__main__":
    main()
