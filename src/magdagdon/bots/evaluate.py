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
from magdagdon.engine.board import NEIGHBOURS
from magdagdon.engine.rules import RUIN_PENALTY
from magdagdon.engine.scoring import BONUS, LINE_POINTS, LINES, STRAIGHT

Codes = tuple[int, ...]

EMPTY, RUIN_CODE = 0, 7
#: For a cell code, the mask of values (bit v-1) a neighbouring cell may hold; empty/RUIN: any.
ALLOW = (63, 0b11, 0b111, 0b1110, 0b11100, 0b111000, 0b110000, 63)
MASK_VALUES: tuple[tuple[int, ...], ...] = tuple(
    tuple(v for v in range(1, 7) if mask >> (v - 1) & 1) for mask in range(64)
)
_BONUS_OF = LINE_POINTS  # sum + bonus of a full line, by line code
_AROUND = tuple(enumerate(NEIGHBOURS))
_STRAIGHT_BONUS = BONUS[STRAIGHT]
_PAIRS = tuple((a, b) for a in range(16) for b in NEIGHBOURS[a] if a < b)
#: Whether two neighbouring cells accepting these value masks can both hold numbers.
_COMPATIBLE = tuple(
    tuple(bool(ma & (mb | mb << 1 | mb >> 1)) for mb in range(64)) for ma in range(64)
)


@dataclass(frozen=True, slots=True)
class Weights:
    """The tunable numbers of the evaluation."""

    #: How much of a combination bonus counts, by the number of open cells in its line.
    bonus_share: tuple[float, ...] = (1.0, 0.8, 0.55, 0.3, 0.15)
    #: Points taken off for every open cell of a line (the best completion is optimistic).
    open_cell: float = 0.6
    #: How much of a STRAIGHT's bonus counts, relative to the other combinations.
    straight_factor: float = 1.0
    #: Cost of two neighbouring open cells that no two values can fill together.
    conflict: float = 0.0
    #: Extra cost of an open cell that accepts a single value / two values.
    narrow: tuple[float, ...] = (0.0, 4.0, 1.0, 0.0, 0.0, 0.0, 0.0)
    #: When set: the share of a combination bonus is the product, over the line's open cells, of
    #: this number by how many values the cell accepts (instead of ``bonus_share``).
    cell_share: tuple[float, ...] | None = None
    #: When set: points added to a board's evaluation, by its number of empty cells (0–16), so
    #: that boards of different stages of the game compare by the final score they come to.
    calibration: tuple[float, ...] | None = None
    #: Points for each value that some open cell next to a number accepts (the values a die can
    #: be staged with now), on boards with at least ``frontier_from`` empty cells: the more a
    #: board accepts, the less likely the next rolls end in a MAGDAGDON.
    frontier: float = 0.0
    frontier_from: int = 6
    #: When set: the name of a learned correction (``bots/residual.py``) added to the value of
    #: every board with an empty cell.
    residual: str | None = None
    #: How much of the learned correction counts.
    residual_share: float = 1.0


DEFAULT = Weights()


def cell_masks(codes: Codes) -> list[int]:
    """For each cell: -1 when it holds a number or a RUIN, else the mask of values it accepts."""
    out = []
    for cell in range(16):
        if codes[cell]:
            out.append(-1)
            continue
        mask = 63
        for n in NEIGHBOURS[cell]:
            mask &= ALLOW[codes[n]]
        out.append(mask)
    return out


class Evaluator:
    """Scores boards with one set of :class:`Weights`; line values and boards are memoised."""

    def __init__(self, weights: Weights = DEFAULT, residual: Residual | None = None) -> None:
        """``residual`` overrides the correction named by the weights (to train one)."""
        self.weights = weights
        if residual is None and weights.residual is not None:
            residual = load_residual(weights.residual)
        self._residual = residual
        self._share = weights.residual_share
        self._lines: dict[int, float] = {}
        self._narrow = tuple(weights.narrow[len(values)] for values in MASK_VALUES)
        self._boards: dict[Codes, float] = {}
        self._calibration = weights.calibration
        self._frontier = weights.frontier

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
        entries = list(codes)
        empties = codes.count(EMPTY)
        penalty = float(RUIN_PENALTY * codes.count(RUIN_CODE))
        if self._calibration is not None:
            penalty -= self._calibration[empties]
        narrow = self._narrow
        allow = ALLOW
        frontier = 0  # the values accepted next to a number
        for cell, around in _AROUND:
            if codes[cell]:
                continue
            mask = 63
            for n in around:
                mask &= allow[codes[n]]
            if mask:
                entries[cell] = 8 + mask
                penalty += narrow[mask]
                if mask != 63:
                    frontier |= mask
            else:
                entries[cell] = RUIN_CODE  # can never be filled: a RUIN to come
                penalty += RUIN_PENALTY
        if self._frontier and empties >= self.weights.frontier_from:
            penalty -= self._frontier * len(MASK_VALUES[frontier])
        conflict = self.weights.conflict
        if conflict:
            for a, b in _PAIRS:
                ea, eb = entries[a], entries[b]
                if ea > RUIN_CODE and eb > RUIN_CODE and not _COMPATIBLE[ea - 8][eb - 8]:
                    penalty += conflict
        total = -penalty
        lines = self._lines
        for a, b, c, d in LINES:
            key = ((entries[a] * 72 + entries[b]) * 72 + entries[c]) * 72 + entries[d]
            value = lines.get(key)
            if value is None:
                value = self._line_value((entries[a], entries[b], entries[c], entries[d]))
                lines[key] = value
            total += value
        if self._residual is not None and empties:
            total += self._share * self._residual(codes)
        self._boards[codes] = total
        return total

    def _line_value(self, key: tuple[int, ...]) -> float:
        """The value of one line: its best completion under the ±1 rule along the line."""
        choices = [
            (0,) if k == RUIN_CODE else (k,) if k < RUIN_CODE else MASK_VALUES[k - 8] for k in key
        ]
        open_cells = sum(1 for k in key if k > RUIN_CODE)
        share = self.weights.bonus_share[open_cells]
        cell_share = self.weights.cell_share
        if cell_share is not None:
            share = 1.0
            for k in key:
                if k > RUIN_CODE:
                    share *= cell_share[len(MASK_VALUES[k - 8])]
        best: float | None = None
        for values in product(*choices):
            if any(a and b and abs(a - b) > 1 for a, b in pairwise(values)):
                continue
            if 0 in values:
                points = float(sum(values))
            else:
                code = ((values[0] * 8 + values[1]) * 8 + values[2]) * 8 + values[3]
                line_sum = sum(values)
                bonus = float(_BONUS_OF[code] - line_sum)
                if bonus == _STRAIGHT_BONUS and open_cells:
                    bonus *= self.weights.straight_factor
                points = line_sum + bonus * share
            if best is None or points > best:
                best = points
        if best is None:  # the open cells cannot all be filled along this line
            best = float(sum(k for k in key if k < RUIN_CODE))
        return best - open_cells * self.weights.open_cell


def exact_points(codes: Codes) -> int:
    """Base + bonus − RUIN penalties of a board (the final score before Power penalties)."""
    total = 0
    for a, b, c, d in LINES:
        total += LINE_POINTS[((codes[a] * 8 + codes[b]) * 8 + codes[c]) * 8 + codes[d]]
    return total - RUIN_PENALTY * codes.count(RUIN_CODE)
