"""The difficulties and the game's fixed numbers (SPEC "Difficulty", "MAGDAGDON and RUINs")."""

from __future__ import annotations

import enum


class Difficulty(enum.Enum):
    """A difficulty: its base minimum per turn and the penalties of its Majda Powers, in order.

    The numbers are plain attributes of each member, set below (an enum property or a dict keyed
    by the member costs a Python-level call on every look-up in the engine's hot paths).

    >>> Difficulty("nightmare").base_minimum, Difficulty.PEACEFUL.penalties
    (3, (10, 20, 40))
    """

    base_minimum: int
    penalties: tuple[int, ...]  # the penalty of the 1st, 2nd, … Power use
    power_uses: int

    PEACEFUL = "peaceful"
    SURVIVAL = "survival"
    NIGHTMARE = "nightmare"


def _settle(difficulty: Difficulty, base_minimum: int, penalties: tuple[int, ...]) -> None:
    difficulty.base_minimum = base_minimum
    difficulty.penalties = penalties
    difficulty.power_uses = len(penalties)


_settle(Difficulty.PEACEFUL, 2, (10, 20, 40))
_settle(Difficulty.SURVIVAL, 2, (70,))
_settle(Difficulty.NIGHTMARE, 3, ())

DICE_PER_ROLL = 4
RUIN_PENALTY = 15
