"""The state of a game and the rules of every action (SPEC "A turn" to "End of the game").

A :class:`GameState` is immutable: :meth:`GameState.apply` checks an action and answers a new
state, or raises an :class:`~magdagdon.engine.errors.IllegalActionError` and changes nothing.
Copies are cheap, as every field is an int or a small tuple of ints.
"""

from __future__ import annotations

import enum
from typing import TYPE_CHECKING, Any

from magdagdon.engine import errors
from magdagdon.engine.actions import Action, Adjust, Confirm, Reroll, Roll, Ruin, Stage, Unstage
from magdagdon.engine.board import (
    CELLS,
    EMPTY_BOARD,
    FULL,
    RUIN,
    Board,
    empty_of,
    iter_cells,
    numbers_of,
    to_codes,
    valid_mask,
    with_number,
    with_ruin,
)
from magdagdon.engine.dice import draw, roll_outcomes
from magdagdon.engine.rules import DICE_PER_ROLL, Difficulty
from magdagdon.engine.scoring import Score, score_codes
from magdagdon.engine.search import can_place

if TYPE_CHECKING:
    from collections.abc import Iterator


class Phase(enum.Enum):
    ROLL = "roll"
    PLACE = "place"
    MAGDAGDON = "magdagdon"
    OVER = "over"


OFF = -1  # the cell of a die that is in the tray


