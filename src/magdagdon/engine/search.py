"""Whether some dice can still be placed: the search behind MAGDAGDON and ``stuck``.

SPEC: "is there any order of placing the turn's minimum number of these dice, each valid at the
moment it is placed?" The search tries every order, depth first, with two prunings that keep it
exact: a position reached by two orders is searched once, and on a board with no number the first
die tries one cell of each symmetry class only.
"""

from __future__ import annotations

from magdagdon.engine.board import RUIN, Board, first_cells, numbers_of, valid_mask


def can_place(board: Board, values: tuple[int, ...], need: int) -> bool:
    """True when ``need`` of ``values`` can be placed on ``board`` one after another, each valid.

    >>> from magdagdon.engine.board import EMPTY_BOARD
    >>> can_place(EMPTY_BOARD, (1, 3, 5, 1), 2), can_place(EMPTY_BOARD, (1, 3, 5, 1), 3)
    (True, False)
    """
    if need <= 0:
        return True
    if need > len(values):
        return False
    return _search(board, tuple(sorted(values)), need, set())


def _search(board: Board, values: tuple[int, ...], need: int, seen: set[Board]) -> bool:
    no_numbers = not numbers_of(board)
    previous = 0
    for i, value in enumerate(values):
        if value == previous:
            continue
        previous = value
        cells = valid_mask(board, value)
        if not cells:
            continue
        if need == 1:
            return True
        if no_numbers:
            cells &= first_cells(board[RUIN])
        rest = values[:i] + values[i + 1 :]
        while cells:
            low = cells & -cells
            cells ^= low
            layers = list(board)
            layers[value] |= low
            after: Board = (
                layers[0],
                layers[1],
                layers[2],
                layers[3],
                layers[4],
                layers[5],
                layers[6],
            )
            if after in seen:
                continue
            seen.add(after)
            if _search(after, rest, need - 1, seen):
                return True
    return False
