"""V's offsets fitted for consistency at chance nodes (docs/bots.md "V, step by step").

``collect``: seeded games of the players of ``consistency_bench.py``; at every chance node
before the exact end that follows the computer's own choice (where a review shows V, not an
exact mean), V of the node and V of the decision each outcome leads to, each in its parts (the
look-ahead's value and the key of its offset, or an exact value), so that any table of offsets
can be checked against them without a search. One JSON row a node.

``fit``: the offsets (``bots/value_calibration.py``'s form) that make V before each node the
mean of V over its outcomes, by least squares, held near today's table where the rows say
little (ridge); the exact end anchors the level. Prints the gaps before and after and the
module's tables.

Usage: ``python bench/consistency_fit.py collect --difficulty D --games N --seed S --out F``;
``python bench/consistency_fit.py fit F... [--ridge 1]``.
"""

from __future__ import annotations

import argparse
import json
import math
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from consistency_bench import game
from magdagdon.bots.endgame import EXACT_UPTO
from magdagdon.bots.value import Value, Values, stage_of
from magdagdon.bots.value_calibration import REROLL_OFFSETS, ROLL_OFFSETS
from magdagdon.engine import Difficulty, GameState, Phase, Reroll, Roll
from magdagdon.engine.board_codes import EMPTY
from magdagdon.engine.dice import roll_chances
from magdagdon.sim.summary import game_seed

if TYPE_CHECKING:
    from collections.abc import Iterator

#: The players' shares of the games collected (the computer's own boards most).
MIX = (("computer", 4), ("humanlike", 3), ("greedy", 1), ("random", 1), ("risky", 1))
_ROTATION = tuple(name for name, share in MIX for _ in range(share))


def player_of(game: int) -> str:
    """The player of a collection's ``game``-th game: ``MIX``'s players in turn, by share."""
    return _ROTATION[game % len(_ROTATION)]


def _part(found: Value) -> list[Any]:
    key = found.key
    if key is None:
        return [found.raw, None]
    return [found.raw, [key.reroll, key.empties, key.powers_left, key.ruins]]


def node_row(values: Values, state: GameState, dice: tuple[int, ...] | None) -> dict[str, Any]:
    """V of the chance node (the ROLL of ``state``, or its I-ROLL ULIT of ``dice``) and of the
    decision each of its outcomes leads to, in parts."""
    if dice is None:
        node = values.explain(state)[0]
        outcomes = [(p, state.roll_with(v)) for v, p in roll_chances(4)]
    else:
        node = values.reroll(state, dice)
        outcomes = [(p, state.reroll_with(dice, v)) for v, p in roll_chances(len(dice))]
    return {
        "node": _part(node),
        "outcomes": [[p, *_part(values.explain(after)[0])] for p, after in outcomes],
    }


def collect(args: argparse.Namespace) -> None:
    difficulty = Difficulty(args.difficulty)
    values = Values(memo=50_000)
    start = time.process_time()
    with open(args.out, "a", encoding="utf-8") as out:
        for i in range(args.games):
            seed = game_seed(args.seed, i)
            player = player_of(i)
            for state, action in followed_nodes(values, difficulty, seed, player):
                dice = action.dice if isinstance(action, Reroll) else None
                row = node_row(values, state, dice)
                row.update(difficulty=difficulty.value, player=player, seed=seed, turn=state.turn)
                out.write(json.dumps(row) + "\n")
            out.flush()
            print(
                f"game {i + 1}/{args.games} {player}  CPU {time.process_time() - start:.0f} s",
                flush=True,
            )


def followed_nodes(
    values: Values, difficulty: Difficulty, seed: int, player: str
) -> Iterator[tuple[GameState, Roll | Reroll]]:
    """The chance nodes of ``player``'s game of ``seed`` before the exact end that follow the
    computer's own choice (or the start), where a review shows V and not an exact mean: each
    state with its ROLL or I-ROLL ULIT."""
    actions = game(difficulty, seed, player)
    state = GameState.new(difficulty, seed)
    followed = True
    for action in actions:
        early = state.codes().count(EMPTY) > EXACT_UPTO[difficulty]
        if isinstance(action, Roll | Reroll) and early and followed:
            yield state, action
        if state.phase in (Phase.PLACE, Phase.MAGDAGDON) and not state.order:
            followed = _is_advice(values, state, actions, action)
        state = state.apply(action)


