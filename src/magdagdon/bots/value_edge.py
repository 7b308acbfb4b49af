"""V's correction at the edge of the exact end (docs/bots.md "V at the edge of the exact end"): a
phase roll one count of empty cells before ``endgame.EXACT_UPTO``, where V before a roll stood
furthest from the mean of V over its outcomes; and the counts before it (PEACEFUL and SURVIVAL
at 6 and 7, NIGHTMARE at 7 to 13), next.

At the edge, every outcome is a decision whose value is exact (a placement ends within the exact
end) or nearly so, and the look-ahead's V is the evaluation of those boards: V stood 14 points
(RMS) from that mean on NIGHTMARE at 6 empty cells, 16 on PEACEFUL at 5, two thirds and a half
of the squared gap of every chance node before the exact end; one count earlier on NIGHTMARE
(7 cells: a placement ends within the exact end, a RUIN at the edge), 13; two counts earlier on
PEACEFUL (7 cells), 11, where a greedy player's largest gaps were; PEACEFUL and SURVIVAL at 6
cells, 14 and 11; SURVIVAL at 7, 9. The mean costs 70–110
ms a board at the edge: cheap enough to fit on, too dear to read in play, where a review's exact
mean a turn earlier would ask it of each of 126 outcomes. So the correction is fitted to it
directly, board by board, by least squares (``bench/value_edge_fit.py``): an n-tuple network as
``bots/residual.py``'s, one table a row, column and 2×2 square by its four cell codes, fitted on
the board's eight images together and kept as one table a tuple, so one reading values every
image alike; a term in the chance that the coming roll is a MAGDAGDON, and one in its square
(the look-ahead weighs that risk, and no tuple of four cells sees it whole), both by the Power
uses left (a Power use left rescues a MAGDAGDON); a level by the Power uses left; and levels
of the whole board that no tuple sees either (``board_levels``): its live cells, its doomed
cells (no value fits them: each will be a RUIN), and for each value the live cells it fits. It is
read on top of the offsets and the correction by the board (``bots/value_board.py``), only at
the counts of empty cells with tables (``bots/data/value-edge-D-E.bin``).
"""

from __future__ import annotations

import sys
import zlib
from array import array
from functools import cache
from typing import TYPE_CHECKING

from magdagdon.bots.endgame import EXACT_UPTO
from magdagdon.bots.planner import magdagdon_chance
from magdagdon.bots.residual import DATA, Residual
from magdagdon.bots.value_board import TUPLE_WEIGHTS
from magdagdon.engine.board_codes import fit_masks, live_masks
from magdagdon.engine.rules import VALUES, min_required

if TYPE_CHECKING:
    from magdagdon.engine import Difficulty
    from magdagdon.engine.board_codes import Codes

BY_CHANCE = 2  # the MAGDAGDON chance's term, then its square's, at each count of Power uses left
POWER_LEVELS = 4  # by Power uses left, 0–3
LIVE_LEVELS = 9  # live cells, 0–7 and 8 or more
DOOMED_LEVELS = 5  # empty cells no value fits, 0–3 and 4 or more
FITS_LEVELS = 4  # for each value, the live cells it fits: 0–2 and 3 or more
BOARD_LEVELS = LIVE_LEVELS + DOOMED_LEVELS + len(VALUES) * FITS_LEVELS
SIZE = TUPLE_WEIGHTS + BY_CHANCE * POWER_LEVELS + POWER_LEVELS + BOARD_LEVELS
#: The weights are kept in steps of this much of a point, as 16-bit integers: finer than any
#: figure a player reads (about 20 weights are added, each within half a step of the fit: at
#: most 0.04 points off), and less than half the download of 32-bit floats.
STEP = 1 / 256


def board_levels(codes: Codes) -> tuple[int, ...]:
    """The whole-board levels of ``codes``, as indices among ``BOARD_LEVELS``: its live cells
    (``board_codes.live_masks``), its doomed cells (empty, and no value lies within 1 of every
    number beside them: placing only narrows that, so each will be a RUIN), and for each value
    the live cells it fits (every one, while the board holds no number). With them,
    NIGHTMARE's boards at 10 empty cells held out stand 4.2 points (RMS) from the mean over
    their outcomes, 5.1 without (docs/bots.md "The whole board at the edge").

    >>> board_levels((1, 0, 6) + (0,) * 13)  # 3 live, 1 doomed; 1 and 2 fit one, 5 and 6 two
    (3, 10, 15, 19, 22, 26, 32, 36)
    >>> board_levels((7,) * 6 + (0,) * 10)  # no number: 10 live, and every value fits them all
    (8, 9, 17, 21, 25, 29, 33, 37)
    """
    masks = fit_masks(codes)
    live = live_masks(codes, masks)
    fits = [
        LIVE_LEVELS + DOOMED_LEVELS + i * FITS_LEVELS + min(sum(m >> i & 1 for m in live), 3)
        for i in range(len(VALUES))
    ]
    return (min(len(live), LIVE_LEVELS - 1), LIVE_LEVELS + min(masks.count(0), 4), *fits)


