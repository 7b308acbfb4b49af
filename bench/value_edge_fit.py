"""Fits V's correction at the edge of the exact end (``bots/value_edge.py``, docs/bots.md "V at
the edge of the exact end").

    uv run python bench/value_edge_fit.py collect --difficulty D --seed S --games A B --out F \
        [--empties E] [--own]
    uv run python bench/value_edge_fit.py fit F... --held-out F... [--ridge 1] \
        [--chance-ridge 0.01] [--on-tables] [--write]
    uv run python bench/value_edge_fit.py first --difficulty D --empties E --boards N --out F

``collect``: seeded games of the five players of ``consistency_bench.py`` (game i played by
``PLAYERS[i % 5]``); at each of their phase rolls a few counts of empty cells before the edge,
``--outcomes`` of the 126 rolls drawn by the game's seed, each followed by the computer's choice
(through its BAWAS −1 / DAGDAG +1): where that leaves a phase roll at ``--empties`` empty cells
(the edge, one count before ``endgame.EXACT_UPTO``, unless told; not dead), its board, V in parts
as the code stands, without the tables at that count, and the exact mean of V over its 126
outcomes. These are the chance nodes a review shows V at: those after the computer's own choice.
With ``--own`` each is followed by the player's own choice instead, so the rows are boards of the
kind that player's own review shows. One JSON row a board.

``first``: the boards a player's own first turn can leave at ``--empties`` empty cells (its
dice placed as any plan of the turn's, no Power), ``--boards`` of them drawn at random, as rows
of the same kind (player ``first``, seed the draw's index): the collected rows are the boards of
the computer's choice, and a first turn's are few (on NIGHTMARE 65 distinct at 13 cells), so a
table at 12 or 13 cells needs the boards a player may leave beside them.

``fit``: the n-tuple tables (``residual.TUPLES`` of each of the board's eight images, each at
1/8, and a level), the MAGDAGDON terms and the whole board's levels (``board_levels``) fitted
by least squares with a ridge to the mean less V, on the files given (the MAGDAGDON chance's
terms with a ridge of their own: their linear and square terms can cancel each other far past
the 16-bit weights' ±128 points); the gap's RMS and largest before
and after (and the committed tables' RMS) on the fitted and the ``--held-out`` files; with
``--write``, the tables folded into one a tuple (``value_board_fit.folded``: one reading gives
the images' mean) into ``bots/data/value-edge-D-E.bin`` (E: the rows' empty cells). With
``--on-tables`` the fit is a change to the committed tables, the ridge holding it near them: so
boards collected later add to those the tables were fitted on, whose rows need not be at hand.
Refit after the look-ahead, the offsets or the correction by the board change (at the edge
first: the count before it reaches the edge by a RUIN).
"""

from __future__ import annotations

import argparse
import json
import random
import time
from array import array
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from consistency_bench import PLAYERS, game, player_turn
from magdagdon.bots.advice import placed
from magdagdon.bots.opening import first_plans
from magdagdon.bots.planner import Placement, magdagdon_chance
from magdagdon.bots.residual import DATA, reads
from magdagdon.bots.value import Value, Values, next_roll
from magdagdon.bots.value_board import TUPLE_WEIGHTS
from magdagdon.bots.value_edge import (
    BOARD_LEVELS,
    BY_CHANCE,
    POWER_LEVELS,
    SIZE,
    STEP,
    EdgeCorrection,
    board_levels,
    data_path,
    edge,
    edge_correction,
    edge_tables,
)
from magdagdon.engine import Action, Difficulty, GameState, Phase, Roll
from magdagdon.engine.board_codes import EMPTY, Codes, dead, images
from magdagdon.engine.dice import roll_chances
from magdagdon.engine.rules import min_required
from magdagdon.sim.summary import game_seed
from value_board_fit import Matrix, folded, ridge

if TYPE_CHECKING:
    from collections.abc import Callable

Row = dict[str, Any]
#: How many counts of empty cells before the edge the rolls followed are drawn from: a turn
#: places 2–4 dice, and a RUIN fills one cell.
BEFORE = 4
OUTCOMES = [values for values, _ in roll_chances(4)]


