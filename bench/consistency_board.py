"""Can a value by the board make V consistent at chance nodes? (docs/bots.md "V, step by step").

``collect``: as ``consistency_fit.py collect`` (the same players, the same nodes: every phase
roll before the exact end that follows the computer's own choice), each row with the node's V in
parts *and its board*, and for each of the 126 outcomes V of the decision it leads to in parts
*and the board of the phase roll the computer's choice there leads to* (after a placement or a
RUIN the next phase roll; after BAWAS / DAGDAG, the choice after it; ``null`` when that V is exact:
the end, the exact end, or an I-ROLL ULIT, whose node is an exact mean). Games of several seeds
are played in turn (game i of each seed, then game i + 1), so that a collection stopped at any
time has games of each. Reroll nodes are not collected (they are exact means already).

``fit``: a correction g(board) added to V at every phase roll before the exact end (0 where V is
exact), fitted by least squares on the one-step equations
``V(node) + g(node) = Σ p_i [V(outcome_i) + g(board_i)]`` on the rows of the fitting seeds, and
the gaps left on rows of the held-out seeds, for several feature sets: ``empties`` (a term a count
of empty cells: today's table's form), ``simple`` (that plus cheap features of the board), and
``ntuple`` (that plus the n-tuple tables of ``bots/residual.py``, rows / columns / 2×2 squares by
their codes, with a ridge).

Usage: ``python bench/consistency_board.py collect --difficulty D --games N --seeds 700 900
--out F``; ``python bench/consistency_board.py fit F... --held-out 900 [--ridge 3]``.
"""

from __future__ import annotations

import argparse
import functools
import json
import math
import time
from typing import Any

from consistency_fit import _part, followed_nodes, player_of, read_rows
from magdagdon.bots.residual import TUPLES
from magdagdon.bots.value import Value, Values, after_advice, stage_of
from magdagdon.engine import Adjust, Difficulty, GameState, Phase, Reroll, Roll
from magdagdon.engine.board_codes import EMPTY, images
from magdagdon.engine.dice import roll_chances
from magdagdon.engine.scoring import LINES
from magdagdon.sim.summary import game_seed


def leads_to(values: Values, state: GameState) -> tuple[Value, GameState | None]:
    """V of the decision ``state`` (phase place or magdagdon) in parts, and the phase-roll state
    before the exact end its V is the value of (None where that V is exact): ``Values._decision``
    followed, its memo asked."""
    found, advice = values.explain(state)
    if found.key is None or advice is None:
        return found, None
    action = advice.action
    if isinstance(action, Adjust):
        return leads_to(values, state.apply(action))
    if isinstance(action, Reroll):
        return found, None  # an exact mean (keyed only with exact_rerolls off)
    after = after_advice(state, advice)
    if after.phase is not Phase.ROLL:
        raise ValueError(f"a choice led to phase {after.phase.value}, not a roll")
    return found, after


def _board(state: GameState) -> list[int]:
    return [*state.codes(), state.powers_left]


def node_row(values: Values, state: GameState) -> dict[str, Any]:
    """The phase roll ``state`` and each outcome's decision, in parts, with their boards (16 codes
    and the Power uses left)."""
    node = values.explain(state)[0]
    outcomes = []
    for v, p in roll_chances(4):
        found, leaf = leads_to(values, state.roll_with(v))
        outcomes.append([p, *_part(found), None if leaf is None else _board(leaf)])
    return {"node": _part(node), "board": _board(state), "outcomes": outcomes}


def collect(args: argparse.Namespace) -> None:
    difficulty = Difficulty(args.difficulty)
    values = Values(memo=50_000)
    start = time.process_time()
    with open(args.out, "a", encoding="utf-8") as out:
        for i in range(args.first, args.first + args.games):
            player = player_of(i)
            for base in args.seeds:
                seed = game_seed(base, i)
                began, nodes = time.process_time(), 0
                for state, action in followed_nodes(values, difficulty, seed, player):
                    if not isinstance(action, Roll):
                        continue  # a reroll node is an exact mean already
                    values.position(state)
                    row = node_row(values, state)
                    row.update(
                        difficulty=difficulty.value,
                        player=player,
                        base=base,
                        game=i,
                        seed=seed,
                        turn=state.turn,
                    )
                    out.write(json.dumps(row) + "\n")
                    out.flush()
                    nodes += 1
                print(
                    f"seed {base} game {i} {player:9s} nodes {nodes:2d}"
                    f"  CPU {time.process_time() - began:5.0f} s"
                    f"  total {time.process_time() - start:5.0f} s",
                    flush=True,
                )


# ----- the fit ---------------------------------------------------------------------------------

#: The cells around each cell, diagonals too (a feature's neighbourhood, wider than the rule's).
_AROUND = tuple(
    tuple(
        (r + dr) * 4 + c + dc
        for dr in (-1, 0, 1)
        for dc in (-1, 0, 1)
        if (dr or dc) and 0 <= r + dr < 4 and 0 <= c + dc < 4
    )
    for r in range(4)
    for c in range(4)
)


