"""A decision for a whole turn, and how a bot follows it one action at a time.

Bots decide a turn at once (``Advice``: a placement, a Power, or a RUIN) and then answer its
actions one by one. The same advice answers a hint: the next action, the whole placement, and the
expected final score.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from magdagdon.engine import Action, Confirm, GameState, Phase, Roll, Stage, Unstage

if TYPE_CHECKING:
    from magdagdon.bots.planner import Placement


@dataclass(frozen=True, slots=True)
class Advice:
    """What to do this turn: ``action`` now; ``placement`` the turn's (die, cell) in order
    (empty for a Power or a RUIN); ``expected_value`` the estimated final score."""

    action: Action
    placement: Placement
    expected_value: float


def unstaged(state: GameState) -> GameState:
    """``state`` with every staged die back in the tray (the turn's position itself).

    The last die staged goes back first, so no other die is re-checked on the way."""
    for die in reversed(state.order):
        state = state.apply(Unstage(die))
    return state


def placed(state: GameState, placement: Placement) -> GameState:
    """``state`` (phase place, nothing staged) after ``placement`` is staged and confirmed."""
    for die, cell in placement:
        state = state.apply(Stage(die, cell))
    return state.apply(Confirm())


def as_staged(state: GameState, advice: Advice) -> Advice:
    """The turn's ``advice`` (decided for its position, nothing staged) carried on from the dice
    as staged in ``state``: the next action of its placement, or, for a Power or a RUIN, a staged
    die back first. One decision a turn, whatever was staged on the way: the hint asked at any
    moment names the same turn, and following it action by action is the computer's own play."""
    if not state.order:
        return advice
    if advice.placement:
        return Advice(next_step(state, advice.placement), advice.placement, advice.expected_value)
    return Advice(Unstage(state.order[-1]), (), advice.expected_value)


def next_step(state: GameState, placement: Placement) -> Action:
    """The next action that carries out ``placement`` from ``state`` (phase place).

    Dice of equal value are interchangeable: a staged die matches a planned (value, cell). A staged
    die outside the plan goes back first; then the next planned die that is valid now; then CONFIRM.
    """
    planned = [(state.dice[die], cell) for die, cell in placement]
    staged = {(state.dice[d], state.staged[d]): d for d in state.order}
    for pair, die in staged.items():
        if pair not in planned:
            return Unstage(die)
    valid = state.valid_cells()
    for value, cell in planned:
        if (value, cell) in staged:
            continue
        tray_die = next((d for d in state.tray if state.dice[d] == value), None)
        if tray_die is not None and cell in valid[tray_die]:
            return Stage(tray_die, cell)
        break
    if len(state.order) == len(planned) and state.can_confirm:
        return Confirm()
    # The staged dice block the plan's order: start the turn's placement again.
    return Unstage(state.order[0]) if state.order else _first_valid(state)


def _first_valid(state: GameState) -> Action:
    for die, cells in state.valid_cells().items():
        if cells:
            return Stage(die, cells[0])
    return Roll() if state.phase is Phase.ROLL else Confirm()


class TurnBot:
    """A bot that decides a turn at once (:meth:`advise`) and then follows its placement."""

    name = "turn"

    def __init__(self) -> None:
        self._turn: tuple[object, ...] | None = None
        self._placement: Placement = ()

    def advise(self, state: GameState) -> Advice:
        """The decision for ``state`` (phase place or magdagdon)."""
        raise NotImplementedError

    def choose(self, state: GameState, rng: object) -> Action:
        if state.phase is Phase.ROLL:
            return Roll()
        key = (state.board, state.dice, state.powers_used, state.turn)
        if state.phase is Phase.PLACE and key == self._turn:
            return next_step(state, self._placement)
        advice = self.advise(state)
        if advice.placement:
            self._turn, self._placement = key, advice.placement
            return next_step(state, advice.placement)
        return advice.action


def codes_of(state: GameState) -> tuple[int, ...]:
    """The permanent board of ``state`` as a tuple of 16 cell codes."""
    return tuple(state.codes())