def collect(
    difficulty: Difficulty,
    seed: int,
    first: int,
    last: int,
    out: Path,
    k: int,
    at: int,
    *,
    own: bool = False,
) -> None:
    values = Values(memo=200_000)
    start = time.process_time()
    rows = 0
    with out.open("a") as sink:
        for i in range(first, last):
            player = PLAYERS[i % len(PLAYERS)]
            game_of = game_seed(seed, i)
            rng = random.Random(game_of)
            state = GameState.new(difficulty, game_of)
            seen: set[tuple[object, ...]] = set()
            for action in game(difficulty, game_of, player):
                if isinstance(action, Roll) and at < state.codes().count(EMPTY) <= at + BEFORE:
                    for j, dice in enumerate(rng.sample(OUTCOMES, k)):
                        rolled = state.roll_with(dice)
                        node = (
                            own_next_roll(rolled, player_turn(player, game_of * 1000 + j))
                            if own
                            else next_roll(values, rolled)
                        )
                        if node is None:
                            continue
                        codes = tuple(node.codes())
                        if codes.count(EMPTY) != at or dead(codes):
                            continue
                        if (codes, node.powers_used) in seen:
                            continue
                        seen.add((codes, node.powers_used))
                        sink.write(json.dumps(_row(values, player, game_of, node)) + "\n")
                        rows += 1
                state = state.apply(action)
            sink.flush()
            print(f"game {i} ({player}): {rows} boards, CPU {time.process_time() - start:.0f} s")


def own_next_roll(state: GameState, turn: Callable[[GameState], list[Action]]) -> GameState | None:
    """The phase roll the player's own ``turn`` at ``state`` (a decision) leads to; None where
    the game ends there."""
    while state.phase is not Phase.ROLL:
        if state.is_over:
            return None
        for action in turn(state):
            state = state.apply(action)
    return None if state.is_over else state


def _row(values: Values, player: str, seed: int, node: GameState) -> Row:
    """One row: ``node`` (a phase roll, not dead), V in parts without the tables at its count,
    and the exact mean of V over its outcomes."""
    codes = tuple(node.codes())
    found: Value = values.explain(node)[0]
    part = edge_correction(node.difficulty, codes, codes.count(EMPTY), node.powers_left)
    return {
        "difficulty": node.difficulty.value,
        "player": player,
        "seed": seed,
        "codes": codes,
        "powers_used": node.powers_used,
        "v": found.value - part,  # without the edge's tables
        "mean": values.expected(node),
    }


def collect_first(difficulty: Difficulty, at: int, count: int, out: Path) -> None:
    plans: dict[Codes, tuple[GameState, Placement]] = {}
    for state, board, plan in first_plans(difficulty):
        if board.count(EMPTY) == at and not dead(board):
            plans.setdefault(board, (state, plan))
    print(f"{len(plans)} boards at {at} empty cells")
    values = Values()
    start = time.process_time()
    drawn = random.Random(at).sample(sorted(plans), min(count, len(plans)))
    with out.open("w") as sink:
        for i, board in enumerate(drawn):
            row = _row(values, "first", i, placed(*plans[board]))
            sink.write(json.dumps(row) + "\n")
            if i % 50 == 49:
                sink.flush()
                print(f"{i + 1} boards, CPU {time.process_time() - start:.0f} s")


def _left(row: Row) -> int:
    return int(Difficulty(row["difficulty"]).power_uses - row["powers_used"])


def load(paths: list[str]) -> list[Row]:
    return [json.loads(line) for path in paths for line in Path(path).read_text().splitlines()]


def design(rows: list[Row]) -> Matrix:
    """Each row's tuples read on each of its images at 1/8 (the level by empty cells at 1), the
    next roll's MAGDAGDON chance and its square at its Power uses left, the level by Power uses
    left, and its whole-board levels."""
    at, columns, weights = [], [], []
    for i, row in enumerate(rows):
        codes = tuple(row["codes"])
        for image in images(codes):
            for index in reads(image):
                at.append(i)
                columns.append(index)
                weights.append(1 / 8)
        difficulty = Difficulty(row["difficulty"])
        chance = magdagdon_chance(codes, min_required(difficulty.base_minimum, codes.count(EMPTY)))
        left = _left(row)
        by_chance = TUPLE_WEIGHTS + BY_CHANCE * left
        levels = [SIZE - BOARD_LEVELS + level for level in board_levels(codes)]
        at += [i] * (3 + len(levels))
        columns += [by_chance, by_chance + 1, TUPLE_WEIGHTS + BY_CHANCE * POWER_LEVELS + left]
        columns += levels
        weights += [chance, chance * chance, 1.0] + [1.0] * len(levels)
    return np.array(at), np.array(columns), np.array(weights)