def _simple(
    board: list[int], raw: float, difficulty: Difficulty, chance: dict[tuple[int, ...], float]
) -> dict[str, float]:
    """Cheap features of a board (names and values), each times a one-hot of its stage, so that a
    feature's weight may differ early and late."""
    from magdagdon.bots.planner import magdagdon_chance
    from magdagdon.engine.rules import min_required

    codes = tuple(board[:16])
    empties = codes.count(EMPTY)
    key = codes
    found = chance.get(key)
    if found is None:
        found = chance[key] = magdagdon_chance(
            codes, min_required(difficulty.base_minimum, empties)
        )
    numbers = [c for c in codes if 1 <= c <= 6]
    ruins = codes.count(7)
    open_lines = sum(1 for line in LINES if 7 not in (codes[i] for i in line))
    full_lines = sum(1 for line in LINES if all(1 <= codes[i] <= 6 for i in line))
    dead = 0  # empty cells among numbers (diagonals too) more than 2 apart
    beside_number = 0
    for cell in range(16):
        if codes[cell] != EMPTY:
            continue
        near = [codes[j] for j in _AROUND[cell] if 1 <= codes[j] <= 6]
        if near:
            beside_number += 1
            if max(near) - min(near) > 2:
                dead += 1
    feats = {
        "chance": found,
        "chance2": found * found,
        "ruins": float(ruins),
        "distinct": float(len(set(numbers))),
        "open_lines": float(open_lines),
        "full_lines": float(full_lines),
        "dead": float(dead),
        "beside": float(beside_number),
        "powers": float(board[16]),
        "sum": sum(numbers) / 10,
        "raw": raw / 100,  # the look-ahead's own value at the board
    }
    stage = stage_of(empties)
    return {f"{name}@{stage}": value for name, value in feats.items()}


#: The tuples' classes under the board's symmetries: outer and inner lines, corner, edge and
#: centre squares.
_CLASSES = ("o", "i", "i", "o", "o", "i", "i", "o", "c", "e", "c", "e", "m", "e", "c", "e", "c")
_SHAPE = {0: "_", 7: "x"}  # else a number: "n"


@functools.lru_cache(maxsize=50_000)
def _ntuple(board: tuple[int, ...], shape: bool) -> dict[str, float]:
    """The n-tuples of ``bots/residual.py`` (rows, columns, 2×2 squares) by their codes (or, with
    ``shape``, by empty / number / RUIN and the stage), summed over the board's 8 images and
    named by the tuple's class, so that g is the same on every image of a board."""
    codes = tuple(board[:16])
    stage = stage_of(codes.count(EMPTY))
    found: dict[str, float] = {}
    for image in images(codes):
        for k, cells in enumerate(TUPLES):
            if shape:
                name = f"s{stage}{_CLASSES[k]}:" + "".join(_SHAPE.get(image[i], "n") for i in cells)
            else:
                name = f"t{_CLASSES[k]}:" + "".join(str(image[i]) for i in cells)
            found[name] = found.get(name, 0.0) + 0.125
    return found


def _features(
    kind: str, board: list[int], raw: float, difficulty: Difficulty, chance: dict[Any, float]
) -> dict[str, float]:
    """A feature set's features of a board: ``empties``, ``simple`` (and the empties), ``shape``
    (and the simple), ``ntuple`` (and the simple)."""
    empties = board[:16].count(EMPTY)
    found = {f"e{empties}": 1.0}
    if kind != "empties":
        found.update(_simple(board, raw, difficulty, chance))
    if kind in ("shape", "ntuple"):
        found.update(_ntuple(tuple(board[:16]), shape=kind == "shape"))
    return found


def _bucket(empties: int) -> str:
    return "13-16" if empties >= 13 else "9-12" if empties >= 9 else "5-8"


def _today(row: dict[str, Any], difficulty: Difficulty) -> float:
    """Today's gap of a row: V(node) − the mean of V over its outcomes (today's offsets)."""
    from magdagdon.bots.value import Key

    def value(raw: float, key: list[Any] | None) -> float:  # ``_part`` read back
        return Value(raw, None if key is None else Key(difficulty, *key)).value

    mean = sum(p * value(raw, key) for p, raw, key, _ in row["outcomes"])
    gap: float = value(*row["node"]) - mean
    return gap


