"""The 4×4 board as bitboards: cell numbering, neighbour tables and symmetries.

A cell is an int 0–15, ``row * 4 + col``; a set of cells is a 16-bit int with bit ``cell`` set.
A board is a tuple of seven bitboards: index 0 holds the RUINs, index v (1–6) the cells holding v.
Every table is built once at import, so rule checks are look-ups and shifts.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

from magdagdon.engine.rules import VALUES, may_touch

if TYPE_CHECKING:
    from collections.abc import Sequence

SIZE = 4
CELLS = SIZE * SIZE
FULL = (1 << CELLS) - 1
RUIN_LAYER = 0  # the index of the RUINs in a board tuple
RUIN_CODE = 7  # a RUIN in the cell-code form (0 empty, 1–6 a number, 7 a RUIN)

_COL0 = 0x1111
_COL3 = 0x8888

Board = tuple[int, int, int, int, int, int, int]
EMPTY_BOARD: Board = (0, 0, 0, 0, 0, 0, 0)


def cell_of(row: int, col: int) -> int:
    """The cell index of ``(row, col)``.

    >>> cell_of(2, 3)
    11
    """
    return row * SIZE + col


def row_col(cell: int) -> tuple[int, int]:
    """The ``(row, col)`` of a cell index.

    >>> row_col(11)
    (2, 3)
    """
    return divmod(cell, SIZE)


def spread(cells: int) -> int:
    """Every cell that shares a side with a cell of ``cells``.

    >>> bin(spread(1))  # the neighbours of cell 0 are cells 1 and 4
    '0b10010'
    """
    return (
        (cells << SIZE) | (cells >> SIZE) | ((cells & ~_COL3) << 1) | ((cells & ~_COL0) >> 1)
    ) & FULL


NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(
    tuple(n for n in range(CELLS) if spread(1 << cell) >> n & 1) for cell in range(CELLS)
)

#: For each value v, the values that may not stand next to it (they differ by more than 1).
CONFLICTS: tuple[tuple[int, ...], ...] = tuple(
    tuple(w for w in VALUES if not may_touch(v, w)) for v in range(7)
)


def _cells_of_byte(byte: int, shift: int) -> tuple[int, ...]:
    return tuple(bit + shift for bit in range(8) if byte >> bit & 1)


_CELLS_LO = tuple(_cells_of_byte(byte, 0) for byte in range(256))
_CELLS_HI = tuple(_cells_of_byte(byte, 8) for byte in range(256))


def iter_cells(cells: int) -> list[int]:
    """The cell indices of a bitboard, lowest first.

    >>> iter_cells(0b1000_0000_0010_0001)
    [0, 5, 15]
    """
    return [*_CELLS_LO[cells & 0xFF], *_CELLS_HI[cells >> 8]]


def numbers_of(board: Board) -> int:
    """The cells that hold a number."""
    return board[1] | board[2] | board[3] | board[4] | board[5] | board[6]


def empty_of(board: Board) -> int:
    """The empty cells: neither a number nor a RUIN."""
    return FULL & ~(numbers_of(board) | board[RUIN_LAYER])


def with_ruin(board: Board, cell: int) -> Board:
    """The board with a RUIN on ``cell``."""
    return (board[0] | 1 << cell, board[1], board[2], board[3], board[4], board[5], board[6])


#: The neighbours of each cell as a bitboard.
ADJACENT: tuple[int, ...] = tuple(spread(1 << cell) for cell in range(CELLS))

#: What placement depends on, packed in one int of eight 16-bit fields: field 0 the cells next to a
#: number ("near"), field v (1–6) the cells next to a number that may not stand next to a v
#: ("bad" for v), field 7 the cells taken by a number or a RUIN. Two positions with the same frame
#: accept exactly the same placements from then on, so search can key its memory on frames; and
#: putting a number down is a single OR with a table entry.
Frame = int

FRAME_FIELD = 16  # bits per field of a frame
FRAME_TAKEN = 7 * FRAME_FIELD  # where the field of taken cells starts
#: Where the "bad" field of each value starts in a frame (index 0 unused).
FRAME_BAD = tuple(FRAME_FIELD * value for value in range(7))


def _place_bits(cell: int, value: int) -> int:
    near = spread(1 << cell)
    bits = near | 1 << (FRAME_TAKEN + cell)
    for w in CONFLICTS[value]:
        bits |= near << (FRAME_FIELD * w)
    return bits


#: ``PLACE_BITS[cell * 8 + value]``: what ``value`` on ``cell`` adds to a frame.
PLACE_BITS: tuple[int, ...] = tuple(
    _place_bits(cell, value) if value in VALUES else 0
    for cell in range(CELLS)
    for value in range(8)
)


#: ``PLACE_TEST[cell * 8 + value]``: the bits of a frame that decide whether ``value`` may be
#: placed on ``cell`` once the board holds a number: it may when, of these, the cell's "near" bit
#: alone is set (:func:`frame_valid`, for one cell).
PLACE_TEST: tuple[int, ...] = tuple(
    1 << cell | 1 << (FRAME_FIELD * value + cell) | 1 << (FRAME_TAKEN + cell)
    for cell in range(CELLS)
    for value in range(8)
)


def frame_of(board: Board) -> Frame:
    """The frame of a board (see :data:`Frame`)."""
    frame = board[RUIN_LAYER] << FRAME_TAKEN
    for value in VALUES:
        cells = board[value]
        while cells:
            low = cells & -cells
            frame |= PLACE_BITS[(low.bit_length() - 1) << 3 | value]
            cells ^= low
    return frame


def frame_place(frame: Frame, cell: int, value: int) -> Frame:
    """The frame after ``value`` is put on the empty ``cell``."""
    return frame | PLACE_BITS[cell << 3 | value]


def frame_ruin(frame: Frame, cell: int) -> Frame:
    """The frame after a RUIN is put on the empty ``cell``."""
    return frame | 1 << (FRAME_TAKEN + cell)


def frame_empty(frame: Frame) -> int:
    """The empty cells of a frame."""
    return FULL ^ frame >> FRAME_TAKEN


def frame_valid(frame: Frame, value: int) -> int:
    """The empty cells where a die of ``value`` may be placed (docs/rules.md "Valid placement"):
    any empty
    cell while no cell holds a number; else an empty cell next to a number and within 1 of every
    neighbouring number (RUINs constrain nothing)."""
    near = frame & FULL
    if not near:
        return FULL ^ frame >> FRAME_TAKEN
    return near & ~(frame >> FRAME_FIELD * value | frame >> FRAME_TAKEN)


def frame_valid_all(frame: Frame) -> tuple[int, ...]:
    """:func:`frame_valid` of every value at once, by value (index 0: no cell): a search that
    tries each value on a board asks the frame's fields once."""
    taken = frame >> FRAME_TAKEN
    near = frame & FULL
    if not near:
        free = FULL ^ taken
        return (0, free, free, free, free, free, free)
    return (
        0,
        near & ~(frame >> FRAME_FIELD | taken),
        near & ~(frame >> 2 * FRAME_FIELD | taken),
        near & ~(frame >> 3 * FRAME_FIELD | taken),
        near & ~(frame >> 4 * FRAME_FIELD | taken),
        near & ~(frame >> 5 * FRAME_FIELD | taken),
        near & ~(frame >> 6 * FRAME_FIELD | taken),
    )


