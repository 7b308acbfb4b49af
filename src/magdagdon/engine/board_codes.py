"""The board as 16 cell codes, and the rules on that form: what the bots search in.

A board in code form is a tuple of 16 ints by cell (``row * 4 + col``): 0 empty, 1–6 a number,
7 a RUIN, as ``GameState.codes()`` gives it. Boards in this form are cheap to hash and to compare,
so search code keys its memory on them; what is valid on them comes from the same rules and
tables as the game's own checks (``rules.may_touch``, ``board.Frame``), never from a copy.

>>> from magdagdon.engine.board_codes import fit_masks, mask_values, put
>>> codes = put((0,) * 16, 1, 3)  # a 3 on row 0, column 1
>>> mask_values(fit_masks(codes)[0]), mask_values(fit_masks(codes)[2]), fit_masks(codes)[1]
((2, 3, 4), (2, 3, 4), -1)
"""

from __future__ import annotations

from magdagdon.engine.board import CELLS, RUIN_CODE, SYMMETRIES, Frame, frame_of, from_codes
from magdagdon.engine.rules import VALUES, may_touch

Codes = tuple[int, ...]

EMPTY = 0  # an empty cell's code
ANY_VALUE = (1 << len(VALUES)) - 1  # the mask of every value: bit v - 1 for v

#: For each cell code, the mask of the values (bit v − 1) that may stand on a cell beside it:
#: within 1 of a number; any beside an empty cell or a RUIN.
BESIDE: tuple[int, ...] = tuple(
    sum(1 << (v - 1) for v in VALUES if code not in VALUES or may_touch(code, v))
    for code in range(RUIN_CODE + 1)
)

_MASK_VALUES: tuple[tuple[int, ...], ...] = tuple(
    tuple(v for v in VALUES if mask >> (v - 1) & 1) for mask in range(ANY_VALUE + 1)
)


def mask_values(mask: int) -> tuple[int, ...]:
    """The values of a mask (bit v − 1 for v), lowest first.

    >>> mask_values(0b101001)
    (1, 4, 6)
    """
    return _MASK_VALUES[mask]


def put(codes: Codes, cell: int, code: int) -> Codes:
    """``codes`` with ``cell`` set to ``code`` (a number, or :data:`RUIN_CODE`). (Slices joined:
    the bots' searches put a die on a board about a million times a review.)"""
    return codes[:cell] + (code,) + codes[cell + 1 :]  # noqa: RUF005 (the faster of the two)


def frame_of_codes(codes: Codes) -> Frame:
    """The frame of a board given as codes: what placement on it depends on (``board.Frame``),
    for ``board.frame_valid`` and ``board.frame_place``."""
    return frame_of(from_codes(codes))


def fit_masks(codes: Codes) -> list[int]:
    """For each cell: -1 when it holds a number or a RUIN; else the mask of the values that lie
    within 1 of every number beside it (0: none does, so the cell can never be filled).

    A staged die needs a number beside it, too (``board.frame_valid``); this asks only what the
    numbers around a cell allow, which is what the bots' evaluation scores. Written out cell by
    cell (``board.NEIGHBOURS``, which a test checks it against): the evaluation asks it of every
    board it meets.
    """
    b = [BESIDE[code] for code in codes]
    c = codes
    return [
        -1 if c[0] else b[1] & b[4],
        -1 if c[1] else b[0] & b[2] & b[5],
        -1 if c[2] else b[1] & b[3] & b[6],
        -1 if c[3] else b[2] & b[7],
        -1 if c[4] else b[0] & b[5] & b[8],
        -1 if c[5] else b[1] & b[4] & b[6] & b[9],
        -1 if c[6] else b[2] & b[5] & b[7] & b[10],
        -1 if c[7] else b[3] & b[6] & b[11],
        -1 if c[8] else b[4] & b[9] & b[12],
        -1 if c[9] else b[5] & b[8] & b[10] & b[13],
        -1 if c[10] else b[6] & b[9] & b[11] & b[14],
        -1 if c[11] else b[7] & b[10] & b[15],
        -1 if c[12] else b[8] & b[13],
        -1 if c[13] else b[9] & b[12] & b[14],
        -1 if c[14] else b[10] & b[13] & b[15],
        -1 if c[15] else b[11] & b[14],
    ]


def live_masks(codes: Codes, masks: list[int] | None = None) -> list[int]:
    """The ``fit_masks`` of the empty cells a die may be staged on, by the numbers beside them:
    a cell beside a number that lies within 1 of each; while the board holds no number, every
    empty cell, and each accepts every value. A cell beside a number accepts three values at
    most, so a mask of every value there says no number is beside it. ``masks``: the board's
    ``fit_masks``, where the caller has them already.

    >>> [mask_values(m) for m in live_masks((1, 0, 6) + (0,) * 13)]  # not the cell between
    [(5, 6), (1, 2), (5, 6)]
    >>> len(live_masks((7,) + (0,) * 15)), mask_values(live_masks((7,) + (0,) * 15)[0])
    (15, (1, 2, 3, 4, 5, 6))
    """
    if all(code in (EMPTY, RUIN_CODE) for code in codes):
        return [ANY_VALUE] * codes.count(EMPTY)
    return [mask for mask in (fit_masks(codes) if masks is None else masks) if 0 < mask < ANY_VALUE]


def live_cells(codes: Codes, masks: list[int] | None = None) -> int:
    """How many empty cells a die may be staged on (``live_masks``).

    >>> live_cells((1, 0, 6) + (0,) * 13)  # cells 3, 4 and 6; not the one between 1 and 6
    3
    """
    return len(live_masks(codes, masks))


def dead(codes: Codes) -> bool:
    """No die can ever be staged on this board again, though it has empty cells: none is live
    (``live_cells``), and placing is the only way a cell gains a number beside it. Every roll to
    the end is then a MAGDAGDON and every empty cell a RUIN, whatever the dice and the Powers.

    >>> dead((6, 6, 7, 7, 7, 7) + (0,) * 10)  # the 6s walled in by RUINs
    True
    >>> dead((1, 0, 6) + (0,) * 13)  # the cell between a 1 and a 6 accepts none, but others do
    False
    >>> dead((0,) * 15 + (7,))  # no number yet: a die may go on any empty cell
    False
    """
    return EMPTY in codes and live_cells(codes) == 0


#: For each of the board's symmetries (``board.SYMMETRIES``), the cell each cell of the image is
#: read from.
_READ_FROM: tuple[tuple[int, ...], ...] = tuple(
    tuple(perm.index(cell) for cell in range(CELLS)) for perm in SYMMETRIES
)


def images(codes: Codes) -> list[Codes]:
    """``codes`` under each of the board's 8 symmetries (turns and mirrors), itself first. The
    rules and the score are the same on every image of a board.

    >>> images((1, 2, 3, 4) + (0,) * 12)[2][-4:]  # turned half a turn: the row read backwards
    (4, 3, 2, 1)
    """
    return [tuple([codes[cell] for cell in read]) for read in _READ_FROM]


def ruin_boards(codes: Codes) -> list[Codes]:
    """Every board that accepting MAGDAGDON on ``codes`` can leave: a RUIN on each empty cell,
    in cell order."""
    return [put(codes, cell, RUIN_CODE) for cell in range(CELLS) if codes[cell] == EMPTY]