def fit(args: argparse.Namespace) -> None:
    import numpy as np  # the fit only (a bench dependency)

    rows = read_rows(args.files)
    held = set(args.held_out)
    chance: dict[tuple[int, ...], float] = {}
    for name in sorted({r["difficulty"] for r in rows}):
        difficulty = Difficulty(name)
        mine = [
            r
            for r in rows
            if r["difficulty"] == name and (not args.players or r["player"] in args.players)
        ]
        train = [r for r in mine if r["base"] not in held]
        if args.fraction < 1:  # the first games of the fitting seeds only (a learning curve)
            last = max(r["game"] for r in train)
            train = [r for r in train if r["game"] <= last * args.fraction]
        test = [r for r in mine if r["base"] in held]
        b_train = np.array([_today(r, difficulty) for r in train])
        b_test = np.array([_today(r, difficulty) for r in test])
        print(
            f"{name}: {len(train)} nodes fitted ({len({(r['base'], r['game']) for r in train})}"
            f" games), {len(test)} held out ({len({(r['base'], r['game']) for r in test})} games)"
        )
        _report("today (g = 0)", train, b_train, test, b_test)
        for kind in args.kinds:
            # The rows' linear forms: gap_new = gap_today + g(node) − Σ p_i g(board_i).
            forms_train = [_form(kind, r, difficulty, chance) for r in train]
            forms_test = [_form(kind, r, difficulty, chance) for r in test]
            names = sorted({n for f in forms_train for n in f})
            index = {n: j for j, n in enumerate(names)}
            a = _matrix(forms_train, index, np)
            at = _matrix(forms_test, index, np)
            for ridge in args.ridge:
                # min |a θ + b|² + ridge |θ|²; by the smaller of the two systems
                if len(names) <= len(train):
                    lhs = a.T @ a + ridge * np.eye(len(names))
                    theta = np.linalg.solve(lhs, -a.T @ b_train)
                else:
                    lhs = a @ a.T + ridge * np.eye(len(train))
                    theta = -a.T @ np.linalg.solve(lhs, b_train)
                _report(
                    f"{kind} ({len(names)} weights, ridge {ridge:g})",
                    train,
                    b_train + a @ theta,
                    test,
                    b_test + at @ theta,
                )
            if args.show and kind != "ntuple":
                print("   ", {n: round(float(t), 2) for n, t in zip(names, theta, strict=True)})


def _form(
    kind: str, row: dict[str, Any], difficulty: Difficulty, chance: dict[Any, float]
) -> dict[str, float]:
    form = dict(_features(kind, row["board"], row["node"][0], difficulty, chance))
    for p, raw, key, board in row["outcomes"]:
        if key is None or board is None:
            continue
        for n, v in _features(kind, board, raw, difficulty, chance).items():
            form[n] = form.get(n, 0.0) - p * v
    return form


def _matrix(forms: list[dict[str, float]], index: dict[str, int], np: Any) -> Any:
    a = np.zeros((len(forms), len(index)))
    for i, form in enumerate(forms):
        for n, v in form.items():
            j = index.get(n)
            if j is not None:  # a feature unseen in fitting weighs 0
                a[i, j] += v
    return a


def _report(
    label: str,
    train: list[dict[str, Any]],
    gap_train: Any,
    test: list[dict[str, Any]],
    gap_test: Any,
) -> None:
    def stats(rows: list[dict[str, Any]], gaps: Any) -> str:
        out = []
        for bucket in ("all", "13-16", "9-12", "5-8"):
            sel = [
                float(g)
                for r, g in zip(rows, gaps, strict=True)
                if bucket == "all" or _bucket(r["board"][:16].count(EMPTY)) == bucket
            ]
            if not sel:
                out.append(f"{bucket} -")
                continue
            rms = math.sqrt(sum(g * g for g in sel) / len(sel))
            out.append(f"{bucket} {rms:4.1f}/{max(map(abs, sel)):4.1f} ({len(sel)})")
        return "  ".join(out)

    print(f"  {label}")
    print(f"    in sample  RMS/max (n): {stats(train, gap_train)}")
    print(f"    held out   RMS/max (n): {stats(test, gap_test)}")
    by: dict[int, list[float]] = {}
    for r, g in zip(test, gap_test, strict=True):
        by.setdefault(r["board"][:16].count(EMPTY), []).append(float(g))
    print(
        "    held out RMS by empty cells: "
        + "  ".join(
            f"{e}: {math.sqrt(sum(g * g for g in gs) / len(gs)):4.1f}"
            for e, gs in sorted(by.items())
        )
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    c = commands.add_parser("collect")
    c.add_argument("--difficulty", required=True, choices=[d.value for d in Difficulty])
    c.add_argument("--games", type=int, default=20)
    c.add_argument("--first", type=int, default=0, help="the first game's index")
    c.add_argument("--seeds", type=int, nargs="+", default=[700, 900])
    c.add_argument("--out", required=True)
    f = commands.add_parser("fit")
    f.add_argument("files", nargs="+")
    f.add_argument("--held-out", type=int, nargs="+", default=[900])
    f.add_argument("--kinds", nargs="+", default=["empties", "simple", "shape", "ntuple"])
    f.add_argument("--ridge", type=float, nargs="+", default=[1.0])
    f.add_argument("--show", action="store_true")
    f.add_argument("--fraction", type=float, default=1.0, help="of the fitting games")
    f.add_argument("--players", nargs="+", help="the rows of these players only")
    args = parser.parse_args()
    {"collect": collect, "fit": fit}[args.command](args)


if __name__ == "__main__":
    main()
