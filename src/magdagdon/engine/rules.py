"""The difficulties and the game's fixed numbers (SPEC "Difficulty", "MAGDAGDON and RUINs")."""

from __future__ import annotations

import enum


class Difficulty(enum.Enum):
    """A difficulty: its base minimum per turn and the penalties of its Majda Powers, in order."""

    PEACEFUL = "peaceful"
    SURVIVAL = "survival"
    NIGHTMARE = "nightmare"

    @property
    def base_minimum(self) -> int:
        return _BASE_MINIMUM[self]

    @property
    def penalties(self) -> tuple[int, ...]:
        """The penalty of the 1st, 2nd, … Power use; its length is the number of uses."""
        return _PENALTIES[self]

    @property
    def power_uses(self) -> int:
        return len(self.penalties)


_BASE_MINIMUM = {Difficulty.PEACEFUL: 2, Difficulty.SURVIVAL: 2, Difficulty.NIGHTMARE: 3}
_PENALTIES: dict[Difficulty, tuple[int, ...]] = {
    Difficulty.PEACEFUL: (10, 20, 40),
    Difficulty.SURVIVAL: (70,),
    Difficulty.NIGHTMARE: (),
}

DICE_PER_ROLL = 4
RUIN_PENALTY = 15