class EdgeCorrection:
    """The tables of one difficulty."""

    __slots__ = ("by_board", "by_chance", "by_powers", "reads_board", "tuples")

    def __init__(self, weights: array[float]) -> None:
        if len(weights) != SIZE:
            raise ValueError(f"an edge correction has {SIZE} weights, not {len(weights)}")
        self.tuples = Residual(weights[:TUPLE_WEIGHTS])
        chance = TUPLE_WEIGHTS
        self.by_chance = tuple(
            (weights[chance + BY_CHANCE * left], weights[chance + BY_CHANCE * left + 1])
            for left in range(POWER_LEVELS)
        )
        by_powers = chance + BY_CHANCE * POWER_LEVELS
        self.by_powers = tuple(weights[by_powers : by_powers + POWER_LEVELS])
        self.by_board = tuple(weights[by_powers + POWER_LEVELS :])
        # Tables fitted without the whole board's levels hold them at 0: they skip reading them.
        self.reads_board = any(self.by_board)

    def __call__(self, codes: Codes, empties: int, base_minimum: int, powers_left: int) -> float:
        """The correction of a phase roll on ``codes`` (``empties`` empty cells, ``powers_left``
        Power uses left) of a difficulty whose turns place ``base_minimum`` dice."""
        chance = magdagdon_chance(codes, min_required(base_minimum, empties))
        linear, square = self.by_chance[powers_left]
        by_board = self.by_board
        return (
            self.tuples.of(codes, empties)
            + linear * chance
            + square * chance * chance
            + self.by_powers[powers_left]
            + (sum(by_board[level] for level in board_levels(codes)) if self.reads_board else 0.0)
        )

    @property
    def weights(self) -> list[float]:
        """All the weights, in the order the constructor takes them."""
        by_chance = [w for pair in self.by_chance for w in pair]
        return [*self.tuples.weights, *by_chance, *self.by_powers, *self.by_board]

    def to_bytes(self) -> bytes:
        """The weights in ``STEP``s, as compressed little-endian 16-bit integers (ValueError
        where one is not a whole number of steps)."""
        weights = self.weights
        steps = array("h", [round(w / STEP) for w in weights])
        if any(n * STEP != w for n, w in zip(steps, weights, strict=True)):
            raise ValueError("a weight is not a whole number of steps")
        if sys.byteorder == "big":
            steps.byteswap()
        return zlib.compress(steps.tobytes(), 9)

    @classmethod
    def from_bytes(cls, data: bytes) -> EdgeCorrection:
        """The inverse of :meth:`to_bytes`."""
        steps = array("h")
        steps.frombytes(zlib.decompress(data))
        if sys.byteorder == "big":
            steps.byteswap()
        return cls(array("d", [n * STEP for n in steps]))


#: How many counts of empty cells, from the edge back, may have tables: the edge, and the counts
#: before it whose turns of the fewest dice end on a table or within the exact end (a RUIN one
#: count down): where the mean over the outcomes is still cheap enough to fit on. PEACEFUL has
#: them at the edge and two counts before it (a third costs its reviews more than their budget,
#: docs/bots.md), SURVIVAL at the edge, the five counts before it and the seventh (12 cells,
#: whose turns of two dice meet the table at 10 in their means; at 11 none yet), NIGHTMARE, whose
#: turns place three dice, at the edge and seven.
REACH = 8


def data_path(difficulty: Difficulty, empties: int) -> str:
    """The committed tables' file name in ``bots/data`` for ``difficulty`` at ``empties``."""
    return f"value-edge-{difficulty.value}-{empties}.bin"


def edge(difficulty: Difficulty) -> int:
    """The empty cells of the edge: one more than the exact end's."""
    return EXACT_UPTO[difficulty] + 1


@cache
def edge_tables(difficulty: Difficulty, empties: int) -> EdgeCorrection | None:
    """The committed tables of ``difficulty`` at ``empties`` (read once); None where there are
    none."""
    if not edge(difficulty) <= empties < edge(difficulty) + REACH:
        return None
    path = DATA / data_path(difficulty, empties)
    if not path.exists():
        return None
    return EdgeCorrection.from_bytes(path.read_bytes())


def edge_correction(difficulty: Difficulty, codes: Codes, empties: int, powers_left: int) -> float:
    """The correction of a phase roll on ``codes`` (``empties`` empty cells, ``powers_left``
    Power uses left; before the exact end and not dead): 0 but where ``difficulty`` has tables
    for ``empties``."""
    tables = edge_tables(difficulty, empties)
    if tables is None:
        return 0.0
    return tables(codes, empties, difficulty.base_minimum, powers_left)
