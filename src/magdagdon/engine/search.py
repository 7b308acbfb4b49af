"""Whether some dice can still be placed: the search behind MAGDAGDON and ``stuck``.

docs/rules.md: "is there any order of placing the turn's minimum number of these dice, each valid
at the
moment it is placed?" The search tries every order, depth first, with two prunings that keep it
exact: a position reached by two orders (the same frame) is searched once, and on a board with no
number the first die tries one cell of each symmetry class only.
"""

from __future__ import annotations

from functools import cache
from itertools import combinations_with_replacement, product

from magdagdon.engine.board import (
    ADJACENT,
    CELLS,
    FRAME_BAD,
    FRAME_TAKEN,
    FULL,
    Board,
    Frame,
    first_cells,
    frame_empty,
    frame_of,
    frame_place,
    frame_valid,
    spread,
)
from magdagdon.engine.rules import DICE_PER_ROLL, may_touch

_NEAR = FULL  # the field of a frame that holds the cells next to a number


def can_place(board: Board, values: tuple[int, ...], need: int) -> bool:
    """True when ``need`` of ``values`` can be placed on ``board`` one after another, each valid.

    >>> from magdagdon.engine.board import EMPTY_BOARD
    >>> can_place(EMPTY_BOARD, (1, 3, 5, 1), 2), can_place(EMPTY_BOARD, (1, 3, 5, 1), 3)
    (True, False)
    """
    return can_place_frame(frame_of(board), values, need)


def can_place_frame(frame: Frame, values: tuple[int, ...], need: int) -> bool:
    """:func:`can_place` on a frame (see :data:`magdagdon.engine.board.Frame`).

    On a board with no number (the first roll, or RUINs alone) the answers are kept: such boards
    are few, and theirs is the longest search."""
    near = frame & _NEAR
    if near and need == 2 and len(values) >= 2:  # the common case, straight to the arithmetic
        values = tuple(sorted(values))
        return _pair(near, _fits(frame, values), values)
    if need <= 0:
        return True
    if need > len(values):
        return False
    values = tuple(sorted(values))
    if near:
        return _search(frame, values, need, set())
    key = (frame, values, need)
    found = _NO_NUMBER.get(key)
    if found is None:
        if len(_NO_NUMBER) >= _NO_NUMBER_SIZE:
            _NO_NUMBER.clear()
        found = _NO_NUMBER[key] = _search(frame, values, need, set())
    return found


def roll_masks(
    frame: Frame, near: int, values: tuple[int, ...], need: int
) -> tuple[int, ...] | None:
    """For a roll that must place ``need`` dice (1 to 3), on a frame with a number (``near``, its
    cells next to a number, is not 0): the cells each die may be placed on, by die; or None when
    no ``need`` of them can be placed one after the other (MAGDAGDON).

    :func:`can_place_frame` and the dice's valid cells, from the frame's fields read once;
    unrolled for a roll of four dice 1–6, the one a turn makes."""
    try:
        v0, v1, v2, v3 = values
        ordered = _SORTED_ROLLS[values]
    except (ValueError, KeyError):
        ordered = tuple(sorted(values))
        fits = _fits(frame, ordered)
        masks = tuple([fits[value] & near for value in values])
        return masks if _fits_need(near, fits, ordered, need, masks) else None
    # _fits, inline
    free = FULL ^ frame >> FRAME_TAKEN
    fits = [0] * 7
    fits[v0] = free ^ free & frame >> FRAME_BAD[v0]
    fits[v1] = free ^ free & frame >> FRAME_BAD[v1]
    fits[v2] = free ^ free & frame >> FRAME_BAD[v2]
    fits[v3] = free ^ free & frame >> FRAME_BAD[v3]
    masks = (fits[v0] & near, fits[v1] & near, fits[v2] & near, fits[v3] & near)
    if need == 2:  # the common case, without the call
        return masks if _pair(near, fits, ordered) else None
    return masks if _fits_need(near, fits, ordered, need, masks) else None


def _fits_need(
    near: int, fits: list[int], values: tuple[int, ...], need: int, masks: tuple[int, ...]
) -> bool:
    """Whether ``need`` (1 to 3) of ``values`` (sorted) can be placed, from their ``fits`` and
    valid cells (``masks``) on a board with a number."""
    if need == 1:
        return any(masks)
    if not _pair(near, fits, values):
        return False
    return need == 2 or (need == 3 and _third(near, fits, values, 0))


#: Each roll of four dice 1–6, sorted.
_SORTED_ROLLS = {
    values: tuple(sorted(values)) for values in product(range(1, 7), repeat=DICE_PER_ROLL)
}


def search_frame(frame: Frame, values: tuple[int, ...], need: int) -> bool:
    """:func:`can_place_frame` without the kept answers: the search itself, every time."""
    if need <= 0:
        return True
    if need > len(values):
        return False
    return _search(frame, tuple(sorted(values)), need, set())


_NO_NUMBER: dict[tuple[int, tuple[int, ...], int], bool] = {}
_NO_NUMBER_SIZE = 1 << 16


