"""The legal actions of a state, as a tuple built from cached parts.

Every action object the game can need is built once. The stages of a die, and the RUINs, onto
the cells of each byte of a bitboard are tuples built at import; unstages with confirm, and Power
uses, are tuples kept by what they depend on. So the legal actions of a state are a few look-ups
and concatenations, and a random player indexes a plain tuple. The order is fixed: stages (by
die, then cell), unstages (in staging order), confirm, Power uses (BAWAS −1 / DAGDAG +1 by die,
then rerolls), RUINs (by cell).
"""

from __future__ import annotations

from functools import cache
from itertools import permutations

from magdagdon.engine.actions import Action, Adjust, Confirm, Reroll, Roll, Ruin, Stage, Unstage
from magdagdon.engine.board import CELLS, iter_cells
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


def _unstages_table(minimum: int) -> dict[tuple[int, ...], tuple[Action, ...]]:
    table: dict[tuple[int, ...], tuple[Action, ...]] = {(): ()}
    for length in range(1, DICE_PER_ROLL + 1):
        for order in permutations(range(DICE_PER_ROLL), length):
            table[order] = unstages(order, length >= minimum)
    return table


#: By the turn's minimum (0 to the dice of a roll), then by the staged dice in staging order:
#: :func:`unstages` (nothing when no die is staged), read by a subscript rather than a call.
UNSTAGES_BY_MINIMUM = {minimum: _unstages_table(minimum) for minimum in range(DICE_PER_ROLL + 1)}


@cache
def powers(tray: tuple[int, ...], dice: tuple[int, ...]) -> tuple[Action, ...]:
    """Every Power use on the tray dice: BAWAS −1 / DAGDAG +1 by die, then every reroll."""
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


def ruins(empty: int) -> tuple[Action, ...]:
    """A RUIN on each empty cell."""
    return _RUINS_LO[empty & 0xFF] + _RUINS_HI[empty >> 8]


_RUINS_LO = tuple(tuple(RUIN[cell] for cell in iter_cells(byte)) for byte in range(256))
_RUINS_HI = tuple(tuple(RUIN[cell] for cell in iter_cells(byte << 8)) for byte in range(256))


def _stage_table(die: int, shift: int) -> tuple[tuple[Action, ...], ...]:
    stage = STAGE[die]
    return tuple(tuple(stage[cell] for cell in iter_cells(byte << shift)) for byte in range(256))


#: The stages of each die onto the cells of one byte of a bitboard (cells 0–7, then 8–15).
STAGES_LO = tuple(_stage_table(die, 0) for die in range(DICE_PER_ROLL))
STAGES_HI = tuple(_stage_table(die, 8) for die in range(DICE_PER_ROLL))


def stages(masks: tuple[int, ...]) -> tuple[Action, ...]:
    """The stage actions of each die (by id) onto its cells (``masks[die]``, a bitboard).

    ``GameState.legal_actions`` has this unrolled for a roll of four dice."""
    out: tuple[Action, ...] = ()
    for die, mask in enumerate(masks):
        if mask:
            out += STAGES_LO[die][mask & 0xFF] + STAGES_HI[die][mask >> 8]
    return out


NONE: tuple[Action, ...] = ()
ONLY_ROLL: tuple[Action, ...] = (ROLL,)
