"""Fits V's correction by the board (``bots/value_board.py``, docs/bots.md "V by the board").

    uv run python bench/value_board_fit.py --difficulty D [--ridge 30] [--rounds 8] \\
        runs/D-own-S.jsonl runs/D-risky-S.jsonl ...

The files are ``calibration_bench.py collect``'s: the computer's own games and games it took over
from a bad player (``--player risky``) and from a random one (``--player random``). Only the
phase rolls are used. Each phase roll before the exact end is paired with the game's next phase
roll (every game reaches the exact end, where V is exact, before it is over), and the correction
g is fitted by TD(0) in rounds: in each, a ridge fit of V(next) + g(next) − V(this) on the
board's features, g(next) from the round before (0 within the exact end), V without any
correction (the offsets as they are now). The features: the 17 tuples' codes
(``residual.TUPLES``) of each of the board's eight images, each counting 1/8, the empty cells,
the Power uses left, the stage of the game with the RUINs on the board, and the stage with the
live cells.

The tuples' weights are then folded into one table a tuple (the mean over the images, so one
reading of the board gives the same value) and written, with the levels, to
``bots/data/value-board-D.bin``. Refit after the offsets (``calibration_bench.py fit``) or the
look-ahead change; check with ``calibration_bench.py report`` on other seeds.
"""

from __future__ import annotations

import argparse
from array import array
from typing import Any

import numpy as np

from calibration_bench import Row, load, value_now
from magdagdon.bots.endgame import EXACT_UPTO
from magdagdon.bots.residual import DATA, ENTRIES, TUPLES, reads
from magdagdon.bots.value import stage_of
from magdagdon.bots.value_board import (
    POWER_LEVELS,
    RUIN_LEVELS,
    SIZE,
    TUPLE_WEIGHTS,
    BoardCorrection,
    data_path,
    live_level,
)
from magdagdon.engine import Difficulty
from magdagdon.engine.board_codes import images

CELLS = 16
ITERATIONS = 500  # conjugate gradients steps at most; from the round before it takes under 250
#: Where each image reads its cells from: image k's cell i holds the board's cell READ[k][i].
READ = images(tuple(range(CELLS)))
Matrix = tuple[Any, Any, Any]  # the rows, columns and entries of a sparse design


def features(row: Row) -> list[tuple[int, float]]:
    """The columns of a phase roll's features and their values: what ``Residual`` reads of each
    of the board's images (its weight by empty cells among them), each at 1/8, and the levels."""
    stage = stage_of(row["empties"])
    codes = tuple(row["codes"])
    found = [
        (TUPLE_WEIGHTS + row["powers_left"], 1.0),
        (TUPLE_WEIGHTS + POWER_LEVELS + stage * 4 + min(row["ruins"], 3), 1.0),
        (TUPLE_WEIGHTS + POWER_LEVELS + RUIN_LEVELS + live_level(stage, codes), 1.0),
    ]
    for image in images(codes):
        found.extend((index, 1 / 8) for index in reads(image))
    return found


def design(rows: list[Row]) -> Matrix:
    at, columns, values = [], [], []
    for i, row in enumerate(rows):
        for column, value in features(row):
            at.append(i)
            columns.append(column)
            values.append(value)
    return np.array(at), np.array(columns), np.array(values)


def times(matrix: Matrix, w: Any, count: int) -> Any:
    """The design's ``count`` rows times the weights ``w``: each row's correction."""
    at, columns, values = matrix
    return np.bincount(at, weights=values * w[columns], minlength=count)


def ridge(
    matrix: Matrix,
    count: int,
    target: Any,
    penalty: Any,
    start: Any,
    *,
    iterations: int = ITERATIONS,
    tolerance: float = 1e-12,
) -> Any:
    """Least squares with a ridge (``penalty``: its strength on each weight), by conjugate
    gradients on the normal equations from ``start``."""
    at, columns, values = matrix

    def back(r: Any) -> Any:
        return np.bincount(columns, weights=values * r[at], minlength=len(penalty))

    b = back(target)
    w = start.copy()
    r = b - back(times(matrix, w, count)) - penalty * w
    p = r.copy()
    norm = r @ r
    for _ in range(iterations):
        q = back(times(matrix, p, count)) + penalty * p
        step = norm / (p @ q)
        w += step * p
        r -= step * q
        new = r @ r
        if new < tolerance * (b @ b):
            break
        p = r + new / norm * p
        norm = new
    print(f"  conjugate gradients: {_ + 1} steps, residual {np.sqrt(norm / (b @ b)):.1e} of b")
    return w


