"""A learned correction to the board evaluation: an n-tuple network trained from self-play.

The correction of a board is a sum of weights looked up by the board's cell codes (0 empty, 1–6 a
number, 7 a RUIN): one table for each of the 17 tuples of four cells (the four rows, the four
columns and the nine 2×2 squares), indexed by the tuple's four codes (8**4 entries), and one by
the number of empty cells. The lines see the combinations being built; the squares see how the ±1
rule binds a cell to the numbers across from it.

The rules and the score do not change when the board is turned or mirrored (a straight read
backwards is still a straight), so neither does the correction: training moves a board and its
seven images (``engine.codes.images``) together, and the tables give all eight the same value.
Each table entry then learns from eight times as many boards, and a board the games rarely leave
(a RUIN in a cell the policy does not choose) is valued as its images are.

The tables are trained by ``bench/train_residual.py`` with TD(0), as strong 2048 players are: the
``greedy`` policy on the evaluation plus this correction plays seeded games, and the value of each
board left by a turn moves toward the value of the board left by the next turn (the final score at
the end). ``expectimax`` has tables of its own, trained on from those by the same TD(0) on its own
games. They are stored, compressed, in ``bots/data/residual-<name>.bin``.
"""

from __future__ import annotations

import math
import sys
import zlib
from array import array
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from magdagdon.engine.board import SYMMETRIES
from magdagdon.engine.board_codes import EMPTY, Codes, images
from magdagdon.engine.scoring import LINES

if TYPE_CHECKING:
    from collections.abc import Callable

#: The 2×2 squares of the board, each as four cells.
SQUARES: tuple[tuple[int, ...], ...] = tuple(
    (r * 4 + c, r * 4 + c + 1, r * 4 + c + 4, r * 4 + c + 5) for r in range(3) for c in range(3)
)
TUPLES: tuple[tuple[int, ...], ...] = LINES + SQUARES
ENTRIES = 8**4  # the codes of four cells
_SIZE = len(TUPLES) * ENTRIES + 17  # every tuple's table, then the table by empty cells
#: The most sums of a band a memo of :meth:`Residual.banded` keeps (each about 200 bytes): a
#: search meets its boards a few cells apart, so a band recurs soon or not at all.
BAND_MEMO = 4_096

DATA = Path(__file__).parent / "data"


