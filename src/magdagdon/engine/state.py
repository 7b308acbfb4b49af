"""The state of a game and the rules of every action (docs/rules.md "A turn" to "End of the game").

A :class:`GameState` is immutable: :meth:`GameState.apply` checks an action and answers a new
state, or raises an :class:`~magdagdon.engine.errors.IllegalActionError` and changes nothing.

This module says what each action may do and what it leads to. What makes it fast is kept apart
and named: the roll that the states between two changes of the dice share, with the positions of
its dice met so far (``positions.py``); at the end of this module, the one place states are
made (:func:`_state`) and the dice's valid cells read off the frame (``_valid_masks``); and the
fast paths of the two moves a game makes most, at the start of :meth:`GameState.apply`.
"""

from __future__ import annotations

import enum
from functools import cache
from operator import attrgetter
from typing import TYPE_CHECKING

from magdagdon.engine import errors, legal, rules
from magdagdon.engine.actions import Action, Adjust, Confirm, Reroll, Roll, Ruin, Stage, Unstage
from magdagdon.engine.board import (
    CELLS,
    EMPTY_BOARD,
    FRAME_BAD,
    FRAME_TAKEN,
    FULL,
    PLACE_BITS,
    PLACE_TEST,
    Board,
    Frame,
    empty_of,
    frame_empty,
    frame_of,
    frame_place,
    frame_ruin,
    iter_cells,
    to_codes,
    with_ruin,
)
from magdagdon.engine.dice import draw, roll_chances
from magdagdon.engine.positions import CurrentRoll, Key
from magdagdon.engine.rules import DICE_PER_ROLL, VALUES, Difficulty
from magdagdon.engine.scoring import Score, score_codes
from magdagdon.engine.search import can_place_frame, roll_masks


class Phase(enum.Enum):
    ROLL = "roll"
    PLACE = "place"
    MAGDAGDON = "magdagdon"
    OVER = "over"


OFF = -1  # the cell of a die that is in the tray

# The phases as plain names: reading an enum member off its class is a Python-level call in 3.11.
ROLL, PLACE, MAGDAGDON, OVER = Phase.ROLL, Phase.PLACE, Phase.MAGDAGDON, Phase.OVER

_FIELDS = (
    "difficulty",
    "seed",
    "draws",
    "phase",
    "turn",
    "board",
    "dice",
    "staged",
    "order",
    "powers_used",
    "min_required",
)

#: A state's fields as one tuple, read in C: what it equals and hashes by (the bots' memos key
#: on states, a review tens of thousands of times).
_identity = attrgetter(*_FIELDS)

_ALL_OFF = (OFF,) * DICE_PER_ROLL
# What the fast paths read of ``legal``, by plain names (a module's attribute costs a look-up).
_STAGE, _UNSTAGES, _powers = legal.STAGE, legal.UNSTAGES, legal.powers
#: By die: its stages onto the cells of each byte (cells 0–7, then 8–15) of a bitboard.
_STAGES_LO0, _STAGES_LO1, _STAGES_LO2, _STAGES_LO3 = legal.STAGES_LO
_STAGES_HI0, _STAGES_HI1, _STAGES_HI2, _STAGES_HI3 = legal.STAGES_HI


