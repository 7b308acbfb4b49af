"""The board evaluation: an estimate of the final score a board is heading for.

A board is 16 cell codes (0 empty, 1–6 a number, 7 a RUIN), as :func:`engine.board.to_codes`.
Each empty cell is described by the values it still accepts under the ±1 rule (a bit mask of
values; none left = it can never be filled and will become a RUIN). Each of the eight lines is then
scored from a memoised table: the best completion that respects the ±1 rule along the line, its
combination bonus discounted by how many cells are still open (or, with ``cell_share``, by how
many values each open cell still accepts: a cell with a single choice is nearly as good as filled).
Optionally the values accepted next to a number count (``frontier``), an offset by the number of
empty cells (``calibration``, fitted by ``bench/fit_eval.py``) makes boards of different stages of
the game comparable, and a learned correction (``residual``, see ``bots/residual.py``) is added.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import pairwise, product

from magdagdon.bots.residual import Residual
from magdagdon.bots.residual import load as load_residual
from magdagdon.engine.board import NEIGHBOURS, RUIN_CODE
from magdagdon.engine.board_codes import ANY_VALUE, BESIDE, EMPTY, Codes, mask_values
from magdagdon.engine.rules import RUIN_PENALTY, may_touch
from magdagdon.engine.scoring import line_bonus

#: An open cell's entry in a line key: 8 + the mask of the values it accepts (a RUIN is 7).
_OPEN = RUIN_CODE + 1
_MASKS = range(ANY_VALUE + 1)
_PAIRS = tuple((a, b) for a in range(16) for b in NEIGHBOURS[a] if a < b)


def _beside_some(mask: int) -> int:
    """The values that may stand beside some value of ``mask``."""
    out = 0
    for value in mask_values(mask):
        out |= BESIDE[value]
    return out


#: Whether two neighbouring cells accepting these value masks can both hold numbers.
_COMPATIBLE = tuple(tuple(bool(ma & _beside_some(mb)) for mb in _MASKS) for ma in _MASKS)
#: By two values along a line (0 for a RUIN): whether they stand side by side against the rules.
_CLASH = tuple(tuple(bool(a and b and not may_touch(a, b)) for b in range(7)) for a in range(7))
#: The frontier counts on boards with at least this many empty cells.
_FRONTIER_FROM = 6
#: An empty cell's entry in a line key, by the mask of the values it accepts (none: a RUIN).
_ENTRY = (RUIN_CODE, *(_OPEN + mask for mask in _MASKS[1:]))


@dataclass(frozen=True, slots=True)
class Weights:
    """The tunable numbers of the evaluation."""

    #: How much of a combination bonus counts, by the number of open cells in its line.
    bonus_share: tuple[float, ...] = (1.0, 0.8, 0.55, 0.3, 0.15)
    #: Points taken off for every open cell of a line (the best completion is optimistic).
    open_cell: float = 0.6
    #: Cost of two neighbouring open cells that no two values can fill together.
    conflict: float = 0.0
    #: Extra cost of an open cell, by how many values it accepts (one, two, …).
    narrow: tuple[float, ...] = (0.0, 4.0, 1.0, 0.0, 0.0, 0.0, 0.0)
    #: When set: the share of a combination bonus is the product, over the line's open cells, of
    #: this number by how many values the cell accepts (instead of ``bonus_share``).
    cell_share: tuple[float, ...] | None = None
    #: When set: points added to a board's evaluation, by its number of empty cells (0–16), so
    #: that boards of different stages of the game compare by the final score they come to.
    calibration: tuple[float, ...] | None = None
    #: Points for each value that some open cell next to a number accepts (the values a die can
    #: be staged with now), on boards with at least six empty cells: the more a board accepts,
    #: the less likely the next rolls end in a MAGDAGDON.
    frontier: float = 0.0
    #: When set: the name of a learned correction (``bots/residual.py``) added to the value of
    #: every board with an empty cell.
    residual: str | None = None
    #: How much of the learned correction counts.
    residual_share: float = 1.0


DEFAULT = Weights()

#: Line values by line key (its four cells' entries: a number's or a RUIN's code, an open cell's
#: ``_ENTRY``), one table for each set of the weights they depend on.
_LINE_TABLES: dict[
    tuple[tuple[float, ...], tuple[float, ...] | None, float], dict[tuple[int, ...], float]
] = {}


class Evaluator:
    """Scores boards with one set of :class:`Weights`; line values and boards are memoised."""

    def __init__(self, weights: Weights = DEFAULT, residual: Residual | None = None) -> None:
        """``residual`` overrides the correction named by the weights (to train one)."""
        self.weights = weights
        if residual is None and weights.residual is not None:
            residual = load_residual(weights.residual)
        # Read as a bound method, with the empty cells counted here (every board evaluated).
        self._correction = residual.reader() if residual is not None else None
        self._share = weights.residual_share
        # A line's value depends on these weights alone: every evaluator with them (each bot's,
        # each review's) shares one table, filled as lines are met.
        line_weights = (weights.bonus_share, weights.cell_share, weights.open_cell)
        self._lines = _LINE_TABLES.setdefault(line_weights, {})
        # By the mask of values an empty cell accepts: its cost (none accepted: a RUIN to come).
        self._cost = (RUIN_PENALTY, *(weights.narrow[len(mask_values(m))] for m in _MASKS[1:]))
        self._boards: dict[Codes, float] = {}
        self._calibration = weights.calibration
        self._frontier = weights.frontier
        self._extras = bool(weights.frontier or weights.conflict)

    def forget(self) -> None:
        """Drop the memoised board values (after the correction they include has changed)."""
        self._boards.clear()

    def __call__(self, codes: Codes) -> float:
        """The estimated final score of ``codes`` (RUINs included, Power penalties not)."""
        found = self._boards.get(codes)
        if found is not None:
            return found
        if len(self._boards) > 400_000:
            self._boards.clear()
        empties = codes.count(EMPTY)
        penalty = float(RUIN_PENALTY * codes.count(RUIN_CODE))
        if self._calibration is not None:
            penalty -= self._calibration[empties]
        cost, entry = self._cost, _ENTRY
        # Each empty cell's cost added cell by cell, as it was always summed; its entry in the
        # line keys is its mask's (a number's or a RUIN's is its code).
        e0, e1, e2, e3, e4, e5, e6, e7, e8, e9, e10, e11, e12, e13, e14, e15 = codes
        # The values each empty cell accepts from its neighbours (``fit_masks``, written out).
        beside = BESIDE
        b0, b1, b2, b3 = beside[e0], beside[e1], beside[e2], beside[e3]
        b4, b5, b6, b7 = beside[e4], beside[e5], beside[e6], beside[e7]
        b8, b9, b10, b11 = beside[e8], beside[e9], beside[e10], beside[e11]
        b12, b13, b14, b15 = beside[e12], beside[e13], beside[e14], beside[e15]
        if not e0:
            m = b1 & b4
            penalty += cost[m]
            e0 = entry[m]
        if not e1:
            m = b0 & b2 & b5
            penalty += cost[m]
            e1 = entry[m]
        if not e2:
            m = b1 & b3 & b6
            penalty += cost[m]
            e2 = entry[m]
        if not e3:
            m = b2 & b7
            penalty += cost[m]
            e3 = entry[m]
        if not e4:
            m = b0 & b5 & b8
            penalty += cost[m]
            e4 = entry[m]
        if not e5:
            m = b1 & b4 & b6 & b9
            penalty += cost[m]
            e5 = entry[m]
        if not e6:
            m = b2 & b5 & b7 & b10
            penalty += cost[m]
            e6 = entry[m]
        if not e7:
            m = b3 & b6 & b11
            penalty += cost[m]
            e7 = entry[m]
        if not e8:
            m = b4 & b9 & b12
            penalty += cost[m]
            e8 = entry[m]
        if not e9:
            m = b5 & b8 & b10 & b13
            penalty += cost[m]
            e9 = entry[m]
        if not e10:
            m = b6 & b9 & b11 & b14
            penalty += cost[m]
            e10 = entry[m]
        if not e11:
            m = b7 & b10 & b15
            penalty += cost[m]
            e11 = entry[m]
        if not e12:
            m = b8 & b13
            penalty += cost[m]
            e12 = entry[m]
        if not e13:
            m = b9 & b12 & b14
            penalty += cost[m]
            e13 = entry[m]
        if not e14:
            m = b10 & b13 & b15
            penalty += cost[m]
            e14 = entry[m]
        if not e15:
            m = b11 & b14
            penalty += cost[m]
            e15 = entry[m]
        if self._extras:
            entries = [e0, e1, e2, e3, e4, e5, e6, e7, e8, e9, e10, e11, e12, e13, e14, e15]
            penalty = self._frontier_and_conflicts(entries, empties, penalty)
        lines = self._lines
        while True:  # a line not valued yet is valued once, and the sum taken again
            try:
                # A line's key is the tuple of its entries: a tuple of four small ints hashes
                # in C for less than the three products and sums that would make it one int.
                total = (  # the rows, then the columns (``scoring.LINES``), added in that order
                    -penalty
                    + lines[e0, e1, e2, e3]
                    + lines[e4, e5, e6, e7]
                    + lines[e8, e9, e10, e11]
                    + lines[e12, e13, e14, e15]
                    + lines[e0, e4, e8, e12]
                    + lines[e1, e5, e9, e13]
                    + lines[e2, e6, e10, e14]
                    + lines[e3, e7, e11, e15]
                )
                break
            except KeyError as missing:
                key = missing.args[0]
                lines[key] = self._line_value(key)
        correction = self._correction
        if correction is not None and empties:
            total += self._share * correction(codes, empties)
        self._boards[codes] = total
        return total

    def _frontier_and_conflicts(self, entries: list[int], empties: int, penalty: float) -> float:
        """``penalty`` with the frontier taken off and the conflicts added, in that order."""
        if self._frontier and empties >= _FRONTIER_FROM:
            frontier = 0  # the values accepted next to a number
            for entry in entries:
                if entry > _OPEN and entry != _OPEN + ANY_VALUE:
                    frontier |= entry - _OPEN
            penalty -= self._frontier * len(mask_values(frontier))
        conflict = self.weights.conflict
        if conflict:
            for a, b in _PAIRS:
                ea, eb = entries[a], entries[b]
                if ea > RUIN_CODE and eb > RUIN_CODE and not _COMPATIBLE[ea - _OPEN][eb - _OPEN]:
                    penalty += conflict
        return penalty

    def _line_value(self, key: tuple[int, ...]) -> float:
        """The value of one line: its best completion under the ±1 rule along the line."""
        choices = [
            (0,) if k == RUIN_CODE else (k,) if k < RUIN_CODE else mask_values(k - _OPEN)
            for k in key
        ]
        open_cells = sum(1 for k in key if k > RUIN_CODE)
        share = self.weights.bonus_share[open_cells]
        cell_share = self.weights.cell_share
        if cell_share is not None:
            share = 1.0
            for k in key:
                if k > RUIN_CODE:
                    share *= cell_share[len(mask_values(k - _OPEN))]
        best: float | None = None
        for values in product(*choices):
            if any(_CLASH[a][b] for a, b in pairwise(values)):
                continue
            if 0 in values:
                points = float(sum(values))
            else:
                line_sum = sum(values)
                points = line_sum + float(line_bonus(values)) * share
            if best is None or points > best:
                best = points
        if best is None:  # the open cells cannot all be filled along this line
            best = float(sum(k for k in key if k < RUIN_CODE))
        return best - open_cells * self.weights.open_cell
