"""Are the review's labels true? Labelled decisions of the human-like player (bench/
consistency_bench.py: the computer's move but in 30 % of turns, placed at random), each checked
against paired rollouts of the computer's play from the player's choice and from the computer's
(``bots/rollout.py``): the review's points given up should be within max(5 points, 2 se) of the
rollouts' mean difference, and no "gained by keeping a Power" (a Power the computer would use,
kept, at 5 points or more to the player's good) may be put at 0 or less by them.

Usage: ``python bench/label_bench.py [--decisions 200] [--rollouts 200] [--games 40]
[--seed 800] [--deeper]`` (one core; a rollout is a rest of a game, 0.05–0.5 s of CPU). With
``--deeper``, each placement or RUIN that does not agree is valued once more with both sides a
roll deeper than the review's (``deeper``: 10–20 s of CPU a label), to see how much of what is
left is V's error further on.
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any

from consistency_bench import game
from magdagdon.bots.hints import bot
from magdagdon.bots.ordered import ordered_sum
from magdagdon.bots.review import mean_after_choice, review_game
from magdagdon.bots.rollout import Start, agrees, paired
from magdagdon.bots.value import Values, after_advice, unstaged
from magdagdon.engine import Adjust, Difficulty, GameState, Phase, Reroll, Roll, Stage, Unstage
from magdagdon.engine.dice import roll_chances
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


def deeper(values: Values, start: Start) -> float | None:
    """V at a rollout's start a roll deeper than the review values it: the mean over the next
    roll of each outcome's computer's choice valued as the review does (``mean_after_choice``);
    None where the start is no phase roll."""
    state = start.state
    if start.reroll is not None or state.phase is not Phase.ROLL:
        return None
    return ordered_sum(
        chance * _choice(values, state.roll_with(dice)) for dice, chance in roll_chances(4)
    )


def _choice(values: Values, outcome: GameState) -> float:
    if outcome.is_over:
        return values.of(outcome)
    return mean_after_choice(values, outcome, values.advice(outcome))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decisions", type=int, default=200)
    parser.add_argument("--rollouts", type=int, default=200)
    parser.add_argument("--games", type=int, default=40, help="games a difficulty to sample from")
    parser.add_argument("--seed", type=int, default=800)
    parser.add_argument("--deeper", action="store_true", help="labels off: a roll deeper again")
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
        if args.deeper and not ok:
            sides = deeper(values, case["computer"]), deeper(values, case["player"])
            if sides[0] is not None and sides[1] is not None:
                print(f"    a roll deeper: {sides[0] - sides[1]:+7.1f}", flush=True)
    print(
        f"agree {agreed}/{len(chosen)} ({100 * agreed / max(1, len(chosen)):.0f} %, "
        "target >= 95 %); "
        f"gains by keeping a Power the rollouts put at <= 0: {wrong_gains} (target 0)"
    )


if __name__ == "__main__":
    main()