def _search(frame: Frame, values: tuple[int, ...], need: int, seen: set[Frame]) -> bool:
    if need == 2 and frame & _NEAR:
        return _two(frame, values)
    if need == 3:
        return _three(frame, values)
    first = not frame & _NEAR
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
            cells &= first_cells(FULL ^ frame_empty(frame))
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


def _two(frame: Frame, values: tuple[int, ...]) -> bool:
    """``need == 2`` on a board that holds a number, by bit arithmetic alone."""
    return _pair(frame & _NEAR, _fits(frame, values), values)


def _fits(frame: Frame, values: tuple[int, ...]) -> list[int]:
    """By value (index 0–6): the cells that fit it, for the values given (0 for the others)."""
    free = FULL ^ frame >> FRAME_TAKEN
    fits = [0] * 7
    for w in values:
        # free & ~bad, as free ^ (free & bad): ``~`` on the (long) frame would make a negative
        # long, slower to build and to AND.
        fits[w] = free ^ free & frame >> FRAME_BAD[w]
    return fits


@cache
def _splits(values: tuple[int, ...]) -> tuple[tuple[int, tuple[tuple[int, bool], ...]], ...]:
    """For sorted ``values``: each distinct first value v, with each distinct value w left after
    it and whether w may stand next to v."""
    out = []
    for i, v in enumerate(values):
        if i and values[i - 1] == v:
            continue
        others = sorted(set(values[:i] + values[i + 1 :]))
        out.append((v, tuple((w, may_touch(v, w)) for w in others)))
    return tuple(out)


#: :func:`_splits` of every sorted choice of up to four values 1–6, read by a subscript rather
#: than a call.
_SPLITS = {
    values: _splits(values)
    for count in range(DICE_PER_ROLL + 1)
    for values in combinations_with_replacement(range(1, 7), count)
}

_SPREAD_LO = tuple(spread(cells) for cells in range(256))
_SPREAD_HI = tuple(spread(cells << 8) for cells in range(256))
#: Each cell with its neighbours.
_CLOSED = tuple(ADJACENT[cell] | 1 << cell for cell in range(CELLS))


def _pair(near: int, fits: list[int], values: tuple[int, ...]) -> bool:
    """Can two of ``values`` (sorted) be placed, one after the other?

    ``near``: the cells next to a number (not 0); ``fits[w]``: the empty cells whose numbered
    neighbours all lie within 1 of w. After v goes on cell c, a second die w may go on cell d when
    d fits w, d != c and d touches a number — an old one, or c itself; if |v - w| > 1, d must
    not touch c. So, over the cells c valid for v: when w may stand next to v, some d exists if
    two cells are valid for w, or one that is not the only c, or a cell that fits w touches some
    c; when it may not, if some cell valid for w is neither c nor next to c, for some c.
    """
    try:
        splits = _SPLITS[values]
    except KeyError:
        splits = _splits(values)
    for v, others in splits:
        cells = fits[v] & near
        if not cells:
            continue
        for w, together in others:
            fit_w = fits[w]
            valid_w = fit_w & near
            if together:
                if (
                    valid_w & (valid_w - 1)
                    or (valid_w and cells & ~valid_w)
                    or (_SPREAD_LO[cells & 0xFF] | _SPREAD_HI[cells >> 8]) & fit_w
                ):
                    return True
            elif valid_w:
                rest = cells
                while rest:
                    low = rest & -rest
                    rest ^= low
                    if valid_w & ~_CLOSED[low.bit_length() - 1]:
                        return True
    return False


def _three(frame: Frame, values: tuple[int, ...]) -> bool:
    """``need == 3``: each first die (v on c) leaves a :func:`_pair` problem whose fits follow from
    the parent's by masking: c is taken, and its neighbours no longer fit values far from v."""
    empty, near = frame_empty(frame), frame & _NEAR
    fits = _fits(frame, values)
    if near:
        if not _pair(near, fits, values):
            return False  # the first two dice of any three would be such a pair
        first = 0
    else:
        first = empty & first_cells(FULL & ~empty)
    return _third(near, fits, values, first)


def _third(near: int, fits: list[int], values: tuple[int, ...], first: int) -> bool:
    """:func:`_three` once its pair check has passed (or on a board with no number, where
    ``first`` holds the cells the first die tries)."""
    for v, rest, far in _rests(values):
        cells = first or fits[v] & near
        while cells:
            low = cells & -cells
            cells ^= low
            cell = low.bit_length() - 1
            closed = _CLOSED[cell]
            child = fits.copy()
            for w in rest:
                child[w] &= ~closed if w in far else ~low
            if _pair(near | ADJACENT[cell], child, rest):
                return True
    return False


@cache
def _rests(values: tuple[int, ...]) -> tuple[tuple[int, tuple[int, ...], frozenset[int]], ...]:
    """For sorted ``values``: each distinct first value v, the values left after it, and those of
    them that may not stand next to v."""
    out = []
    for i, v in enumerate(values):
        if i and values[i - 1] == v:
            continue
        rest = values[:i] + values[i + 1 :]
        out.append((v, rest, frozenset(w for w in rest if not may_touch(v, w))))
    return tuple(out)
