"""The legal actions of a state as a cheap view: counted without being built.

In the manner of python-chess's ``legal_moves``: ``len()`` is a few popcounts, ``view[i]`` finds the
i-th action directly, iteration yields them all. A random player needs one ``len`` and one index,
so it never pays for the full list. The order is fixed: stages (by die, then cell), unstages (in
staging order), confirm, Power uses (BAWAS −1 / DAGDAG +1 by die, then rerolls), RUINs (by cell).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from functools import cache
from typing import Any, overload

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
def powers(tray: tuple[int, ...], dice: tuple[int, ...]) -> tuple[Action, ...]:
    """Every Power use on the tray dice: BAWAS −1 / DAGDAG +1 by die, then every reroll."""
    adjusts: list[Action] = []
    for die in tray:
        if dice[die] > 1:
            adjusts.append(MINUS[die])
        if dice[die] < 6:
            adjusts.append(PLUS[die])
    rerolls = (
        Reroll(tuple(d for i, d in enumerate(tray) if mask >> i & 1))
        for mask in range(1, 1 << len(tray))
    )
    return (*adjusts, *rerolls)


def _nth_cell(mask: int, n: int) -> int:
    for _ in range(n):
        mask &= mask - 1
    return (mask & -mask).bit_length() - 1


class LegalActions(Sequence[Action]):
    """A read-only sequence of actions made of stage blocks and ready-made tuples."""

    __slots__ = ("_blocks", "_len")

    def __init__(self, blocks: list[tuple[int, int, Any]], size: int) -> None:
        # A block is (count, die, mask) for the stages of a die, or (count, -1, actions).
        self._blocks = blocks
        self._len = size

    def __len__(self) -> int:
        return self._len

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
        for count, die, payload in self._blocks:
            if index < count:
                if die >= 0:
                    return STAGE[die][_nth_cell(payload, index)]
                return payload[index]  # type: ignore[no-any-return]
            index -= count
        raise IndexError("legal action index out of range")  # pragma: no cover

    def __iter__(self) -> Iterator[Action]:
        for _, die, payload in self._blocks:
            if die >= 0:
                stage = STAGE[die]
                mask: int = payload
                while mask:
                    low = mask & -mask
                    yield stage[low.bit_length() - 1]
                    mask ^= low
            else:
                yield from payload

    def __contains__(self, action: object) -> bool:
        return any(action == a for a in self)

    def __repr__(self) -> str:
        return f"LegalActions({list(self)!r})"


NONE = LegalActions([], 0)
ONLY_ROLL = LegalActions([(1, -1, (ROLL,))], 1)
