"""The legal actions of a state, as a tuple built from cached parts.

Every action object the game can need is built once. The stages of a die, and the RUINs, onto
the cells of each byte of a bitboard are tuples built at import; unstages with confirm, and Power
uses, are tuples kept by what they depend on. So the legal actions of a state are a few look-ups
and concatenations, and a random player indexes a plain tuple. The order is fixed: stages (by
die, then cell), returns (in staging order), KUMPIRMAHIN, Power uses (BAWAS −1 / DAGDAG +1 by
die, then rerolls), RUINs (by cell).
"""

from __future__ import annotations

from functools import cache
from itertools import permutations

from magdagdon.engine.actions import Action, Adjust, Confirm, Reroll, Roll, Ruin, Stage, Unstage
from magdagdon.engine.board import CELLS, iter_cells
from magdagdon.engine.rules import DELTAS, DICE_PER_ROLL, adjusted

# Every action object the game can need, built once and handed out.
STAGE = tuple(tuple(Stage(d, c) for c in range(CELLS)) for d in range(DICE_PER_ROLL))
UNSTAGE = tuple(Unstage(d) for d in range(DICE_PER_ROLL))
ADJUST = {delta: tuple(Adjust(d, delta) for d in range(DICE_PER_ROLL)) for delta in DELTAS}
RUIN_ON = tuple(Ruin(c) for c in range(CELLS))
ROLL = Roll()
CONFIRM = Confirm()


def unstages(order: tuple[int, ...], minimum: int) -> tuple[Action, ...]:
    """Returning each staged die, in staging order; then KUMPIRMAHIN once the ``minimum`` is
    staged (nothing when no die is)."""
    try:
        return UNSTAGES[minimum][order]
    except KeyError:  # a state made by hand, with an order no game makes
        return _unstages(order, len(order) >= minimum) if order else ()


@cache
def _unstages(order: tuple[int, ...], confirm: bool) -> tuple[Action, ...]:
    return (*(UNSTAGE[d] for d in order), *((CONFIRM,) if confirm else ()))


def _unstages_table(minimum: int) -> dict[tuple[int, ...], tuple[Action, ...]]:
    table: dict[tuple[int, ...], tuple[Action, ...]] = {(): ()}
    for length in range(1, DICE_PER_ROLL + 1):
        for order in permutations(range(DICE_PER_ROLL), length):
            table[order] = _unstages(order, length >= minimum)
    return table


#: :func:`unstages` by the turn's minimum (0 to the dice of a roll), then by the staged dice in
#: staging order, for the orders a game makes.
UNSTAGES = {minimum: _unstages_table(minimum) for minimum in range(DICE_PER_ROLL + 1)}


@cache
def powers(tray: tuple[int, ...], dice: tuple[int, ...]) -> tuple[Action, ...]:
    """Every Power use on the tray dice: BAWAS −1 / DAGDAG +1 by die, then every reroll."""
    adjusts = [ADJUST[delta][die] for die in tray for delta in _DELTAS_OF[dice[die]]]
    return (*adjusts, *rerolls(tray))


#: For each die value, the changes BAWAS −1 / DAGDAG +1 may make to it.
_DELTAS_OF = tuple(
    tuple(delta for delta in DELTAS if adjusted(value, delta) is not None) for value in range(7)
)


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


_RUINS_LO = tuple(tuple(RUIN_ON[cell] for cell in iter_cells(byte)) for byte in range(256))
_RUINS_HI = tuple(tuple(RUIN_ON[cell] for cell in iter_cells(byte << 8)) for byte in range(256))


def _stage_table(die: int, shift: int) -> tuple[tuple[Stage, ...], ...]:
    stage = STAGE[die]
    return tuple(tuple(stage[cell] for cell in iter_cells(byte << shift)) for byte in range(256))


#: The stages of each die onto the cells of one byte of a bitboard (cells 0–7, then 8–15).
STAGES_LO = tuple(_stage_table(die, 0) for die in range(DICE_PER_ROLL))
STAGES_HI = tuple(_stage_table(die, 8) for die in range(DICE_PER_ROLL))


def stages(masks: tuple[int, ...]) -> tuple[Stage, ...]:
    """The stage actions of each die (by id) onto its cells (``masks[die]``, a bitboard).
    ``GameState.legal_actions`` has it written out for a roll of four dice."""
    out: tuple[Stage, ...] = ()
    for die, mask in enumerate(masks):
        if mask:
            out += STAGES_LO[die][mask & 0xFF] + STAGES_HI[die][mask >> 8]
    return out


NONE: tuple[Action, ...] = ()
ONLY_ROLL: tuple[Action, ...] = (ROLL,)