@cache
def _tray_of(staged: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(d for d, cell in enumerate(staged) if cell < 0)


class GameState:
    """One moment of a game: the permanent board, the roll, what is staged, the Powers used."""

    __slots__ = ("_frame", "_legal", "_masks", "_parent", "_roll", "order", "phase", "staged")

    phase: Phase
    #: Per die of the roll: the cell it is staged on, or ``OFF`` in the tray.
    staged: tuple[int, ...]
    #: The staged dice, in the order they were staged.
    order: tuple[int, ...]
    #: What every state of this roll shares (the board, the dice, the counts; see ``positions``).
    _roll: CurrentRoll
    #: The frame (``board.Frame``) of the board with the staged dice on it.
    _frame: Frame
    #: Per die: the cells it may be staged on now (0 for a staged die), once asked.
    _masks: tuple[int, ...] | None
    #: The legal actions, once asked.
    _legal: tuple[Action, ...] | None
    #: The state this one was staged from, when a stage made it: returning the die staged last
    #: leads back to it.
    _parent: GameState | None

    # The roll's facts, read through to the roll the state shares (``attrgetter`` reads a dotted
    # name in C, faster than a property written in Python).
    if TYPE_CHECKING:
        difficulty: Difficulty
        seed: int
        #: How many dice of the game's stream have been drawn.
        draws: int
        #: The number of ROLLs so far.
        turn: int
        #: The permanent board (see ``board``); ``live`` has the staged dice on it too.
        board: Board
        #: The values of the roll's dice, by die (none in phase ``roll``).
        dice: tuple[int, ...]
        powers_used: int
        #: The turn's minimum (docs/rules.md "A turn", 3).
        min_required: int
    else:
        difficulty = property(attrgetter("_roll.difficulty"))
        seed = property(attrgetter("_roll.seed"))
        draws = property(attrgetter("_roll.draws"))
        turn = property(attrgetter("_roll.turn"))
        board = property(attrgetter("_roll.board"))
        dice = property(attrgetter("_roll.dice"))
        powers_used = property(attrgetter("_roll.powers_used"))
        min_required = property(attrgetter("_roll.min_required"))

    def __init__(
        self,
        difficulty: Difficulty,
        seed: int,
        *,
        draws: int = 0,
        phase: Phase = ROLL,
        turn: int = 0,
        board: Board = EMPTY_BOARD,
        dice: tuple[int, ...] = (),
        staged: tuple[int, ...] = (),
        order: tuple[int, ...] = (),
        powers_used: int = 0,
        min_required: int | None = None,
    ) -> None:
        frame = frame_of(board)
        if min_required is None:
            min_required = rules.min_required(
                difficulty.base_minimum, frame_empty(frame).bit_count()
            )
        roll = CurrentRoll(
            difficulty=difficulty,
            seed=seed,
            draws=draws,
            turn=turn,
            board=board,
            frame=frame,
            dice=dice,
            powers_used=powers_used,
            min_required=min_required,
        )
        for die in order:
            frame = frame_place(frame, staged[die], dice[die])
        self._roll, self.phase, self.staged, self.order = roll, phase, staged, order
        self._frame, self._masks, self._legal, self._parent = frame, None, None, None

    @classmethod
    def new(cls, difficulty: Difficulty, seed: int) -> GameState:
        """A new game: an empty board, waiting for the first ROLL."""
        return cls(difficulty, seed)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, GameState):
            return NotImplemented
        return bool(_identity(self) == _identity(other))

    def __hash__(self) -> int:
        return hash(_identity(self))

    def __repr__(self) -> str:
        return (
            f"<GameState {self.difficulty.value} turn={self.turn} phase={self.phase.value} "
            f"dice={self.dice} staged={self.staged}>"
        )

    # ----- what the state shows -------------------------------------------------------------

    @property
    def live(self) -> Board:
        """The board with the staged dice on it."""
        roll = self._roll
        board = list(roll.board)
        staged, dice = self.staged, roll.dice
        for die in self.order:
            board[dice[die]] |= 1 << staged[die]
        return (board[0], board[1], board[2], board[3], board[4], board[5], board[6])

    @property
    def tray(self) -> tuple[int, ...]:
        """The ids of the dice of the roll that are not staged."""
        return _tray_of(self.staged)

    @property
    def powers_left(self) -> int:
        return self.difficulty.power_uses - self.powers_used

    @property
    def power_penalty(self) -> int:
        """The points the Powers used so far cost."""
        return sum(self.difficulty.penalties[: self.powers_used])

    @property
    def next_penalty(self) -> int | None:
        """What the next Power use would cost, or None when no use is left."""
        return self.difficulty.penalty_after(self.powers_used)

    @property
    def can_confirm(self) -> bool:
        return self.phase is PLACE and len(self.order) >= self._roll.min_required

    @property
    def stuck(self) -> bool:
        """The roll can place the minimum, but not from what is staged now (docs/rules.md)."""
        # In phase place the roll can place the minimum on the permanent board (else it would be
        # MAGDAGDON), so with nothing staged the player is never stuck.
        if self.phase is not PLACE or not self.order:
            return False
        need = self._roll.min_required - len(self.order)
        if need <= 0:
            return False
        if need == 1:
            return not any(self._masks or self._valid_masks())
        dice = self._roll.dice
        tray_values = tuple([dice[d] for d in _tray_of(self.staged)])
        return not can_place_frame(self._frame, tray_values, need)

    def valid_cells(self) -> dict[int, list[int]]:
        """For every tray die in phase ``place``, the cells it may be staged on now."""
        if self.phase is not PLACE:
            return {}
        masks = self._masks or self._valid_masks()
        return {d: iter_cells(masks[d]) for d in self.tray}

    def empty_cells(self) -> list[int]:
        """The cells empty of permanent content (the cells a RUIN may go on)."""
        return iter_cells(empty_of(self._roll.board))

    def codes(self) -> list[int]:
        """The permanent board as 16 cell codes: 0 empty, 1–6 a number, 7 a RUIN."""
        return to_codes(self._roll.board)

    def score(self) -> Score:
        """The score of the permanent board; in phase ``over``, the final score."""
        return score_codes(self.codes(), self.power_penalty)

    @property
    def is_over(self) -> bool:
        return self.phase is OVER

    def legal_actions(self) -> tuple[Action, ...]:
        """Every action :meth:`apply` accepts now, in a fixed order (see ``legal``)."""
        found = self._legal
        if found is not None:
            return found
        phase = self.phase
        roll = self._roll
        if phase is PLACE:
            try:  # legal.unstages, read off its table
                found = _UNSTAGES[roll.min_required][self.order]
            except KeyError:
                found = legal.unstages(self.order, roll.min_required)
            masks = self._masks or self._valid_masks()
            try:
                m0, m1, m2, m3 = masks
            except ValueError:  # not a roll of four dice
                found = legal.stages(masks) + found
            else:  # legal.stages, written out for the four dice of nearly every position
                found = (
                    _STAGES_LO0[m0 & 0xFF]
                    + _STAGES_HI0[m0 >> 8]
                    + _STAGES_LO1[m1 & 0xFF]
                    + _STAGES_HI1[m1 >> 8]
                    + _STAGES_LO2[m2 & 0xFF]
                    + _STAGES_HI2[m2 >> 8]
                    + _STAGES_LO3[m3 & 0xFF]
                    + _STAGES_HI3[m3 >> 8]
                    + found
                )
            if roll.powers_used < roll.difficulty.power_uses:
                found += _powers(_tray_of(self.staged), roll.dice)
        elif phase is MAGDAGDON:  # the Powers, then a RUIN on any empty cell
            found = legal.ruins(frame_empty(roll.frame))
            if roll.powers_used < roll.difficulty.power_uses:
                found = _powers(_tray_of(self.staged), roll.dice) + found
        else:
            return legal.ONLY_ROLL if phase is ROLL else legal.NONE
        self._legal = found
        return found

    def stage_actions(self) -> tuple[Action, ...]:
        """Only the stage actions of :meth:`legal_actions` (the start of it)."""
        if self.phase is not PLACE:
            return ()
        return legal.stages(self._masks or self._valid_masks())

    def chance_outcomes(self) -> tuple[tuple[tuple[int, ...], float], ...]:
        """In phase ``roll``: every distinct roll (sorted values) with its exact probability."""
        if self.phase is not ROLL:
            return ()
        return roll_chances(DICE_PER_ROLL)

    # ----- actions ----------------------------------------------------------------------------

    def apply(self, action: Action) -> GameState:
        """The state after ``action``, the dice drawn from this game's seeded stream."""
        kind = action.__class__  # read faster than type() is called
        if kind is Stage:
            # The fast path of the move a game makes most. A stage that legal_actions() handed
            # out (one of legal.STAGE) has its die and cell in range, so one test is left: that
            # the cell is among the die's valid cells now (a staged die has none). Any other
            # stage takes every check in _stage, which then comes back here.
            die, cell = action.die, action.cell  # type: ignore[union-attr]
            try:
                valid = (
                    _STAGE[die][cell] is action
                    and self.phase is PLACE
                    and (self._masks or self._valid_masks())[die] >> cell & 1
                )
            except (IndexError, TypeError):
                valid = False
            if not valid:
                return self._stage(die, cell)
            as_list = list(self.staged)
            as_list[die] = cell
            order = self.order + (die,)  # noqa: RUF005 (cheaper than unpacking the tuple)
            frame = self._frame | PLACE_BITS[cell << 3 | self._roll.dice[die]]  # frame_place
            # A position of the roll, come to from this state, which it was staged from.
            return _state(self._roll, PLACE, tuple(as_list), order, frame, self, self)
        if kind is Unstage:  # the fast path of the die staged last, returned
            parent = self._parent
            die = action.die  # type: ignore[union-attr]
            if parent is not None and die == self.order[-1] and die.__class__ is int:
                return parent  # the die staged last, returned: the state it was staged from
            return self._unstage(die)
        # The other actions (and any subclass of an action), by how often a game makes them.
        if isinstance(action, Roll):
            if self.phase is not ROLL:
                self._require(ROLL)
            roll = self._roll
            return self._rolled(draw(roll.seed, roll.draws, DICE_PER_ROLL))
        if isinstance(action, Confirm):
            return self._confirm()
        if isinstance(action, Ruin):
            return self._ruin(action.cell)
        if isinstance(action, Adjust):
            return self._adjust(action.die, action.delta)
        if isinstance(action, Reroll):
            return self._reroll(action.dice)
        if isinstance(action, Stage):
            return self._stage(action.die, action.cell)
        if isinstance(action, Unstage):
            return self._unstage(action.die)
        raise errors.MalformedError(f"not an action: {action!r}")

    def roll_with(self, values: tuple[int, ...]) -> GameState:
        """The state after a ROLL that gave ``values`` (a chance outcome, for search and tests)."""
        self._require(ROLL)
        if len(values) != DICE_PER_ROLL or not all(v in VALUES for v in values):
            raise errors.MalformedError(f"a roll is four values 1–6, not {values!r}")
        return self._rolled(tuple(values))

    def reroll_with(self, dice: tuple[int, ...], values: tuple[int, ...]) -> GameState:
        """The state after I-ROLL ULIT of ``dice`` gave ``values`` (a chance outcome)."""
        chosen = self._check_reroll(dice)
        if len(values) != len(chosen) or not all(v in VALUES for v in values):
            raise errors.MalformedError(f"one value 1–6 for each rerolled die, not {values!r}")
        return self._after_power(chosen, values, len(chosen))

    def _rolled(self, values: tuple[int, ...]) -> GameState:
        """docs/rules.md "A turn", 1 and "MAGDAGDON": a new turn, checked at once for a
        MAGDAGDON."""
        roll = self._roll.successor()  # the same board: the same minimum
        roll.draws += DICE_PER_ROLL
        roll.turn += 1
        roll.dice = values
        frame, min_required = roll.frame, roll.min_required
        near = frame & FULL  # the cells next to a number (board.Frame)
        if near and min_required <= 3:
            # Every turn after the first: the check hands over the dice's valid cells too.
            masks = roll_masks(frame, near, values, min_required)
            phase = MAGDAGDON if masks is None else PLACE
        else:
            masks = None
            phase = PLACE if can_place_frame(frame, values, min_required) else MAGDAGDON
        return _state(roll, phase, _ALL_OFF, (), frame, masks=masks)

    def _require(self, *phases: Phase) -> None:
        if self.phase in phases:
            return
        if self.phase is OVER:
            raise errors.GameOverError("the game is over")
        allowed = " or ".join(p.value for p in phases)
        raise errors.WrongPhaseError(f"this action needs phase {allowed}, not {self.phase.value}")

    def _die(self, die: int) -> int:
        if type(die) is not int or not 0 <= die < len(self._roll.dice):
            raise errors.UnknownDieError(f"there is no die {die!r} in this roll")
        return die

    def _tray_die(self, die: int) -> int:
        if self.staged[self._die(die)] != OFF:
            raise errors.DieStagedError(f"die {die} is on the board; return it to the tray first")
        return die

    def _stage(self, die: int, cell: int) -> GameState:
        """docs/rules.md "A turn", 2: a tray die is staged on a cell that is valid for it now.
        Every check,
        in the order that picks the error to report; then the game's own stage of ``apply``."""
        if self.phase is not PLACE:
            self._require(PLACE)
        self._tray_die(die)
        if type(cell) is not int or not 0 <= cell < CELLS:
            raise errors.InvalidCellError(f"there is no cell {cell!r}")
        if not (self._masks or self._valid_masks())[die] >> cell & 1:
            raise errors.InvalidCellError(
                f"a {self.dice[die]} may not be placed on row {cell // 4}, column {cell % 4}"
            )
        return self.apply(legal.STAGE[die][cell])

    def _unstage(self, die: int) -> GameState:
        """docs/rules.md "A turn", 5: a staged die returns to the tray. The others are checked
        again in
        the order they were staged, as if it had never been placed; each that is no longer valid
        returns too."""
        if self.phase is not PLACE:
            self._require(PLACE)
        if self.staged[self._die(die)] == OFF:
            raise errors.DieNotStagedError(f"die {die} is not on the board")
        roll = self._roll
        frame = roll.frame
        staged = list(_ALL_OFF)
        kept = []
        for d in self.order:
            if d == die:
                continue
            cell, value = self.staged[d], roll.dice[d]
            index = cell << 3 | value
            # board.frame_valid(frame, value) >> cell & 1, for the one cell:
            if frame & FULL:  # a number beside the cell, none beside it too far, the cell free
                valid = frame & PLACE_TEST[index] == 1 << cell
            else:  # no number yet: any empty cell
                valid = not frame >> (FRAME_TAKEN + cell) & 1
            if valid:
                frame |= PLACE_BITS[index]  # board.frame_place
                staged[d] = cell
                kept.append(d)
        return _state(roll, PLACE, tuple(staged), tuple(kept), frame, self)  # come to from here

    def _confirm(self) -> GameState:
        if self.phase is not PLACE:
            self._require(PLACE)
        if len(self.order) < self._roll.min_required:
            raise errors.BelowMinimumError(
                f"place at least {self.min_required} dice before KUMPIRMAHIN "
                f"({len(self.order)} placed)"
            )
        return self._end_turn(self.live, self._frame)

    def _ruin(self, cell: int) -> GameState:
        if self.phase is not MAGDAGDON:
            self._require(MAGDAGDON)
        if not isinstance(cell, int) or not 0 <= cell < CELLS:
            raise errors.InvalidCellError(f"there is no cell {cell!r}")
        frame = self._roll.frame
        if not frame_empty(frame) >> cell & 1:
            raise errors.InvalidCellError(
                f"row {cell // 4}, column {cell % 4} is not empty; a RUIN needs an empty cell"
            )
        return self._end_turn(with_ruin(self.board, cell), frame_ruin(frame, cell))

    def _end_turn(self, board: Board, frame: Frame) -> GameState:
        """KUMPIRMAHIN or a RUIN: ``board`` is the permanent board now; the next ROLL is due,
        unless the board is full (docs/rules.md "End of the game")."""
        roll = self._roll.successor()
        roll.board = board
        roll.frame = frame
        roll.dice = ()
        empty = (FULL ^ frame >> FRAME_TAKEN).bit_count()  # board.frame_empty
        roll.min_required = rules.min_required(roll.difficulty.base_minimum, empty)
        return _state(roll, ROLL if empty else OVER, (), (), frame)

    def _use_power(self) -> None:
        if self.phase is not PLACE and self.phase is not MAGDAGDON:
            self._require(PLACE, MAGDAGDON)
        roll = self._roll
        if roll.powers_used >= roll.difficulty.power_uses:
            raise errors.NoPowersLeftError(
                f"no Majda Power left ({self.difficulty.power_uses} on "
                f"{self.difficulty.value.upper()})"
            )

    def _adjust(self, die: int, delta: int) -> GameState:
        self._use_power()
        self._tray_die(die)
        if delta not in rules.DELTAS:
            raise errors.InvalidDeltaError(f"a die changes by +1 or -1, not {delta!r}")
        value = rules.adjusted(self._roll.dice[die], delta)
        if value is None:
            raise errors.ValueOutOfRangeError(
                f"die {die} shows {self.dice[die]}; "
                f"it cannot go {'below 1' if delta < 0 else 'above 6'}"
            )
        return self._after_power((die,), (value,), 0)

    def _reroll(self, chosen: tuple[int, ...]) -> GameState:
        dice = self._check_reroll(chosen)
        roll = self._roll
        return self._after_power(dice, draw(roll.seed, roll.draws, len(dice)), len(dice))

    def _check_reroll(self, dice: tuple[int, ...]) -> tuple[int, ...]:
        self._use_power()
        if not dice:
            raise errors.NoDiceChosenError("choose at least one tray die to reroll")
        if len(set(dice)) != len(dice):
            raise errors.DuplicateDieError("each die can be chosen once")
        for die in dice:
            self._tray_die(die)
        return tuple(sorted(dice))

    def _after_power(self, dice: tuple[int, ...], values: tuple[int, ...], drawn: int) -> GameState:
        """docs/rules.md "Majda Powers": ``dice`` now show ``values`` (``drawn`` dice drawn for
        them); the
        roll is checked again for a MAGDAGDON, which returns the staged dice to the tray."""
        roll = self._roll.successor()
        new = list(roll.dice)
        for die, value in zip(dice, values, strict=True):
            new[die] = value
        roll.dice = tuple(new)
        roll.draws += drawn
        roll.powers_used += 1
        if can_place_frame(roll.frame, roll.dice, roll.min_required):
            return _state(roll, PLACE, self.staged, self.order, self._frame)
        return _state(roll, MAGDAGDON, _ALL_OFF, (), roll.frame)

    # ----- the speed layer: what every state is asked ------------------------------------------

    def _valid_masks(self) -> tuple[int, ...]:
        """Per die: the cells it may be staged on now (``board.frame_valid`` of its value; 0 for
        a staged die), worked out once. Nearly every position a game passes through asks this,
        so for a roll of four dice it is written out, the frame's fields read once."""
        frame, staged, dice = self._frame, self.staged, self._roll.dice
        near = frame & FULL
        if not near:  # no number yet: every empty cell
            empty = FULL ^ frame >> FRAME_TAKEN
            masks = self._masks = tuple([0 if cell >= 0 else empty for cell in staged])
            return masks
        free = near & ~(frame >> FRAME_TAKEN)
        # free & ~bad, as free ^ (free & bad): ``~`` on the (long) frame would build a negative
        # long, slower to make and to AND than a positive one.
        try:
            s0, s1, s2, s3 = staged
            v0, v1, v2, v3 = dice
        except ValueError:  # not a roll of four dice
            masks = tuple(
                [
                    0 if cell >= 0 else free ^ free & frame >> FRAME_BAD[value]
                    for cell, value in zip(staged, dice, strict=True)
                ]
            )
        else:
            masks = (
                0 if s0 >= 0 else free ^ free & frame >> FRAME_BAD[v0],
                0 if s1 >= 0 else free ^ free & frame >> FRAME_BAD[v1],
                0 if s2 >= 0 else free ^ free & frame >> FRAME_BAD[v2],
                0 if s3 >= 0 else free ^ free & frame >> FRAME_BAD[v3],
            )
        self._masks = masks
        return masks


