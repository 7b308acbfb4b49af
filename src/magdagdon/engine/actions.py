"""The player's actions, as small immutable values (docs/rules.md "A turn", "Majda Powers")."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Roll:
    """I-ROLL: roll four dice and start a turn."""


@dataclass(frozen=True, slots=True)
class Stage:
    """Put tray die ``die`` on ``cell`` (0–15)."""

    die: int
    cell: int


@dataclass(frozen=True, slots=True)
class Unstage:
    """Return staged die ``die`` to the tray, with the cascade."""

    die: int


@dataclass(frozen=True, slots=True)
class Confirm:
    """KUMPIRMAHIN: make the staged numbers permanent."""


@dataclass(frozen=True, slots=True)
class Adjust:
    """BAWAS −1 (``delta=-1``) or DAGDAG +1 (``delta=1``) on tray die ``die``."""

    die: int
    delta: int


@dataclass(frozen=True, slots=True)
class Reroll:
    """I-ROLL ULIT: reroll the chosen tray dice together.

    The choice is a set: the ids are kept in ascending order, so that
    ``Reroll((2, 0)) == Reroll((0, 2))``, and the new values go to the chosen dice in that order.
    """

    dice: tuple[int, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "dice", tuple(sorted(self.dice)))


@dataclass(frozen=True, slots=True)
class Ruin:
    """Accept MAGDAGDON: the empty ``cell`` becomes a RUIN."""

    cell: int


Action = Roll | Stage | Unstage | Confirm | Adjust | Reroll | Ruin