class GameState:
    """One moment of a game: the permanent board, the roll, what is staged, the Powers used."""

    __slots__ = (
        "board",
        "dice",
        "difficulty",
        "draws",
        "live",
        "min_required",
        "order",
        "phase",
        "powers_used",
        "seed",
        "staged",
        "turn",
    )

    difficulty: Difficulty
    seed: int
    draws: int
    phase: Phase
    turn: int
    board: Board
    live: Board
    dice: tuple[int, ...]
    staged: tuple[int, ...]
    order: tuple[int, ...]
    powers_used: int
    min_required: int

    def __init__(
        self,
        difficulty: Difficulty,
        seed: int,
        *,
        draws: int = 0,
        phase: Phase = Phase.ROLL,
        turn: int = 0,
        board: Board = EMPTY_BOARD,
        live: Board | None = None,
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
        self.live = board if live is None else live
        self.dice = dice
        self.staged = staged
        self.order = order
        self.powers_used = powers_used
        self.min_required = (
            min(difficulty.base_minimum, empty_of(board).bit_count())
            if min_required is None
            else min_required
        )

    @classmethod
    def new(cls, difficulty: Difficulty, seed: int) -> GameState:
        """A new game: an empty board, waiting for the first ROLL."""
        return cls(difficulty, seed)

    def _replace(self, **changes: Any) -> GameState:
        fields = {name: getattr(self, name) for name in self.__slots__}
        fields.update(changes)
        difficulty = fields.pop("difficulty")
        seed = fields.pop("seed")
        return GameState(difficulty, seed, **fields)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, GameState):
            return NotImplemented
        return all(getattr(self, n) == getattr(other, n) for n in self.__slots__)

    def __hash__(self) -> int:
        return hash(tuple(getattr(self, n) for n in self.__slots__))

    def __repr__(self) -> str:
        return (
            f"<GameState {self.difficulty.value} turn={self.turn} phase={self.phase.value} "
            f"dice={self.dice} staged={self.staged}>"
        )

    # ----- what the state shows -------------------------------------------------------------

    @property
    def tray(self) -> tuple[int, ...]:
        """The ids of the dice of the roll that are not staged."""
        return tuple(d for d, cell in enumerate(self.staged) if cell == OFF)

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
        return self.phase is Phase.PLACE and len(self.order) >= self.min_required

    @property
    def stuck(self) -> bool:
        """The roll can place the minimum, but not from what is staged now (SPEC)."""
        if self.phase is not Phase.PLACE:
            return False
        need = self.min_required - len(self.order)
        tray_values = tuple(self.dice[d] for d in self.tray)
        return need > 0 and not can_place(self.live, tray_values, need)

    def valid_cells(self) -> dict[int, list[int]]:
        """For every tray die in phase ``place``, the cells it may be staged on now."""
        if self.phase is not Phase.PLACE:
            return {}
        return {d: iter_cells(valid_mask(self.live, self.dice[d])) for d in self.tray}

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
        return self.phase is Phase.OVER

    def legal_actions(self) -> Iterator[Action]:
        """Every action :meth:`apply` accepts now (die ids and cells in ascending order)."""
        phase = self.phase
        if phase is Phase.ROLL:
            yield Roll()
            return
        if phase is Phase.OVER:
            return
        tray = self.tray
        if phase is Phase.PLACE:
            for die in tray:
                for cell in iter_cells(valid_mask(self.live, self.dice[die])):
                    yield Stage(die, cell)
            for die in self.order:
                yield Unstage(die)
            if self.can_confirm:
                yield Confirm()
        if self.powers_left:
            for die in tray:
                if self.dice[die] > 1:
                    yield Adjust(die, -1)
                if self.dice[die] < 6:
                    yield Adjust(die, 1)
            for mask in range(1, 1 << len(tray)):
                yield Reroll(tuple(d for i, d in enumerate(tray) if mask >> i & 1))
        if phase is Phase.MAGDAGDON:
            for cell in iter_cells(empty_of(self.board)):
                yield Ruin(cell)

    def chance_outcomes(self) -> tuple[tuple[tuple[int, ...], float], ...]:
        """In phase ``roll``: every distinct roll (sorted values) with its exact probability."""
        if self.phase is not Phase.ROLL:
            return ()
        total = 6**DICE_PER_ROLL
        return tuple((values, ways / total) for values, ways in roll_outcomes(DICE_PER_ROLL))

    # ----- actions ----------------------------------------------------------------------------

    def apply(self, action: Action) -> GameState:
        """The state after ``action``, the dice drawn from this game's seeded stream."""
        if isinstance(action, Stage):
            return self._stage(action.die, action.cell)
        if isinstance(action, Unstage):
            return self._unstage(action.die)
        if isinstance(action, Confirm):
            return self._confirm()
        if isinstance(action, Roll):
            self._require(Phase.ROLL)
            return self.roll_with(draw(self.seed, self.draws, DICE_PER_ROLL))
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
        self._require(Phase.ROLL)
        if len(values) != DICE_PER_ROLL or not all(1 <= v <= 6 for v in values):
            raise errors.MalformedError(f"a roll is four values 1–6, not {values!r}")
        minimum = min(self.difficulty.base_minimum, empty_of(self.board).bit_count())
        ok = can_place(self.board, values, minimum)
        return self._replace(
            draws=self.draws + DICE_PER_ROLL,
            phase=Phase.PLACE if ok else Phase.MAGDAGDON,
            turn=self.turn + 1,
            live=self.board,
            dice=tuple(values),
            staged=(OFF,) * DICE_PER_ROLL,
            order=(),
            min_required=minimum,
        )

    def reroll_with(self, dice: tuple[int, ...], values: tuple[int, ...]) -> GameState:
        """The state after I-ROLL ULIT of ``dice`` gave ``values`` (a chance outcome)."""
        chosen = self._check_reroll(dice)
        if len(values) != len(chosen) or not all(1 <= v <= 6 for v in values):
            raise errors.MalformedError(f"one value 1–6 for each rerolled die, not {values!r}")
        return self._after_power(chosen, values, draws=self.draws + len(chosen))

    def _require(self, *phases: Phase) -> None:
        if self.phase in phases:
            return
        if self.phase is Phase.OVER:
            raise errors.GameOverError("the game is over")
        allowed = " or ".join(p.value for p in phases)
        raise errors.WrongPhaseError(f"this action needs phase {allowed}, not {self.phase.value}")

    def _die(self, die: int) -> int:
        if not isinstance(die, int) or not 0 <= die < len(self.dice):
            raise errors.UnknownDieError(f"there is no die {die!r} in this roll")
        return die

    def _tray_die(self, die: int) -> int:
        if self.staged[self._die(die)] != OFF:
            raise errors.DieStagedError(f"die {die} is on the board; return it to the tray first")
        return die

    def _stage(self, die: int, cell: int) -> GameState:
        self._require(Phase.PLACE)
        self._tray_die(die)
        if not isinstance(cell, int) or not 0 <= cell < CELLS:
            raise errors.InvalidCellError(f"there is no cell {cell!r}")
        if not valid_mask(self.live, self.dice[die]) >> cell & 1:
            raise errors.InvalidCellError(
                f"a {self.dice[die]} may not be placed on row {cell // 4}, column {cell % 4}"
            )
        staged = list(self.staged)
        staged[die] = cell
        return self._replace(
            live=with_number(self.live, cell, self.dice[die]),
            staged=tuple(staged),
            order=(*self.order, die),
        )

    def _unstage(self, die: int) -> GameState:
        self._require(Phase.PLACE)
        if self.staged[self._die(die)] == OFF:
            raise errors.DieNotStagedError(f"die {die} is not on the board")
        live = self.board
        staged = [OFF] * len(self.dice)
        order = []
        for d in self.order:
            cell = self.staged[d]
            if d != die and valid_mask(live, self.dice[d]) >> cell & 1:
                live = with_number(live, cell, self.dice[d])
                staged[d] = cell
                order.append(d)
        return self._replace(live=live, staged=tuple(staged), order=tuple(order))

    def _confirm(self) -> GameState:
        self._require(Phase.PLACE)
        if len(self.order) < self.min_required:
            raise errors.BelowMinimumError(
                f"place at least {self.min_required} dice before KUMPIRMAHIN "
                f"({len(self.order)} placed)"
            )
        return self._end_turn(self.live)

    def _ruin(self, cell: int) -> GameState:
        self._require(Phase.MAGDAGDON)
        if not isinstance(cell, int) or not 0 <= cell < CELLS:
            raise errors.InvalidCellError(f"there is no cell {cell!r}")
        if not empty_of(self.board) >> cell & 1:
            raise errors.InvalidCellError(
                f"row {cell // 4}, column {cell % 4} is not empty; a RUIN needs an empty cell"
            )
        return self._end_turn(with_ruin(self.board, cell))

    def _end_turn(self, board: Board) -> GameState:
        over = (numbers_of(board) | board[RUIN]) == FULL
        return self._replace(
            phase=Phase.OVER if over else Phase.ROLL,
            board=board,
            live=board,
            dice=(),
            staged=(),
            order=(),
            min_required=min(self.difficulty.base_minimum, empty_of(board).bit_count()),
        )

    def _use_power(self) -> None:
        self._require(Phase.PLACE, Phase.MAGDAGDON)
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
        rolled = tuple(new)
        if can_place(self.board, rolled, self.min_required):
            return self._replace(
                dice=rolled, draws=draws, powers_used=self.powers_used + 1, phase=Phase.PLACE
            )
        return self._replace(
            dice=rolled,
            draws=draws,
            powers_used=self.powers_used + 1,
            phase=Phase.MAGDAGDON,
            live=self.board,
            staged=(OFF,) * len(rolled),
            order=(),
        )
