"""The speed layer under the game state: the current roll, shared by its states, with the
positions of its dice met so far.

``state.py`` says what each action may do and what it leads to; what is here (with the few
written-out fast paths marked in ``state.py``) makes the states it leads to cheap to build and to
ask, and decides nothing:

- A :class:`CurrentRoll` holds what every state of one roll shares: the board the roll is played
  on and its frame (``board.Frame``), the dice, the counts. A state adds only what is staged, and
  the frame of the board with its staged dice, so a stage or a return sets a handful of fields.
- A roll keeps the positions of its dice met so far (``CurrentRoll.positions``, by staged cells
  and staging order): staging and returning dice often lead back to a position seen before, which
  is then answered as it is, its valid cells and legal actions already worked out. The table
  refers to its states as they refer to the roll, so the roll lets go of it when it ends, as the
  next roll is made (:meth:`CurrentRoll.successor`): CPython then frees its states at once
  rather than by the garbage collector.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from magdagdon.engine.board import Board, Frame
    from magdagdon.engine.rules import Difficulty
    from magdagdon.engine.state import GameState

#: A position of a roll's dice: where each die is (``OFF`` in the tray), and the staging order.
Key = tuple[tuple[int, ...], tuple[int, ...]]


@dataclass(slots=True, kw_only=True, eq=False, repr=False)
class CurrentRoll:
    """What the states of one roll share: the game's difficulty and seed, the dice drawn so far,
    the turn, the permanent board and its frame, the dice of the roll (none in phase ``roll``),
    the Powers used and the turn's minimum; and the positions met (``None`` until the first die
    is staged or returned).

    A new one comes with every ROLL, KUMPIRMAHIN, RUIN and Power (each changes the board or the
    dice): the move makes it by :meth:`successor` and sets what changes, before any state shares
    it. After that it does not change, but for its table of positions.
    """

    difficulty: Difficulty
    seed: int
    draws: int
    turn: int
    board: Board
    frame: Frame
    dice: tuple[int, ...]
    powers_used: int
    min_required: int
    positions: dict[Key, GameState] | None = field(default=None, init=False)

    def successor(self) -> CurrentRoll:
        """The roll that comes after this one, with the same facts, for the move that makes it to
        change before any state shares it. This roll has ended: it lets go of the positions it
        met (they and its states refer to each other, so holding on would leave them to the
        garbage collector). Its states can still be played on; a position is then made anew."""
        self.positions = None
        # Field by field, not ``CurrentRoll(difficulty=…, …)``: every roll makes one, and the
        # call with nine keywords cost a random game 3 % more instructions (callgrind), the
        # random placer's 7 %.
        new = object.__new__(CurrentRoll)
        new.difficulty = self.difficulty
        new.seed = self.seed
        new.draws = self.draws
        new.turn = self.turn
        new.board = self.board
        new.frame = self.frame
        new.dice = self.dice
        new.powers_used = self.powers_used
        new.min_required = self.min_required
        new.positions = None
        return new
