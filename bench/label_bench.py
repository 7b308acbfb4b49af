"""Are the review's labels true? Labelled decisions of the human-like player (bench/
consistency_bench.py: the computer's move but in 30 % of turns, placed at random), each checked
against paired rollouts of the computer's play from the player's choice and from the computer's
(``bots/rollout.py``): the review's points given up should be within max(5 points, 2 se) of the
rollouts' mean difference, and no "gained by keeping a Power" (a Power the computer would use,
kept, at 5 points or more to the player's good) may be put at 0 or less by them.

Usage: ``python bench/label_bench.py [--decisions 200] [--rollouts 200] [--games 40]
[--seed 800]`` (one core; a rollout is a rest of a game, 0.05–0.5 s of CPU).
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any

from consistency_bench import game
from magdagdon.bots.hints import bot
from magdagdon.bots.review import review_game
from magdagdon.bots.rollout import Start, agrees, paired
from magdagdon.bots.value import Values, after_advice, unstaged
from magdagdon.engine import Adjust, Difficulty, GameState, Reroll, Roll, Stage, Unstage
from magdagdon.sim.summary import game_seed

Case = dict[str, Any]


def cases(values: Values, difficulty: Difficulty, seed: int) -> list[Case]:
    """The human-like player's game of ``seed``: its labelled decisions and its gains by
    keeping a Power, each with the starts of both choices' rollouts."""
    actions = game(difficulty, seed, "humanlike")
    review = review_game(difficulty, seed, actions, values=values)
    decisions = iter([s for s in review["steps"] if s["kind"] == "decision"])
    found: list[Case] = []
    state = GameState.new(difficulty, seed)
    for action in actions:
        if isinstance(action, Stage | Unstage | Roll):
            state = state.apply(action)
            continue
        step = next(decisions)
        suggested = step["suggested"][0]["type"]
        kept = suggested in ("adjust", "reroll") and step["played"][0]["type"] not in (
            "adjust",
            "reroll",
        )
        gained = kept and step["given_up"] <= -5
        if step["label"] or gained:
            position = unstaged(state)
            advice = values.advice(position)
            mine = Start(position, action.dice) if isinstance(action, Reroll) else None
            theirs = (
                Start(position, advice.action.dice)
                if isinstance(advice.action, Reroll)
                else Start(position.apply(advice.action))
                if isinstance(advice.action, Adjust)
                else Start(after_advice(position, advice))
            )
            found.append(
                {
                    "difficulty": difficulty.value,
                    "seed": seed,
                    "turn": step["turn"],
                    "type": step["type"],
                    "label": step["label"],
                    "given_up": step["given_up"],
                    "gained": gained,
                    "player": mine or Start(state.apply(action)),
                    "computer": theirs,
                }
            )
        state = state.apply(action)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decisions", type=int, default=200)
    parser.add_argument("--rollouts", type=int, default=200)
    parser.add_argument("--games", type=int, default=40, help="games a difficulty to sample from")
    parser.add_argument("--seed", type=int, default=800)
    args = parser.parse_args()
    values = Values(memo=50_000)
    pool: list[Case] = []
    for difficulty in Difficulty:
        for i in range(args.games):
            pool += cases(values, difficulty, game_seed(args.seed, i))
    chosen = random.Random(args.seed).sample(pool, min(args.decisions, len(pool)))
    print(
        f"{len(pool)} labelled decisions in {args.games} games a difficulty; {len(chosen)} checked"
    )
    agreed = wrong_gains = 0
    start = time.process_time()
    for case in chosen:
        found = paired(bot(), case["computer"], case["player"], args.rollouts, seed=case["seed"])
        ok = agrees(case["given_up"], found)
        agreed += ok
        wrong_gains += case["gained"] and -found.mean <= 0
        print(
            f"{case['difficulty']:9s} seed {case['seed']:>20d} turn {case['turn']:2d} "
            f"{case['type']:6s} {case['label'] or 'gained':10s} review {case['given_up']:+7.1f}  "
            f"rollouts {found.mean:+7.1f} ({found.se:4.1f})  {'ok' if ok else 'OFF'}  "
            f"CPU {time.process_time() - start:5.0f} s",
            flush=True,
        )
    print(
        f"agree {agreed}/{len(chosen)} ({100 * agreed / max(1, len(chosen)):.0f} %, "
        "target >= 95 %); "
        f"gains by keeping a Power the rollouts put at <= 0: {wrong_gains} (target 0)"
    )


if __name__ == "__main__":
    main()
