"""The game's fixed numbers and its small rules, each stated once (docs/rules.md "Valid placement",
"Difficulty", "Majda Powers", "MAGDAGDON and RUINs"). The board, the search, the state and the
bots all ask these.
"""

from __future__ import annotations

import enum

DICE_PER_ROLL = 4
RUIN_PENALTY = 15
#: Every seed is below this: exact in JavaScript and in any JSON number.
SEED_LIMIT = 2**53
#: The numbers a die shows.
VALUES = range(1, 7)
#: The changes BAWAS −1 and DAGDAG +1 make to a die.
DELTAS = (-1, 1)


def may_touch(a: int, b: int) -> bool:
    """Whether the numbers ``a`` and ``b`` may stand on neighbouring cells: they differ by at
    most 1 (equal is fine).

    >>> may_touch(3, 4), may_touch(4, 4), may_touch(2, 4)
    (True, True, False)
    """
    return -1 <= a - b <= 1


def adjusted(value: int, delta: int) -> int | None:
    """A die's value after BAWAS −1 (``delta`` −1) or DAGDAG +1 (``delta`` 1), or None when the
    change is refused: a value never goes below 1 or above 6.

    >>> adjusted(3, -1), adjusted(6, 1)
    (2, None)
    """
    value += delta
    return value if 1 <= value <= 6 else None


def min_required(base_minimum: int, empty_cells: int) -> int:
    """The turn's minimum: the difficulty's base minimum, lowered to the number of empty cells
    when fewer remain (docs/rules.md "A turn", 3).

    >>> min_required(3, 16), min_required(3, 2)
    (3, 2)
    """
    return min(base_minimum, empty_cells)


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

    def penalty_after(self, used: int) -> int | None:
        """What the next Power use costs once ``used`` uses are made; None when none is left.

        >>> Difficulty.PEACEFUL.penalty_after(1), Difficulty.SURVIVAL.penalty_after(1)
        (20, None)
        """
        return self.penalties[used] if used < self.power_uses else None


def _settle(difficulty: Difficulty, base_minimum: int, penalties: tuple[int, ...]) -> None:
    difficulty.base_minimum = base_minimum
    difficulty.penalties = penalties
    difficulty.power_uses = len(penalties)


_settle(Difficulty.PEACEFUL, 2, (10, 20, 40))
_settle(Difficulty.SURVIVAL, 2, (70,))
_settle(Difficulty.NIGHTMARE, 3, ())
