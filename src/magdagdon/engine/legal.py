"""The legal actions of a state as a cheap view: counted without being built.

In the manner of python-chess's ``legal_moves``: ``len()`` is a few popcounts, ``view[i]`` finds the
i-th action directly, iteration yields them all. A random player needs one ``len`` and one index,
so it never pays for the full list. The order is fixed: stages (by die, then cell), unstages (in
staging order), confirm, Power uses (BAWAS −1 / DAGDAG +1 by die, then rerolls), RUINs (by cell).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from functools import cache
from typing import overload

from magdagdon.engine.actions import Action, Adjust, Confirm, Reroll, Roll, Ruin, Stage, Unstage
from magdagdon.engine.board import CELLS
from magdagdon.engine.rules import DICE_PER_ROLL

# Every action object the game can need, built once and handed out.
STAGE = tuple(tuple(Stage(d, c) for c in range(CELLS)) for d in range(DICE_PER_ROLL))
UNSTAGE = tuple(Unstage(d) for d in range(DICE_PER_ROLL))
MINUS = tuple(Adjust(d, -1) for d in range(DICE_PER_ROLL))
PLUS = tuple(Adjust(d, 1) for d in range(DICE_PER_ROLL))
RUIN = tuple(Ruin(c) for c in range(CELLS))
ROLL = Roll()
CONFIRM = Confirm()


@cache
def unstages(order: tuple[int, ...], confirm: bool) -> tuple[Action, ...]:
    """Returning each staged die, in staging order; then confirm when it is allowed."""
    return (*(UNSTAGE[d] for d in order), *((CONFIRM,) if confirm else ()))


@cache
def powers(staged: tuple[int, ...], dice: tuple[int, ...]) -> tuple[Action, ...]:
    """Every Power use on the tray dice (``staged[d] < 0``): BAWAS −1 / DAGDAG +1 by die, then
    every reroll."""
    tray = tuple(d for d, cell in enumerate(staged) if cell < 0)
    adjusts: list[Action] = []
    for die in tray:
        if dice[die] > 1:
            adjusts.append(MINUS[die])
        if dice[die] < 6:
            adjusts.append(PLUS[die])
    return (*adjusts, *rerolls(tray))


@cache
def rerolls(tray: tuple[int, ...]) -> tuple[Reroll, ...]:
    """Every non-empty choice of tray dice to reroll."""
    return tuple(
        Reroll(tuple(d for i, d in enumerate(tray) if mask >> i & 1))
        for mask in range(1, 1 << len(tray))
    )


@cache
def ruins(empty: int) -> tuple[Ruin, ...]:
    """A RUIN on each empty cell."""
    return tuple(RUIN[c] for c in range(CELLS) if empty >> c & 1)


def _nth_cell(mask: int, n: int) -> int:
    for _ in range(n):
        mask &= mask - 1
    return (mask & -mask).bit_length() - 1


class LegalActions(Sequence[Action]):
    """A read-only sequence: the stages of each die, given as a mask of cells, then ready-made
    actions (unstages, confirm, Power uses, RUINs)."""

    __slots__ = ("_len", "_masks", "_rest")

    def __init__(self, masks: tuple[int, ...], rest: tuple[Action, ...]) -> None:
        self._masks = masks  # per die id: the cells it may be staged on
        self._rest = rest
        size = len(rest)
        for mask in masks:
            size += mask.bit_count()
        self._len = size

    def __len__(self) -> int:
        return self._len

    @property
    def stages(self) -> LegalActions:
        """Only the stage actions (a view of the same kind)."""
        return LegalActions(self._masks, ())

    @overload
    def __getitem__(self, index: int) -> Action: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[Action]: ...

    def __getitem__(self, index: int | slice) -> Action | Sequence[Action]:
        if type(index) is not int:
            if isinstance(index, slice):
                return list(self)[index]
            index = int(index)
        if index < 0:
            index += self._len
        if not 0 <= index < self._len:
            raise IndexError("legal action index out of range")
        for die, mask in enumerate(self._masks):
            count = mask.bit_count()
            if index < count:
                return STAGE[die][_nth_cell(mask, index)]
            index -= count
        return self._rest[index]

    def __iter__(self) -> Iterator[Action]:
        for die, mask in enumerate(self._masks):
            stage = STAGE[die]
            while mask:
                low = mask & -mask
                yield stage[low.bit_length() - 1]
                mask ^= low
        yield from self._rest

    def __contains__(self, action: object) -> bool:
        return any(action == a for a in self)

    def __repr__(self) -> str:
        return f"LegalActions({list(self)!r})"


NONE = LegalActions((), ())
ONLY_ROLL = LegalActions((), (ROLL,))
