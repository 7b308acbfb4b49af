"""The state of a game and the rules of every action (SPEC "A turn" to "End of the game").

A :class:`GameState` is immutable: :meth:`GameState.apply` checks an action and answers a new
state, or raises an :class:`~magdagdon.engine.errors.IllegalActionError` and changes nothing.
Copies are cheap, as every field is an int or a small tuple of ints.
"""

from __future__ import annotations

import enum
from functools import cache

from magdagdon.engine import errors, legal
from magdagdon.engine.actions import Action, Adjust, Confirm, Reroll, Roll, Ruin, Stage, Unstage
from magdagdon.engine.board import (
    CELLS,
    EMPTY_BOARD,
    FRAME_FIELD,
    FRAME_TAKEN,
    FULL,
    PLACE_BITS,
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
from magdagdon.engine.dice import draw, roll_outcomes
from magdagdon.engine.rules import DICE_PER_ROLL, Difficulty
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

_ALL_OFF = (-1,) * DICE_PER_ROLL
#: ``_CHECK_BITS[cell * 8 + value]``: the bits of a frame that say whether ``value`` may go on
#: ``cell`` (``board.frame_valid``), on a board with a number: it may when, of these, the cell's
#: "near" bit alone is set. (On a board with none, any empty cell.)
_CHECK_BITS = tuple(
    1 << cell | 1 << (FRAME_FIELD * value + cell) | 1 << (FRAME_TAKEN + cell)
    for cell in range(CELLS)
    for value in range(8)
)
_UNSTAGES = legal.UNSTAGES_BY_MINIMUM
_L0, _L1, _L2, _L3 = legal.STAGES_LO
_H0, _H1, _H2, _H3 = legal.STAGES_HI
_STAGE = legal.STAGE
#: Where the "bad" field of each value starts in a frame.
_SHIFT = tuple(FRAME_FIELD * value for value in range(7))


@cache
def _tray_of(staged: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(d for d, cell in enumerate(staged) if cell < 0)


class GameState:
    """One moment of a game: the permanent board, the roll, what is staged, the Powers used."""

    __slots__ = (*_FIELDS, "_family", "_frame", "_legal", "_masks", "_parent", "_pframe")

    difficulty: Difficulty
    seed: int
    draws: int
    phase: Phase
    turn: int
    board: Board
    dice: tuple[int, ...]
    staged: tuple[int, ...]
    order: tuple[int, ...]
    powers_used: int
    min_required: int
    #: Per die: the cells it may be staged on now (0 for a staged die); computed when first asked.
    _masks: tuple[int, ...] | None
    #: The legal actions, once asked for.
    _legal: tuple[Action, ...] | None
    #: The states of this roll met so far, by (staged, order): within one roll, staging and
    #: returning dice often lead back to a position already seen, which is then answered as is
    #: (a transposition table; created at the first stage of the roll). It is emptied when the
    #: roll ends (KUMPIRMAHIN, a RUIN, or a Power changes the dice): it refers back to the
    #: states, and emptying it lets them be freed at once rather than by the garbage collector.
    _family: dict[tuple[tuple[int, ...], tuple[int, ...]], GameState] | None
    #: The frames (see ``board.Frame``) of the permanent board and of the board with what is
    #: staged: kept up to date by every action, so a rule check never rebuilds one.
    _pframe: Frame
    _frame: Frame
    #: The state this one was staged from (the same roll without its last staged die), when it
    #: was made by a stage: returning that die answers it as is.
    _parent: GameState | None

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
        self.difficulty = difficulty
        self.seed = seed
        self.draws = draws
        self.phase = phase
        self.turn = turn
        self.board = board
        self.dice = dice
        self.staged = staged
        self.order = order
        self.powers_used = powers_used
        frame = self._pframe = frame_of(board)
        self.min_required = (
            # FULL & ~taken: board.empty_of, read off the frame
            min(difficulty.base_minimum, (FULL & ~(frame >> FRAME_TAKEN)).bit_count())
            if min_required is None
            else min_required
        )
        self._masks = None
        self._legal = None
        self._family = None
        self._parent = None
        for die in order:
            frame = frame_place(frame, staged[die], dice[die])
        self._frame = frame

    @classmethod
    def new(cls, difficulty: Difficulty, seed: int) -> GameState:
        """A new game: an empty board, waiting for the first ROLL."""
        return cls(difficulty, seed)

    def _copy(self) -> GameState:
        """A copy to change before anyone sees it (states are immutable once returned)."""
        return _state(
            self.difficulty, self.seed, self.draws, self.phase, self.turn, self.board, self.dice,
            self.staged, self.order, self.powers_used, self.min_required, None, self._family,
            None, self._frame, self._pframe,
        )  # fmt: skip

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, GameState):
            return NotImplemented
        return all(getattr(self, n) == getattr(other, n) for n in _FIELDS)

    def __hash__(self) -> int:
        return hash(tuple(getattr(self, n) for n in _FIELDS))

    def __repr__(self) -> str:
        return (
            f"<GameState {self.difficulty.value} turn={self.turn} phase={self.phase.value} "
            f"dice={self.dice} staged={self.staged}>"
        )

    def _valid_masks(self) -> tuple[int, ...]:
        """Per die: the cells it may be staged on now (0 for a staged die), computed once.

        The frame's bit fields are read inline (see ``board.frame_valid``): this runs for nearly
        every state a game passes through."""
        masks = self._masks
        if masks is None:
            frame = self._frame
            near = frame & FULL
            staged, dice = self.staged, self.dice
            if near:
                free = near & ~(frame >> FRAME_TAKEN)
                # free & ~bad, as free ^ (free & bad): ``~`` on the (long) frame field would
                # build a negative long, slower to make and to AND than a positive one.
                try:
                    s0, s1, s2, s3 = staged
                    v0, v1, v2, v3 = dice
                except ValueError:  # not a roll of four dice
                    masks = tuple(
                        0 if cell >= 0 else free ^ free & frame >> _SHIFT[value]
                        for cell, value in zip(staged, dice, strict=True)
                    )
                else:
                    masks = (
                        0 if s0 >= 0 else free ^ free & frame >> _SHIFT[v0],
                        0 if s1 >= 0 else free ^ free & frame >> _SHIFT[v1],
                        0 if s2 >= 0 else free ^ free & frame >> _SHIFT[v2],
                        0 if s3 >= 0 else free ^ free & frame >> _SHIFT[v3],
                    )
            else:  # no number yet: every empty cell
                empty = FULL ^ frame >> FRAME_TAKEN
                masks = tuple(0 if cell >= 0 else empty for cell in staged)
            self._masks = masks
        return masks

    @property
    def live(self) -> Board:
        """The board with the staged dice on it."""
        b0, b1, b2, b3, b4, b5, b6 = self.board
        board = [b0, b1, b2, b3, b4, b5, b6]
        staged, dice = self.staged, self.dice
        for die in self.order:
            board[dice[die]] |= 1 << staged[die]
        return (board[0], board[1], board[2], board[3], board[4], board[5], board[6])

    # ----- what the state shows -------------------------------------------------------------

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
        return self.difficulty.penalties[self.powers_used] if self.powers_left else None

    @property
    def can_confirm(self) -> bool:
        return self.phase is PLACE and len(self.order) >= self.min_required

    @property
    def stuck(self) -> bool:
        """The roll can place the minimum, but not from what is staged now (SPEC)."""
        # In phase place the roll can place the minimum on the permanent board (else it would be
        # MAGDAGDON), so with nothing staged the player is never stuck.
        if self.phase is not PLACE or not self.order:
            return False
        need = self.min_required - len(self.order)
        if need <= 0:
            return False
        if need == 1:
            return not any(self._masks or self._valid_masks())
        tray_values = tuple(self.dice[d] for d in self.tray)
        return not can_place_frame(self._frame, tray_values, need)

    def valid_cells(self) -> dict[int, list[int]]:
        """For every tray die in phase ``place``, the cells it may be staged on now."""
        if self.phase is not PLACE:
            return {}
        masks = self._valid_masks()
        return {d: iter_cells(masks[d]) for d in self.tray}

    def empty_cells(self) -> list[int]:
        """The cells empty of permanent content (the cells a RUIN may go on)."""
        return iter_cells(empty_of(self.board))

    def codes(self) -> list[int]:
        """The permanent board as 16 cell codes: 0 empty, 1–6 a number, 7 a RUIN."""
        return to_codes(self.board)

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
        if phase is PLACE:
            order = self.order
            try:
                rest = _UNSTAGES[self.min_required][order]
            except KeyError:  # a state made by hand, with an order no game makes
                rest = legal.unstages(order, len(order) >= self.min_required) if order else ()
            if self.powers_used < self.difficulty.power_uses:
                rest += legal.powers(_tray_of(self.staged), self.dice)
            masks = self._masks or self._valid_masks()
            try:
                m0, m1, m2, m3 = masks
            except ValueError:  # not a roll of four dice
                found = legal.stages(masks) + rest
            else:  # legal.stages, unrolled: this runs for nearly every new position
                found = (
                    _L0[m0 & 0xFF]
                    + _H0[m0 >> 8]
                    + _L1[m1 & 0xFF]
                    + _H1[m1 >> 8]
                    + _L2[m2 & 0xFF]
                    + _H2[m2 >> 8]
                    + _L3[m3 & 0xFF]
                    + _H3[m3 >> 8]
                    + rest
                )
            self._legal = found
            return found
        if phase is ROLL:
            return legal.ONLY_ROLL
        if phase is OVER:
            return legal.NONE
        found = legal.ruins(frame_empty(self._pframe))
        if self.powers_used < self.difficulty.power_uses:
            found = legal.powers(_tray_of(self.staged), self.dice) + found
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
        total = 6**DICE_PER_ROLL
        return tuple((values, ways / total) for values, ways in roll_outcomes(DICE_PER_ROLL))

    # ----- actions ----------------------------------------------------------------------------

    def apply(self, action: Action) -> GameState:
        """The state after ``action``, the dice drawn from this game's seeded stream."""
        kind = type(action)
        if kind is Stage:
            die, cell = action.die, action.cell  # type: ignore[union-attr]
            # A stage the game built (one of legal.STAGE, as legal_actions hands out) has a die
            # and a cell in range, so it needs one test: that the cell is among the die's valid
            # cells (a staged die has none). Any other goes through ``_stage``'s checks.
            if self.phase is PLACE:
                try:
                    valid = (
                        _STAGE[die][cell] is action
                        and (self._masks or self._valid_masks())[die] >> cell & 1
                    )
                except (IndexError, TypeError):
                    valid = 0
                if valid:
                    as_list = list(self.staged)
                    as_list[die] = cell
                    staged = tuple(as_list)
                    order = self.order + (die,)  # noqa: RUF005 (cheaper than (*self.order, die))
                    key = (staged, order)
                    family = self._family
                    if family is None:
                        family = self._family = {(self.staged, self.order): self}
                    else:
                        found = family.get(key)
                        if found is not None:
                            return found
                    frame = self._frame | PLACE_BITS[cell << 3 | self.dice[die]]  # frame_place
                    new = family[key] = _state(
                        self.difficulty, self.seed, self.draws, PLACE, self.turn, self.board,
                        self.dice, staged, order, self.powers_used, self.min_required, None,
                        family, self, frame, self._pframe,
                    )  # fmt: skip
                    return new
            return self._stage(die, cell)
        if kind is Unstage:
            parent = self._parent
            die = action.die  # type: ignore[union-attr]
            if parent is not None and type(die) is int and die == self.order[-1]:
                return parent  # the last die staged, returned: the state it was staged from
            return self._unstage(die)
        if kind is Roll or isinstance(action, Roll):
            if self.phase is not ROLL:
                self._require(ROLL)
            return self._rolled(draw(self.seed, self.draws, DICE_PER_ROLL))
        if isinstance(action, Confirm):
            return self._confirm()
        if isinstance(action, Stage):
            return self._stage(action.die, action.cell)
        if isinstance(action, Unstage):
            return self._unstage(action.die)
        if isinstance(action, Adjust):
            return self._adjust(action.die, action.delta)
        if isinstance(action, Reroll):
            dice = self._check_reroll(action.dice)
            values = draw(self.seed, self.draws, len(dice))
            return self._after_power(dice, values, draws=self.draws + len(dice))
        if isinstance(action, Ruin):
            return self._ruin(action.cell)
        raise errors.MalformedError(f"not an action: {action!r}")

    def roll_with(self, values: tuple[int, ...]) -> GameState:
        """The state after a ROLL that gave ``values`` (a chance outcome, for search and tests)."""
        self._require(ROLL)
        if len(values) != DICE_PER_ROLL or not all(1 <= v <= 6 for v in values):
            raise errors.MalformedError(f"a roll is four values 1–6, not {values!r}")
        return self._rolled(tuple(values))

    def _rolled(self, values: tuple[int, ...]) -> GameState:
        frame = self._pframe
        minimum = min(self.difficulty.base_minimum, (FULL ^ frame >> FRAME_TAKEN).bit_count())
        near = frame & FULL
        masks = None
        if near and minimum <= 3:  # every turn after the first: the check finds the cells too
            masks = roll_masks(frame, near, values, minimum)
            phase = MAGDAGDON if masks is None else PLACE
        else:
            phase = PLACE if can_place_frame(frame, values, minimum) else MAGDAGDON
        return _state(
            self.difficulty, self.seed, self.draws + DICE_PER_ROLL, phase, self.turn + 1,
            self.board, values, _ALL_OFF, (), self.powers_used, minimum, masks, None, None,
            frame, frame,
        )  # fmt: skip

    def reroll_with(self, dice: tuple[int, ...], values: tuple[int, ...]) -> GameState:
        """The state after I-ROLL ULIT of ``dice`` gave ``values`` (a chance outcome)."""
        chosen = self._check_reroll(dice)
        if len(values) != len(chosen) or not all(1 <= v <= 6 for v in values):
            raise errors.MalformedError(f"one value 1–6 for each rerolled die, not {values!r}")
        return self._after_power(chosen, values, draws=self.draws + len(chosen))

    def _require(self, *phases: Phase) -> None:
        if self.phase in phases:
            return
        if self.phase is OVER:
            raise errors.GameOverError("the game is over")
        allowed = " or ".join(p.value for p in phases)
        raise errors.WrongPhaseError(f"this action needs phase {allowed}, not {self.phase.value}")

    def _die(self, die: int) -> int:
        if type(die) is not int or not 0 <= die < len(self.dice):
            raise errors.UnknownDieError(f"there is no die {die!r} in this roll")
        return die

    def _tray_die(self, die: int) -> int:
        if self.staged[self._die(die)] != OFF:
            raise errors.DieStagedError(f"die {die} is on the board; return it to the tray first")
        return die

    def _stage(self, die: int, cell: int) -> GameState:
        """A stage that is not one of the game's own ``Stage`` objects, or that is refused: every
        check, in the order that picks the error to report; then the game's own stage."""
        if self.phase is not PLACE:
            self._require(PLACE)
        masks = self._masks or self._valid_masks()
        if not (
            type(die) is int
            and type(cell) is int
            and 0 <= die < DICE_PER_ROLL
            and 0 <= cell < CELLS
            and masks[die] >> cell & 1
        ):
            self._tray_die(die)
            if type(cell) is not int or not 0 <= cell < CELLS:
                raise errors.InvalidCellError(f"there is no cell {cell!r}")
            raise errors.InvalidCellError(
                f"a {self.dice[die]} may not be placed on row {cell // 4}, column {cell % 4}"
            )
        return self.apply(_STAGE[die][cell])

    def _unstage(self, die: int) -> GameState:
        if self.phase is not PLACE:
            self._require(PLACE)
        if self.staged[self._die(die)] == OFF:
            raise errors.DieNotStagedError(f"die {die} is not on the board")
        before = self.order
        pframe = self._pframe
        frame: Frame | None = None
        if die == before[-1]:
            # The last die staged: no other die was placed against it, so all the others stay.
            as_list = list(self.staged)
            as_list[die] = OFF
            staged, order = tuple(as_list), before[:-1]
        else:
            frame = pframe
            as_list = [OFF] * DICE_PER_ROLL
            kept = []
            for d in before:
                if d == die:
                    continue
                cell, value = self.staged[d], self.dice[d]
                # frame_valid(frame, value) >> cell & 1, and frame_place, inline
                index = cell << 3 | value
                if frame & _CHECK_BITS[index] == 1 << cell or (
                    not frame & FULL and not frame >> (FRAME_TAKEN + cell) & 1
                ):
                    frame |= PLACE_BITS[index]
                    as_list[d] = cell
                    kept.append(d)
            staged, order = tuple(as_list), tuple(kept)
        key = (staged, order)
        family = self._family
        if family is None:
            family = self._family = {(self.staged, before): self}
        else:
            found = family.get(key)
            if found is not None:
                return found
        if frame is None:
            frame = pframe
            for d in order:
                frame = frame_place(frame, staged[d], self.dice[d])
        new = family[key] = _state(
            self.difficulty, self.seed, self.draws, PLACE, self.turn, self.board, self.dice,
            staged, order, self.powers_used, self.min_required, None, family, None, frame,
            self._pframe,
        )  # fmt: skip
        return new

    def _confirm(self) -> GameState:
        if self.phase is not PLACE:
            self._require(PLACE)
        if len(self.order) < self.min_required:
            raise errors.BelowMinimumError(
                f"place at least {self.min_required} dice before KUMPIRMAHIN "
                f"({len(self.order)} placed)"
            )
        return self._end_turn(self.live, self._frame)

    def _ruin(self, cell: int) -> GameState:
        self._require(MAGDAGDON)
        if not isinstance(cell, int) or not 0 <= cell < CELLS:
            raise errors.InvalidCellError(f"there is no cell {cell!r}")
        if not frame_empty(self._pframe) >> cell & 1:
            raise errors.InvalidCellError(
                f"row {cell // 4}, column {cell % 4} is not empty; a RUIN needs an empty cell"
            )
        return self._end_turn(with_ruin(self.board, cell), frame_ruin(self._pframe, cell))

    def _end_turn(self, board: Board, frame: Frame) -> GameState:
        if self._family is not None:
            self._family.clear()
        empty = FULL ^ frame >> FRAME_TAKEN  # board.frame_empty
        difficulty = self.difficulty
        return _state(
            difficulty, self.seed, self.draws, ROLL if empty else OVER, self.turn, board, (), (),
            (), self.powers_used, min(difficulty.base_minimum, empty.bit_count()), None, None,
            None, frame, frame,
        )  # fmt: skip

    def _use_power(self) -> None:
        self._require(PLACE, MAGDAGDON)
        if not self.powers_left:
            raise errors.NoPowersLeftError(
                f"no Majda Power left ({self.difficulty.power_uses} on "
                f"{self.difficulty.value.upper()})"
            )

    def _adjust(self, die: int, delta: int) -> GameState:
        self._use_power()
        self._tray_die(die)
        if delta not in (1, -1):
            raise errors.InvalidDeltaError(f"a die changes by +1 or -1, not {delta!r}")
        value = self.dice[die] + delta
        if not 1 <= value <= 6:
            raise errors.ValueOutOfRangeError(
                f"die {die} shows {self.dice[die]}; "
                f"it cannot go {'below 1' if delta < 0 else 'above 6'}"
            )
        return self._after_power((die,), (value,), draws=self.draws)

    def _check_reroll(self, dice: tuple[int, ...]) -> tuple[int, ...]:
        self._use_power()
        if not dice:
            raise errors.NoDiceChosenError("choose at least one tray die to reroll")
        if len(set(dice)) != len(dice):
            raise errors.DuplicateDieError("each die can be chosen once")
        for die in dice:
            self._tray_die(die)
        return tuple(sorted(dice))

    def _after_power(self, dice: tuple[int, ...], values: tuple[int, ...], draws: int) -> GameState:
        new = list(self.dice)
        for die, value in zip(dice, values, strict=True):
            new[die] = value
        if self._family is not None:
            self._family.clear()
        state = self._copy()
        state.dice = tuple(new)
        state.draws = draws
        state.powers_used = self.powers_used + 1
        state._family = None
        if can_place_frame(self._pframe, state.dice, self.min_required):
            state.phase = PLACE
        else:
            # MAGDAGDON: whatever was staged returns to the tray.
            state._frame = self._pframe
            state.phase = MAGDAGDON
            state.staged = _ALL_OFF
            state.order = ()
        return state


def _state(
    difficulty: Difficulty,
    seed: int,
    draws: int,
    phase: Phase,
    turn: int,
    board: Board,
    dice: tuple[int, ...],
    staged: tuple[int, ...],
    order: tuple[int, ...],
    powers_used: int,
    min_required: int,
    masks: tuple[int, ...] | None,
    family: dict[tuple[tuple[int, ...], tuple[int, ...]], GameState] | None,
    parent: GameState | None,
    frame: Frame,
    pframe: Frame,
) -> GameState:
    """A state with every field given, each set once (the moves make their states with it:
    cheaper than a copy changed afterwards)."""
    new = object.__new__(GameState)
    new.difficulty = difficulty
    new.seed = seed
    new.draws = draws
    new.phase = phase
    new.turn = turn
    new.board = board
    new.dice = dice
    new.staged = staged
    new.order = order
    new.powers_used = powers_used
    new.min_required = min_required
    new._masks = masks
    new._legal = None
    new._family = family
    new._parent = parent
    new._frame = frame
    new._pframe = pframe
    return new