def folded(w: Any) -> Any:
    """The tuples' weights as one table a tuple: entry (t, codes) the mean over the eight images
    of the weight the image's tuple on the same cells has for the same codes."""
    out = w.copy()
    out[: len(TUPLES) * ENTRIES] = 0.0
    digits = np.array([[(i >> 9) & 7, (i >> 6) & 7, (i >> 3) & 7, i & 7] for i in range(ENTRIES)])
    where = {frozenset(cells): t for t, cells in enumerate(TUPLES)}
    for read in READ:
        for u, cells in enumerate(TUPLES):
            source = [read[cell] for cell in cells]  # the board's cells the image's tuple reads
            t = where[frozenset(source)]
            order = [TUPLES[t].index(cell) for cell in source]
            d = digits[:, order]
            index = ((d[:, 0] * 8 + d[:, 1]) * 8 + d[:, 2]) * 8 + d[:, 3]
            out[t * ENTRIES : (t + 1) * ENTRIES] += w[u * ENTRIES + index] / 8
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--difficulty", choices=[d.value for d in Difficulty], required=True)
    parser.add_argument("--ridge", type=float, default=30.0)
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("paths", nargs="+")
    args = parser.parse_args()
    difficulty = Difficulty(args.difficulty)
    rows = [
        r for r in load(args.paths) if r["difficulty"] == difficulty.value and r["kind"] == "roll"
    ]
    exact = EXACT_UPTO[difficulty]
    fitted, after = [], []
    for i, row in enumerate(rows[:-1]):
        following = rows[i + 1]  # the files keep each game's states in order
        same = (following["run_seed"], following["seed"]) == (row["run_seed"], row["seed"])
        # every game reaches the exact end before it is over (a turn fills at most 4 cells); a
        # file cut short may end in the middle of one
        # a dead board's V is exact (key None), as within the exact end
        estimated = row["key"] is not None
        if row["empties"] > exact and estimated and same and following["turn"] > row["turn"]:
            fitted.append(i)
            after.append(i + 1)
    mine = [rows[i] for i in fitted]
    base = np.array([value_now(r, corrected=False) for r in rows])
    matrix = design(mine)
    nexts = {j: k for k, j in enumerate(fitted)}  # a next phase roll still corrected
    position = np.array([nexts.get(j, -1) for j in after])
    w = np.zeros(SIZE)
    penalty = np.full(SIZE, args.ridge)  # on the tuples' weights; a tiny one on the levels
    penalty[TUPLE_WEIGHTS - 17 :] = 1e-2
    for round_ in range(args.rounds):
        g = times(matrix, w, len(mine))
        later = np.where(position >= 0, g[np.maximum(position, 0)], 0.0)
        target = base[after] + later - base[fitted]
        w = ridge(matrix, len(mine), target, penalty, w)
        error = target - times(matrix, w, len(mine))
        print(
            f"round {round_ + 1}: TD target RMS {np.sqrt(np.mean(target**2)):.2f}, "
            f"left {np.sqrt(np.mean(error**2)):.2f}"
        )
    table = folded(w)
    correction = BoardCorrection(array("d", table.tolist()))
    gap = 0.0
    g = times(matrix, w, len(mine))
    for k, row in enumerate(mine[:2000]):
        empties = row["empties"]
        single = correction(
            tuple(row["codes"]), empties, stage_of(empties), row["powers_left"], row["ruins"]
        )
        gap = max(gap, abs(single - g[k]))
    print(
        f"{len(mine)} phase rolls of {len({(r['run_seed'], r['seed']) for r in mine})} games; "
        f"one reading against the images' mean: at most {gap:.2e} apart"
    )
    path = DATA / data_path(difficulty)
    path.write_bytes(correction.to_bytes())
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