class Residual:
    """The tables of the correction, as one flat array of weights."""

    __slots__ = ("_bands", "weights")

    def __init__(self, weights: array[float] | None = None) -> None:
        self.weights = weights if weights is not None else array("d", bytes(8 * _SIZE))
        if len(self.weights) != _SIZE:
            raise ValueError(f"a residual has {_SIZE} weights, not {len(self.weights)}")
        # The sums of the tuples within rows 0–1, 1–2 and 2–3, by those cells' codes (on with
        # ``read_in_bands``).
        self._bands: tuple[dict[Codes, float], dict[Codes, float], dict[Codes, float]] | None
        self._bands = None

    def read_in_bands(self) -> bool:
        """Have :meth:`reader` read the correction in bands from now on, when its sums are the
        same in any order (:func:`sums_exact`); whether they are. For tables no longer changed."""
        exact = sums_exact(self.weights)
        self._bands = ({}, {}, {}) if exact else None
        return exact

    def reader(self) -> Callable[[Codes, int], float]:
        """The correction by the codes and their empty cells: :meth:`banded` after
        :meth:`read_in_bands`, else :meth:`of`. Both give the same value to the last bit."""
        return self.of if self._bands is None else self.banded

    def __call__(self, codes: Codes) -> float:
        """The correction for ``codes`` (16 cell codes)."""
        return self.of(codes, codes.count(EMPTY))

    def of(self, codes: Codes, empties: int) -> float:
        """The correction for ``codes``, which has ``empties`` empty cells (the evaluation has
        counted them): the weight by empty cells, then each tuple's in the order of ``TUPLES``
        (``value``, written out: the bots ask it of every board they evaluate, and a test checks
        the two agree to the last bit)."""
        w = self.weights
        c0, c1, c2, c3, c4, c5, c6, c7, c8, c9, c10, c11, c12, c13, c14, c15 = codes
        return (
            w[_SIZE - 17 + empties]
            + w[((c0 * 8 + c1) * 8 + c2) * 8 + c3]
            + w[4096 + ((c4 * 8 + c5) * 8 + c6) * 8 + c7]
            + w[8192 + ((c8 * 8 + c9) * 8 + c10) * 8 + c11]
            + w[12288 + ((c12 * 8 + c13) * 8 + c14) * 8 + c15]
            + w[16384 + ((c0 * 8 + c4) * 8 + c8) * 8 + c12]
            + w[20480 + ((c1 * 8 + c5) * 8 + c9) * 8 + c13]
            + w[24576 + ((c2 * 8 + c6) * 8 + c10) * 8 + c14]
            + w[28672 + ((c3 * 8 + c7) * 8 + c11) * 8 + c15]
            + w[32768 + ((c0 * 8 + c1) * 8 + c4) * 8 + c5]
            + w[36864 + ((c1 * 8 + c2) * 8 + c5) * 8 + c6]
            + w[40960 + ((c2 * 8 + c3) * 8 + c6) * 8 + c7]
            + w[45056 + ((c4 * 8 + c5) * 8 + c8) * 8 + c9]
            + w[49152 + ((c5 * 8 + c6) * 8 + c9) * 8 + c10]
            + w[53248 + ((c6 * 8 + c7) * 8 + c10) * 8 + c11]
            + w[57344 + ((c8 * 8 + c9) * 8 + c12) * 8 + c13]
            + w[61440 + ((c9 * 8 + c10) * 8 + c13) * 8 + c14]
            + w[65536 + ((c10 * 8 + c11) * 8 + c14) * 8 + c15]
        )

    def banded(self, codes: Codes, empties: int) -> float:
        """:meth:`of`, the tuples added in another order: those within rows 0–1 (two rows and
        three squares), within rows 1–2 (three squares) and within rows 2–3, each band's sum
        memoised by its eight codes, then the columns. The same value only when every order
        gives it (``read_in_bands``): a search's boards differ in a cell or two, so most
        bands are met before and the board costs six look-ups instead of eighteen."""
        bands = self._bands
        assert bands is not None
        w = self.weights
        top, middle, bottom = bands
        cells = codes[:8]
        upper = top.get(cells)
        if upper is None:
            if len(top) >= BAND_MEMO:
                top.clear()
            c0, c1, c2, c3, c4, c5, c6, c7 = cells
            upper = top[cells] = (
                w[((c0 * 8 + c1) * 8 + c2) * 8 + c3]
                + w[4096 + ((c4 * 8 + c5) * 8 + c6) * 8 + c7]
                + w[32768 + ((c0 * 8 + c1) * 8 + c4) * 8 + c5]
                + w[36864 + ((c1 * 8 + c2) * 8 + c5) * 8 + c6]
                + w[40960 + ((c2 * 8 + c3) * 8 + c6) * 8 + c7]
            )
        cells = codes[4:12]
        centre = middle.get(cells)
        if centre is None:
            if len(middle) >= BAND_MEMO:
                middle.clear()
            c4, c5, c6, c7, c8, c9, c10, c11 = cells
            centre = middle[cells] = (
                w[45056 + ((c4 * 8 + c5) * 8 + c8) * 8 + c9]
                + w[49152 + ((c5 * 8 + c6) * 8 + c9) * 8 + c10]
                + w[53248 + ((c6 * 8 + c7) * 8 + c10) * 8 + c11]
            )
        cells = codes[8:]
        lower = bottom.get(cells)
        if lower is None:
            if len(bottom) >= BAND_MEMO:
                bottom.clear()
            c8, c9, c10, c11, c12, c13, c14, c15 = cells
            lower = bottom[cells] = (
                w[8192 + ((c8 * 8 + c9) * 8 + c10) * 8 + c11]
                + w[12288 + ((c12 * 8 + c13) * 8 + c14) * 8 + c15]
                + w[57344 + ((c8 * 8 + c9) * 8 + c12) * 8 + c13]
                + w[61440 + ((c9 * 8 + c10) * 8 + c13) * 8 + c14]
                + w[65536 + ((c10 * 8 + c11) * 8 + c14) * 8 + c15]
            )
        c0, c1, c2, c3, c4, c5, c6, c7, c8, c9, c10, c11, c12, c13, c14, c15 = codes
        return (
            w[_SIZE - 17 + empties]
            + upper
            + centre
            + lower
            + w[16384 + ((c0 * 8 + c4) * 8 + c8) * 8 + c12]
            + w[20480 + ((c1 * 8 + c5) * 8 + c9) * 8 + c13]
            + w[24576 + ((c2 * 8 + c6) * 8 + c10) * 8 + c14]
            + w[28672 + ((c3 * 8 + c7) * 8 + c11) * 8 + c15]
        )

    def value(self, codes: Codes) -> float:
        """The correction for ``codes``, tuple by tuple (what :meth:`__call__` writes out)."""
        w = self.weights
        first, *rest = reads(codes)
        total = w[first]
        for index in rest:
            total += w[index]
        return total

    def update(self, codes: Codes, step: float) -> None:
        """Add ``step`` to every weight that the correction of ``codes`` reads."""
        w = self.weights
        self._bands = None  # the bands' sums change with the weights, and may be exact no more
        for index in reads(codes):
            w[index] += step

    def update_images(self, codes: Codes, step: float) -> None:
        """Add ``step`` / 8 to the weights that each of the 8 images of ``codes`` reads: the
        training step of a board, which keeps tables that value all images alike so."""
        share = step / len(SYMMETRIES)
        for image in images(codes):
            self.update(image, share)

    def to_bytes(self) -> bytes:
        """The weights as compressed little-endian 32-bit floats."""
        return pack(self.weights)

    @classmethod
    def from_bytes(cls, data: bytes) -> Residual:
        """The inverse of :meth:`to_bytes`."""
        return cls(unpack(data))