def _gaps(rows: list[Row], tables: EdgeCorrection | None) -> Any:
    """Each row's V (with ``tables`` read as the product reads them) less the mean."""
    gaps = []
    for row in rows:
        codes = tuple(row["codes"])
        base = Difficulty(row["difficulty"]).base_minimum
        correction = 0.0
        if tables is not None:
            correction = tables(codes, codes.count(EMPTY), base, _left(row))
        gaps.append(row["v"] + correction - row["mean"])
    return np.array(gaps)


def fit(
    paths: list[str],
    held_out: list[str],
    strength: float,
    on_chance: float,
    write: bool,
    *,
    on_tables: bool = False,
) -> None:
    rows, others = load(paths), load(held_out)
    difficulty = Difficulty(rows[0]["difficulty"])
    empties = rows[0]["codes"].count(EMPTY)
    now = edge_tables(difficulty, empties)  # the committed tables, shown beside the fit
    # with ``on_tables``, what is fitted is a change to the committed tables, the ridge holding
    # it near them: the boards they were fitted on, no longer at hand, still weigh in
    base = now if on_tables else None
    penalty = np.full(SIZE, strength)  # on the tuples' weights
    by_powers = TUPLE_WEIGHTS + BY_CHANCE * POWER_LEVELS
    penalty[TUPLE_WEIGHTS - 17 : TUPLE_WEIGHTS] = 1e-2  # the level
    penalty[TUPLE_WEIGHTS:by_powers] = on_chance
    penalty[by_powers:] = 1.0  # by Power uses and the whole board's: beside the level by empties
    target = -_gaps(rows, base)  # the mean less V (with the committed tables, ``on_tables``)
    start = np.zeros(SIZE)
    w = ridge(design(rows), len(rows), target, penalty, start, iterations=5000, tolerance=1e-14)
    w = folded(w) + (np.array(base.weights) if base is not None else 0.0)
    tables = EdgeCorrection(array("d", [round(x / STEP) * STEP for x in w]))
    for name, sample in (("fitted on", rows), ("held out", others)):
        before, after = _gaps(sample, None), _gaps(sample, tables)
        committed = "" if now is None else f" (committed: {_rms(_gaps(sample, now)):5.1f})"
        print(
            f"{name:9s} {len(sample):5d} boards: V − mean RMS {_rms(before):5.1f} -> "
            f"{_rms(after):5.1f}{committed}, largest {np.max(np.abs(before)):5.1f} -> "
            f"{np.max(np.abs(after)):5.1f}, mean {np.mean(before):+5.1f} -> {np.mean(after):+5.1f}"
        )
    if write:
        path = DATA / data_path(difficulty, empties)
        path.write_bytes(tables.to_bytes())
        print(f"wrote {path}")


def _rms(gaps: Any) -> float:
    return float(np.sqrt(np.mean(gaps**2)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    gather = commands.add_parser("collect")
    gather.add_argument("--difficulty", choices=[d.value for d in Difficulty], required=True)
    gather.add_argument("--seed", type=int, required=True)
    gather.add_argument("--games", type=int, nargs=2, required=True, metavar=("FIRST", "LAST"))
    gather.add_argument("--outcomes", type=int, default=8)
    gather.add_argument("--empties", type=int, help="the phase rolls' empty cells (the edge)")
    gather.add_argument("--out", type=Path, required=True)
    gather.add_argument("--own", action="store_true", help="follow the player's own choice")
    firsts = commands.add_parser("first")
    firsts.add_argument("--difficulty", choices=[d.value for d in Difficulty], required=True)
    firsts.add_argument("--empties", type=int, required=True)
    firsts.add_argument("--boards", type=int, default=800)
    firsts.add_argument("--out", type=Path, required=True)
    fitting = commands.add_parser("fit")
    fitting.add_argument("paths", nargs="+")
    fitting.add_argument("--held-out", nargs="+", required=True)
    fitting.add_argument("--ridge", type=float, default=1.0)
    fitting.add_argument("--chance-ridge", type=float, default=1e-2)
    fitting.add_argument("--write", action="store_true")
    fitting.add_argument("--on-tables", action="store_true", help="fit a change to the tables")
    args = parser.parse_args()
    if args.command == "collect":
        first, last = args.games
        difficulty = Difficulty(args.difficulty)
        at = args.empties or edge(difficulty)
        collect(difficulty, args.seed, first, last, args.out, args.outcomes, at, own=args.own)
    elif args.command == "first":
        collect_first(Difficulty(args.difficulty), args.empties, args.boards, args.out)
    else:
        fit(
            args.paths,
            args.held_out,
            args.ridge,
            args.chance_ridge,
            args.write,
            on_tables=args.on_tables,
        )


if __name__ == "__main__":
    main()
