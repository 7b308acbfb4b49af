"""Whether some dice can still be placed: the search behind MAGDAGDON and ``stuck``.

SPEC: "is there any order of placing the turn's minimum number of these dice, each valid at the
moment it is placed?" The search tries every order, depth first, with two prunings that keep it
exact: a position reached by two orders (the same frame) is searched once, and on a board with no
number the first die tries one cell of each symmetry class only.
"""

from __future__ import annotations

from magdagdon.engine.board import (
    FULL,
    Board,
    Frame,
    first_cells,
    frame_of,
    frame_place,
    frame_valid,
)


def can_place(board: Board, values: tuple[int, ...], need: int) -> bool:
    """True when ``need`` of ``values`` can be placed on ``board`` one after another, each valid.

    >>> from magdagdon.engine.board import EMPTY_BOARD
    >>> can_place(EMPTY_BOARD, (1, 3, 5, 1), 2), can_place(EMPTY_BOARD, (1, 3, 5, 1), 3)
    (True, False)
    """
    return can_place_frame(frame_of(board), values, need)


def can_place_frame(frame: Frame, values: tuple[int, ...], need: int) -> bool:
    """:func:`can_place` on a frame (see :data:`magdagdon.engine.board.Frame`)."""
    if need <= 0:
        return True
    if need > len(values):
        return False
    return _search(frame, tuple(sorted(values)), need, set())


def _search(frame: Frame, values: tuple[int, ...], need: int, seen: set[Frame]) -> bool:
    first = not frame[1]
    previous = 0
    for i, value in enumerate(values):
        if value == previous:
            continue
        previous = value
        cells = frame_valid(frame, value)
        if not cells:
            continue
        if need == 1:
            return True
        if first:
            cells &= first_cells(FULL & ~frame[0])
        rest = values[:i] + values[i + 1 :]
        while cells:
            low = cells & -cells
            cells ^= low
            after = frame_place(frame, low.bit_length() - 1, value)
            if after in seen:
                continue
            seen.add(after)
            if _search(after, rest, need - 1, seen):
                return True
    return False