def frame_fits(frame: Frame, value: int) -> int:
    """The empty cells whose numbered neighbours all lie within 1 of ``value`` (a cell with no
    numbered neighbour fits too: :func:`frame_valid` also asks for a neighbour)."""
    return FULL & ~(frame >> FRAME_FIELD * value | frame >> FRAME_TAKEN)


def to_codes(board: Board) -> list[int]:
    """The board as 16 cell codes: 0 empty, 1–6 a number, 7 a RUIN."""
    codes = [0] * CELLS
    for layer, cells in enumerate(board):  # the RUINs, then each value
        if cells:
            code = layer or RUIN_CODE
            for cell in _CELLS_LO[cells & 0xFF]:
                codes[cell] = code
            for cell in _CELLS_HI[cells >> 8]:
                codes[cell] = code
    return codes


def from_codes(codes: Sequence[int]) -> Board:
    """The inverse of :func:`to_codes`."""
    b = [0] * 7
    for cell, code in enumerate(codes):
        if code == RUIN_CODE:
            b[RUIN_LAYER] |= 1 << cell
        elif code:
            b[code] |= 1 << cell
    return (b[0], b[1], b[2], b[3], b[4], b[5], b[6])


def _symmetries() -> tuple[tuple[int, ...], ...]:
    perms = []
    for flip in (False, True):
        for turns in range(4):
            perm = []
            for cell in range(CELLS):
                r, c = row_col(cell)
                if flip:
                    c = SIZE - 1 - c
                for _ in range(turns):
                    r, c = c, SIZE - 1 - r
                perm.append(cell_of(r, c))
            perms.append(tuple(perm))
    return tuple(perms)


#: The eight symmetries of the square, each a permutation of the cells.
SYMMETRIES = _symmetries()


def _map(cells: int, perm: tuple[int, ...]) -> int:
    out = 0
    for cell in iter_cells(cells):
        out |= 1 << perm[cell]
    return out


@lru_cache(maxsize=4096)
def first_cells(ruins: int) -> int:
    """One empty cell of each class that the board's symmetries (keeping ``ruins``) make equal.

    On a board with no number, where a die goes matters only up to symmetry, so a search need
    try just these cells: corner, edge and centre on an empty board.
    """
    keep = [p for p in SYMMETRIES if _map(ruins, p) == ruins]
    reps = 0
    for cell in iter_cells(FULL & ~ruins):
        if all(p[cell] >= cell for p in keep):
            reps |= 1 << cell
    return reps
