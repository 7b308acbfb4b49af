"""The turn planner: every distinct board a roll can leave, and extension tables for search.

A plan is the whole placement of one turn: which die goes on which cell, in an order where each
die is valid when it is staged. Plans are deduplicated by the board they leave, which is exact:
what can still be placed from a board depends only on the board and the dice left, and the dice
left follow from the board.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from magdagdon.bots.ordered import ordered_sum
from magdagdon.engine.board import (
    RUIN_CODE,
    frame_fits,
    frame_place,
    frame_valid,
    frame_valid_all,
    iter_cells,
)
from magdagdon.engine.board_codes import EMPTY, Codes, fit_masks, frame_of_codes
from magdagdon.engine.dice import roll_chances, roll_outcomes
from magdagdon.engine.rules import DELTAS, VALUES, adjusted
from magdagdon.engine.search import can_place_frame

if TYPE_CHECKING:
    from collections.abc import Callable

    from magdagdon.engine.board import Frame

Placement = tuple[tuple[int, int], ...]  # (die, cell) in staging order


def turn_plans(codes: Codes, dice: tuple[int, ...], min_required: int) -> dict[Codes, Placement]:
    """Every distinct board reachable by staging at least ``min_required`` of ``dice``, with a
    plan."""
    plans: dict[Codes, Placement] = {}
    seen: set[int] = set()  # the boards met, as ints (``_number``): most are met in many orders
    add = seen.add
    # A board placing every die is kept without a call of its own (most boards are such).
    last_kept = len(dice) >= min_required
    choices = _Choices(dice)

    def grow(
        board: Codes, number: int, frame: Frame, left: tuple[int, ...], placed: Placement
    ) -> None:
        if len(placed) >= min_required:  # every board but the first is met once (``seen``)
            plans[board] = placed
        for die, value, rest, bits in choices[left]:
            for cell in iter_cells(frame_valid(frame, value)):
                after_number = number | bits[cell]
                if after_number not in seen:
                    add(after_number)
                    after = board[:cell] + (value,) + board[cell + 1 :]  # noqa: RUF005 (put)
                    if rest:
                        grow(
                            after,
                            after_number,
                            frame_place(frame, cell, value),
                            rest,
                            (*placed, (die, cell)),
                        )
                    elif last_kept:
                        plans[after] = (*placed, (die, cell))

    grow(codes, _number(codes), frame_of_codes(codes), tuple(range(len(dice))), ())
    return plans


#: A die to stage next: its index, its value, the dice left after it, and ``_BITS`` of its value.
_Choice = tuple[int, int, tuple[int, ...], tuple[int, ...]]


class _Choices(dict[tuple[int, ...], list[_Choice]]):
    """By the dice left (indices), the dice worth staging next: the first die of each value (a
    die of the same value leaves the same boards), made when first asked."""

    def __init__(self, dice: tuple[int, ...]) -> None:
        super().__init__()
        self._dice = dice

    def __missing__(self, left: tuple[int, ...]) -> list[_Choice]:
        found: list[_Choice] = []
        tried = set()
        for i, die in enumerate(left):
            value = self._dice[die]
            if value not in tried:
                tried.add(value)
                found.append((die, value, left[:i] + left[i + 1 :], _BITS[value]))
        self[left] = found
        return found


def extension_table(
    codes: Codes, low: int, high: int, score: Callable[[Codes], float]
) -> dict[tuple[int, ...], float]:
    """For every multiset of ``low``–``high`` values that can be staged on ``codes`` (sorted
    tuple), the best ``score`` of a board it can leave. One walk serves every roll at once.

    Each board is scored once, under the multiset of the values it adds (whatever the order they
    were staged in), so the table is the same whichever way the walk reaches a board."""
    best: dict[tuple[int, ...], float] = {}
    seen: set[int] = set()  # the boards met, as ints (3 bits a cell): one is met in many orders
    add = seen.add

    def grow(board: Codes, number: int, frame: Frame, used: tuple[int, ...]) -> None:
        depth = len(used) + 1
        scored, deeper = depth >= low, depth < high
        with_value = _WITH[used]
        valid = frame_valid_all(frame)
        for value in VALUES:
            cells = valid[value]
            if not cells:
                continue
            key = with_value[value]
            top = best.get(key, -1e9)  # the deeper walk below fills longer keys only
            bits = _BITS[value]
            for cell in iter_cells(cells):
                after_number = number | bits[cell]
                if after_number in seen:
                    continue
                add(after_number)
                after = board[:cell] + (value,) + board[cell + 1 :]  # noqa: RUF005 (put, inline)
                if scored:
                    points = score(after)
                    if points > top:
                        top = points
                if deeper:
                    grow(after, after_number, frame_place(frame, cell, value), key)
            if top > -1e9:
                best[key] = top

    grow(codes, _number(codes), frame_of_codes(codes), ())
    return best


def _number(codes: Codes) -> int:
    """A board as one int, 3 bits a cell."""
    number = 0
    for cell, code in enumerate(codes):
        number |= code << 3 * cell
    return number


#: By value, by cell: the value's bits in a board's int (``_number``).
_BITS: tuple[tuple[int, ...], ...] = tuple(
    tuple(value << 3 * cell for cell in range(16)) for value in range(RUIN_CODE + 1)
)
#: For each multiset of 0–3 values (sorted), the multiset with one more value, by the value.
_WITH: dict[tuple[int, ...], dict[int, tuple[int, ...]]] = {
    part: {value: tuple(sorted((*part, value))) for value in VALUES}
    for size in range(4)
    for part, _ in roll_outcomes(size)
}


def _contains(values: tuple[int, ...], part: tuple[int, ...]) -> bool:
    rest = list(values)
    for v in part:
        if v not in rest:
            return False
        rest.remove(v)
    return True


#: The 126 rolls of four dice (sorted) and their chances, in :func:`roll_outcomes` order.
ROLL_VALUES: tuple[tuple[int, ...], ...] = tuple(values for values, _ in roll_chances(4))
ROLL_CHANCES: tuple[float, ...] = tuple(chance for _, chance in roll_chances(4))
#: For every multiset of 1–4 values (sorted), the indices of the rolls that contain it.
SUPERSETS: dict[tuple[int, ...], tuple[int, ...]] = {
    part: tuple(i for i, values in enumerate(ROLL_VALUES) if _contains(values, part))
    for size in range(1, 5)
    for part, _ in roll_outcomes(size)
}


def _one_change(values: tuple[int, ...]) -> tuple[int, ...]:
    out = set()
    for i, v in enumerate(values):
        for delta in DELTAS:
            w = adjusted(v, delta)
            if w is not None:
                out.add(tuple(sorted((*values[:i], w, *values[i + 1 :]))))
    return tuple(sorted(ROLL_VALUES.index(changed) for changed in out))


#: For every roll index, the rolls one BAWAS −1 / DAGDAG +1 away.
ONE_CHANGE: tuple[tuple[int, ...], ...] = tuple(_one_change(values) for values in ROLL_VALUES)


def best_by_roll(table: dict[tuple[int, ...], float]) -> list[float | None]:
    """For each of the 126 rolls, the best value in ``table`` of a multiset the roll contains."""
    best: list[float | None] = [None] * len(ROLL_VALUES)
    for part, value in table.items():
        for i in SUPERSETS[part]:
            known = best[i]
            if known is None or value > known:
                best[i] = value
    return best


def magdagdon_chance(codes: Codes, min_required: int) -> float:
    """The chance that a roll of four dice on ``codes`` is a MAGDAGDON: that no ``min_required``
    of its dice can be staged one after the other.

    A roll can when some ``min_required`` of its dice can (the engine's search decides each
    multiset). Not searched: a multiset whose rolls are all known to be placeable already, and one
    with a value that no empty cell fits (placing dice only narrows what a cell fits)."""
    if min_required <= 0:
        return 0.0
    frame = frame_of_codes(codes)
    fitting = 0  # the values some empty cell fits, as bits 1–6
    for value in VALUES:
        if frame_fits(frame, value):
            fitting |= 1 << value
    covered = 0
    need = min_required
    for part, values, rolls in _PARTS[need]:
        if rolls & ~covered and not values & ~fitting and can_place_frame(frame, part, need):
            covered |= rolls
    return 1.0 - ordered_sum(ROLL_CHANCES[i] for i in range(len(ROLL_VALUES)) if covered >> i & 1)


def chance_key(codes: Codes, min_required: int) -> tuple[Codes, int, bool]:
    """What :func:`magdagdon_chance` depends on, for a memo that boards alike there share: the
    values each empty cell accepts from the numbers beside it (``fit_masks``, -1 on a number or a
    RUIN; a cell beside a number accepts three values at most, so the mask also says whether a die
    may be staged there once some cell holds a number), the minimum, and whether the board holds
    a number at all (with none, any empty cell is valid). Placing dice changes only the empty
    cells and their neighbours, so the numbers further away never count."""
    return tuple(fit_masks(codes)), min_required, codes.count(EMPTY) + codes.count(RUIN_CODE) < 16


#: For 1–4 dice: each multiset of values (sorted), its values as bits 1–6, and the rolls that
#: contain it as a bit set (by roll index).
_PARTS: dict[int, tuple[tuple[tuple[int, ...], int, int], ...]] = {
    size: tuple(
        (part, sum({1 << v for v in part}), sum(1 << i for i in SUPERSETS[part]))
        for part, _ in roll_outcomes(size)
    )
    for size in range(1, 5)
}