# ----- the speed layer: how states are made -------------------------------------------------


def _state(
    roll: CurrentRoll,
    phase: Phase,
    staged: tuple[int, ...],
    order: tuple[int, ...],
    frame: Frame,
    came_from: GameState | None = None,
    parent: GameState | None = None,
    masks: tuple[int, ...] | None = None,
) -> GameState:
    """A state of ``roll`` with ``staged`` dice in ``order`` on the board of ``frame``: every move
    makes its state here, each field set once. ``parent``: the state it was staged from;
    ``masks``: the dice's valid cells, when known (else worked out when first asked).

    A state come to by staging or returning a die (``came_from``: the state before) is a position
    of the roll: the one met before is answered when there is one, and a new one is kept in the
    roll's table (see ``positions``). The moves a game makes most call this, so it takes its
    arguments by position: a call by keyword takes CPython 3.11 a slower path.
    """
    if came_from is not None:
        key: Key = (staged, order)
        table = roll.positions
        if table is None:
            table = roll.positions = {(came_from.staged, came_from.order): came_from}
        else:
            found = table.get(key)
            if found is not None:
                return found
    new = object.__new__(GameState)
    new._roll = roll
    new.phase = phase
    new.staged = staged
    new.order = order
    new._frame = frame
    new._masks = masks
    new._legal = None
    new._parent = parent
    if came_from is not None:
        table[key] = new  # type: ignore[index]  # (made above, with the key)
    return new