def read_rows(paths: list[str]) -> list[dict[str, Any]]:
    """The rows of ``collect``'s files (one JSON object a line)."""
    return [
        json.loads(line)
        for path in paths
        for line in Path(path).read_text(encoding="utf-8").splitlines()
        if line.strip()
    ]


def _is_advice(values: Values, state: GameState, actions: list[Any], action: Any) -> bool:
    # Whether the decision made here is the computer's: judged when its last action is played
    # is simpler, but the next chance node only needs to know the turn started as advised.
    advice = values.advice(state)
    return bool(action == advice.action)


def _columns(difficulty: Difficulty) -> list[tuple[str, tuple[int, ...]]]:
    cols: list[tuple[str, tuple[int, ...]]] = []
    cols += [("e", (e,)) for e in range(EXACT_UPTO[difficulty] + 1, 17)]
    cols += [("p", (p,)) for p in range(4)]
    cols += [("r", (s, r)) for s in range(3) for r in range(1, 4)]
    cols += [("x", (s, p)) for s in range(3) for p in range(1, 4)]
    return cols


def _indices(key: list[Any], index: dict[tuple[str, tuple[int, ...]], int]) -> list[int]:
    reroll, empties, powers, ruins = key
    stage = stage_of(empties)
    if reroll:
        return [index[("x", (stage, powers))]]
    found = [index[("e", (empties,))], index[("p", (powers,))]]
    if ruins:
        found.append(index[("r", (stage, min(ruins, 3)))])
    return found


def fit(args: argparse.Namespace) -> None:
    import numpy as np  # the fit only (a bench dependency)

    rows = read_rows(args.files)
    for name in sorted({r["difficulty"] for r in rows}):
        difficulty = Difficulty(name)
        mine = [r for r in rows if r["difficulty"] == name]
        cols = _columns(difficulty)
        index = {c: i for i, c in enumerate(cols)}
        today = np.array([_today(difficulty, kind, at) for kind, at in cols])
        a = np.zeros((len(mine), len(cols)))
        b = np.zeros(len(mine))
        for i, row in enumerate(mine):
            raw, key = row["node"]
            b[i] -= raw
            for j in _indices(key, index):
                a[i, j] += 1
            for p, raw_o, key_o in row["outcomes"]:
                b[i] += p * raw_o
                if key_o is not None:
                    for j in _indices(key_o, index):
                        a[i, j] -= p
        # gap = a·θ − b; minimise |gap|² + ridge |θ − today|²
        ridge = args.ridge
        lhs = a.T @ a + ridge * np.eye(len(cols))
        theta = np.linalg.solve(lhs, a.T @ b + ridge * today)
        for label, t in (("today", today), ("fitted", theta)):
            gap = a @ t - b
            rms = math.sqrt(float(np.mean(gap**2)))
            print(
                f"{name:9s} {label:6s} nodes {len(mine)}  RMS {rms:5.2f}"
                f"  max {float(np.max(np.abs(gap))):5.1f}  mean {float(np.mean(gap)):+5.2f}"
            )
        print(
            json.dumps(
                {
                    f"{k}{list(at)}": round(float(v), 1)
                    for (k, at), v in zip(cols, theta, strict=True)
                }
            )
        )


def _today(difficulty: Difficulty, kind: str, at: tuple[int, ...]) -> float:
    by_empties, by_powers, by_ruins = ROLL_OFFSETS[difficulty]
    if kind == "e":
        return by_empties[at[0]]
    if kind == "p":
        return by_powers[at[0]]
    if kind == "r":
        return by_ruins[at[0]][at[1]]
    return REROLL_OFFSETS[difficulty][at[0]][at[1]]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    c = commands.add_parser("collect")
    c.add_argument("--difficulty", required=True, choices=[d.value for d in Difficulty])
    c.add_argument("--games", type=int, default=20)
    c.add_argument("--seed", type=int, default=700)
    c.add_argument("--out", required=True)
    f = commands.add_parser("fit")
    f.add_argument("files", nargs="+")
    f.add_argument("--ridge", type=float, default=1.0)
    args = parser.parse_args()
    {"collect": collect, "fit": fit}[args.command](args)


if __name__ == "__main__":
    main()
