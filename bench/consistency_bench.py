"""V at the chance nodes of a review (docs/bots.md "V, step by step"): how far V before a ROLL or
an I-ROLL ULIT, as the review shows it, stands from the exact mean of V over the roll's outcomes,
on seeded games of five players, and each player's mean luck.

The players: ``computer`` (the hint, followed), ``greedy``, ``random``, ``risky``
(``bots/risky.py``) and ``humanlike`` (the computer's move, except in 30 % of turns, drawn by the
game's seed, where it places at random among the turn's distinct boards). Near the end V is exact
and a chance node is its mean by construction; before that each mean is 126 decisions' search,
so a game costs 1–5 s of CPU (the memo shared across games).

Usage: ``python bench/consistency_bench.py [--games 3] [--seed 500] [--difficulty D]...
[--player P]... [--by-empties]`` (one core). Prints per difficulty and player: the chance nodes,
their RMS and largest |V before − mean| (all nodes, and those before the exact end), and the mean
luck (se); with ``--by-empties``, then per difficulty, all players together, the nodes before the
exact end by their empty cells: how many, the RMS, the largest and their share of the squared gap
(where a table at the edge would pay most).
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import time
from typing import TYPE_CHECKING

from magdagdon.bots.base import make_bot, play_turns
from magdagdon.bots.endgame import EXACT_UPTO
from magdagdon.bots.hints import best
from magdagdon.bots.planner import turn_plans
from magdagdon.bots.review import review_game
from magdagdon.bots.risky import risky_turn
from magdagdon.bots.value import Values
from magdagdon.engine import (
    Action,
    Confirm,
    Difficulty,
    GameState,
    Phase,
    Reroll,
    Roll,
    Ruin,
    Stage,
    action_from_json,
)
from magdagdon.engine.board_codes import EMPTY
from magdagdon.sim.summary import game_seed

if TYPE_CHECKING:
    from collections.abc import Callable

PLAYERS = ("computer", "greedy", "random", "risky", "humanlike")
#: The human-like player's share of turns placed at random.
SLIPS = 0.3


def _computer(state: GameState) -> list[Action]:
    return [action_from_json(best(state)[0])]


def humanlike(seed: int) -> Callable[[GameState], list[Action]]:
    """The human-like player's turns in the game of ``seed``."""
    rng = random.Random(seed)

    def turn(state: GameState) -> list[Action]:
        if state.order:  # a turn begun as the computer's goes on as the computer's
            return _computer(state)
        if state.phase is Phase.PLACE and rng.random() < SLIPS:
            plans = turn_plans(tuple(state.codes()), state.dice, state.min_required)
            placement = plans[rng.choice(sorted(plans))]
            return [*(Stage(die, cell) for die, cell in placement), Confirm()]
        if state.phase is Phase.MAGDAGDON and rng.random() < SLIPS:
            return [Ruin(rng.choice(state.empty_cells()))]
        return _computer(state)

    return turn


def _bot(name: str, seed: int) -> Callable[[GameState], list[Action]]:
    bot, rng = make_bot(name), random.Random(seed)
    return lambda state: [bot.choose(state, rng)]


def player_turn(player: str, seed: int) -> Callable[[GameState], list[Action]]:
    """The turns of ``player`` (one of ``PLAYERS``) in the game of ``seed``."""
    return {
        "computer": _computer,
        "risky": risky_turn,
        "humanlike": humanlike(seed),
    }.get(player) or _bot(player, seed)


def game(difficulty: Difficulty, seed: int, player: str) -> list[Action]:
    """The action log of ``player``'s game of ``seed``."""
    return play_turns(GameState.new(difficulty, seed), player_turn(player, seed))


Gap = tuple[int, bool, float]


def gaps(values: Values, difficulty: Difficulty, seed: int, actions: list[Action]) -> list[Gap]:
    """Each chance node of the review of the game: (its empty cells, an I-ROLL ULIT, V before as
    the review shows it − the exact mean of V over the outcomes), and last the review's luck."""
    review = review_game(difficulty, seed, actions, values=values)
    chances = [s for s in review["steps"] if s["kind"] == "chance"]
    found: list[Gap] = []
    state = GameState.new(difficulty, seed)
    for action in actions:
        if isinstance(action, Roll | Reroll):
            dice = action.dice if isinstance(action, Reroll) else None
            mean = values.expected(state, dice)
            step = chances[len(found)]
            found.append((state.codes().count(EMPTY), dice is not None, step["before"] - mean))
        state = state.apply(action)
    found.append((0, False, review["luck"]))  # the last: the review's luck
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--seed", type=int, default=500)
    parser.add_argument("--difficulty", action="append", choices=[d.value for d in Difficulty])
    parser.add_argument("--player", action="append", choices=PLAYERS)
    parser.add_argument("--by-empties", action="store_true")
    args = parser.parse_args()
    values = Values(memo=200_000)
    for name in args.difficulty or [d.value for d in Difficulty]:
        difficulty = Difficulty(name)
        by_empties: dict[int, list[float]] = {}
        for player in args.player or PLAYERS:
            start = time.process_time()
            every: list[float] = []
            early: list[float] = []
            lucks: list[float] = []
            rerolls: list[float] = []
            for i in range(args.games):
                seed = game_seed(args.seed, i)
                found = gaps(values, difficulty, seed, game(difficulty, seed, player))
                lucks.append(found.pop()[2])
                every += [g for _, _, g in found]
                rerolls += [g for _, r, g in found if r]
                for empties, _, g in found:
                    if empties > EXACT_UPTO[difficulty]:
                        early.append(g)
                        by_empties.setdefault(empties, []).append(g)
            se = statistics.stdev(lucks) / math.sqrt(len(lucks)) if len(lucks) > 1 else math.nan
            print(
                f"{name:9s} {player:9s} games {len(lucks):3d}  nodes {len(every):4d} "
                f"RMS {_rms(every):5.1f} max {max(map(abs, every), default=0):5.1f}  "
                f"before the exact end {len(early):4d}: RMS {_rms(early):5.1f}  "
                f"rerolls {len(rerolls):3d}: RMS {_rms(rerolls):5.1f}  "
                f"luck {statistics.fmean(lucks):+6.1f} ({se:.1f})  "
                f"CPU {time.process_time() - start:5.0f} s",
                flush=True,
            )
        if args.by_empties:
            _print_by_empties(name, by_empties)


def _print_by_empties(name: str, by_empties: dict[int, list[float]]) -> None:
    total = sum(g * g for at in by_empties.values() for g in at) or 1.0
    for empties, at in sorted(by_empties.items()):
        print(
            f"{name:9s} {empties:2d} empty: nodes {len(at):4d} RMS {_rms(at):5.1f} "
            f"max {max(map(abs, at)):5.1f}  share of the squared gap "
            f"{100 * sum(g * g for g in at) / total:4.1f} %"
        )


def _rms(gaps: list[float]) -> float:
    return math.sqrt(statistics.fmean(g * g for g in gaps)) if gaps else 0.0


if __name__ == "__main__":
    main()