def reads(codes: Codes) -> list[int]:
    """Where the weights the correction of ``codes`` reads lie, in the order it adds them: the
    one by empty cells, then each tuple's (by its four codes) in the order of ``TUPLES``."""
    found = [_SIZE - 17 + codes.count(EMPTY)]
    base = 0
    for a, b, c, d in TUPLES:
        found.append(base + ((codes[a] * 8 + codes[b]) * 8 + codes[c]) * 8 + codes[d])
        base += ENTRIES
    return found


def pack(weights: array[float]) -> bytes:
    """``weights`` as compressed little-endian 32-bit floats (how the tables are kept)."""
    single = array("f", weights)
    if sys.byteorder == "big":
        single.byteswap()
    return zlib.compress(single.tobytes(), 9)


def unpack(data: bytes) -> array[float]:
    """The inverse of :func:`pack`."""
    single = array("f")
    single.frombytes(zlib.decompress(data))
    if sys.byteorder == "big":
        single.byteswap()
    return array("d", single)


def sums_exact(weights: array[float]) -> bool:
    """Whether every sum of a correction's weights (one of each tuple and the one by empty
    cells) is exact in a double, so the same to the last bit in any order: each weight is a
    single (24 bits, as stored) and a multiple of the smallest one's last bit, and so is every
    sum; the sums are exact while 18 times the largest weight stays within 53 bits of that last
    bit (and no weight is -0.0, whose sums alone keep a sign). The committed tables are: their
    weights lie within about 2^-16 and 2^6."""
    if array("d", array("f", weights)) != weights:
        return False
    if _NEGATIVE_ZERO in array("Q", weights.tobytes()):  # -0.0 + -0.0 keeps its sign
        return False
    nonzero = list(map(abs, filter(None, weights)))
    if not nonzero:
        return True
    quantum = math.ldexp(1.0, math.frexp(min(nonzero))[1] - 24)
    return (len(TUPLES) + 1) * max(nonzero) < math.ldexp(quantum, 53)


_NEGATIVE_ZERO = 1 << 63  # the bits of -0.0


def data_path(name: str) -> Path:
    """Where the committed tables called ``name`` are kept."""
    return DATA / f"residual-{name}.bin"


@cache
def load(name: str) -> Residual:
    """The committed tables called ``name`` (read once), read in bands where that is exact."""
    residual = Residual.from_bytes(data_path(name).read_bytes())
    residual.read_in_bands()
    return residual
