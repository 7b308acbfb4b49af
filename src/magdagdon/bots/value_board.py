"""V's correction by the board (docs/bots.md "V by the board"): what the offsets by empty cells,
Power uses and RUINs (``bots/value_calibration.py``) cannot see. A board a bad player built that
has not failed yet, with every Power use in hand, reads to them as one of the computer's own, and
the computer comes to about 30 points less from it on PEACEFUL.

The correction of a phase roll before the exact end is an n-tuple network as the bots' learned
correction is (``bots/residual.py``: one table for each row, column and 2×2 square, indexed by its
four cell codes, and one by empty cells), plus a level by Power uses left, one by stage of the
game and RUINs on the board, and one by stage and live cells (``board_codes.live_cells``: the
empty cells a die may go on, which no tuple sees whole). It is fitted by
``bench/value_board_fit.py`` by TD(0) toward the exact end: on the computer's phase rolls of its
own games and of games it took over from a bad player and from a random one, V of a phase roll
moves toward V of the next one (exact within the exact end and on a dead board), so that a roll's
V stands nearer the mean of V over its outcomes. Its tables are fitted on the board's eight
images together and kept as one table a tuple, so one reading values every image alike.
"""

from __future__ import annotations

from array import array
from functools import cache
from typing import TYPE_CHECKING

from magdagdon.bots.residual import DATA, ENTRIES, TUPLES, Residual, pack, unpack
from magdagdon.engine.board_codes import live_cells

if TYPE_CHECKING:
    from magdagdon.engine import Difficulty
    from magdagdon.engine.board_codes import Codes

TUPLE_WEIGHTS = len(TUPLES) * ENTRIES + 17  # as a ``Residual``: the tuples', then by empty cells
POWER_LEVELS = 4  # by Power uses left, 0–3
RUIN_LEVELS = 4 * 4  # by stage of the game (0–3) and RUINs (0, 1, 2, 3 or more)
LIVE_LEVELS = 4 * 7  # by stage of the game and live cells (0–5, 6 or more)
SIZE = TUPLE_WEIGHTS + POWER_LEVELS + RUIN_LEVELS + LIVE_LEVELS


def live_level(stage: int, codes: Codes) -> int:
    """The index of a board's level by stage of the game and live cells among ``LIVE_LEVELS``:
    the look-ahead's V stood 10–42 points low on a bad player's boards with one or two live
    cells, 1–7 points high on those with five or more (docs/bots.md, "Dead boards, and the
    correction by live cells")."""
    return stage * 7 + min(live_cells(codes), 6)


class BoardCorrection:
    """The tables of one difficulty."""

    __slots__ = ("by_live", "by_powers", "by_ruins", "tuples")

    def __init__(self, weights: array[float]) -> None:
        if len(weights) != SIZE:
            raise ValueError(f"a board correction has {SIZE} weights, not {len(weights)}")
        self.tuples = Residual(weights[:TUPLE_WEIGHTS])
        self.by_powers = tuple(weights[TUPLE_WEIGHTS : TUPLE_WEIGHTS + POWER_LEVELS])
        ruins = TUPLE_WEIGHTS + POWER_LEVELS
        self.by_ruins = tuple(weights[ruins : ruins + RUIN_LEVELS])
        self.by_live = tuple(weights[ruins + RUIN_LEVELS :])

    def __call__(
        self, codes: Codes, empties: int, stage: int, powers_left: int, ruins: int
    ) -> float:
        """The correction of a phase roll on ``codes`` (``empties`` empty cells, in ``stage``
        of the game, ``ruins`` RUINs) with ``powers_left`` Power uses left."""
        return (
            self.tuples.of(codes, empties)
            + self.by_powers[powers_left]
            + self.by_ruins[stage * 4 + min(ruins, 3)]
            + self.by_live[live_level(stage, codes)]
        )

    def to_bytes(self) -> bytes:
        """The weights as singles, compressed (as ``Residual.to_bytes``)."""
        weights = array("d", self.tuples.weights)
        weights.extend(self.by_powers)
        weights.extend(self.by_ruins)
        weights.extend(self.by_live)
        return pack(weights)

    @classmethod
    def from_bytes(cls, data: bytes) -> BoardCorrection:
        """The inverse of :meth:`to_bytes`."""
        return cls(unpack(data))


def data_path(difficulty: Difficulty) -> str:
    """The committed tables' file name in ``bots/data`` for ``difficulty``."""
    return f"value-board-{difficulty.value}.bin"


@cache
def correction(difficulty: Difficulty) -> BoardCorrection | None:
    """The committed correction of ``difficulty`` (read once); None where there is none."""
    path = DATA / data_path(difficulty)
    if not path.exists():
        return None
    return BoardCorrection.from_bytes(path.read_bytes())
