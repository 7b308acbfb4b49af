"""V(s): the computer player's expected final score from a state, with its best play (docs/rules.md
"Modes and records" (Review)). One function answers both the hint's ``expected_value`` and the game
review, so that a review's values are the hint's for the same states and following every hint gives
up nothing.

By the kind of state:

- phase ``over``: the final score;
- phase ``roll`` (a chance node: the dice are about to fall): ``expected_before_roll``, the bot's
  own expectation over the 126 outcomes;
- phase ``place`` / ``magdagdon`` (a decision): the value of following the bot's advice. A
  placement or a RUIN: the advice's value, which is V of the state it leads to (the same board
  after the turn, the same penalties). BAWAS −1 / DAGDAG +1: V of the state after it (at most as
  deep as the Power uses left). I-ROLL ULIT of dice D: V of the reroll node (s, D);
- a reroll node (s, D) (the chosen dice are in the air): ``reroll_value``, the bot's own
  expectation of that reroll, for any D (an exact expectation over full searches would cost 126
  of them a reroll).

A decision state is valued with nothing staged: the bot plans a turn from the permanent board and
the dice, but weighs Powers only on the dice in the tray, so a position's value must not move
while the player stages and returns dice (they are no steps of a review).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from magdagdon.bots.expectimax import ExpectimaxBot
from magdagdon.engine import Adjust, Phase, Reroll, Unstage

if TYPE_CHECKING:
    from magdagdon.bots.advice import Advice
    from magdagdon.engine import GameState


def unstaged(state: GameState) -> GameState:
    """``state`` with every staged die back in the tray (the turn's position itself).

    The last die staged goes back first, so no other die is re-checked on the way."""
    for die in reversed(state.order):
        state = state.apply(Unstage(die))
    return state


class Values:
    """V(s) with one bot (and its caches); memoised by position, so a review and its summary ask
    the search once a state. Not thread-safe: one per thread, or behind a lock."""

    def __init__(self, bot: ExpectimaxBot | None = None, *, memo: int = 4096) -> None:
        self.bot = bot or ExpectimaxBot()
        self._memo: dict[GameState, tuple[float, Advice | None]] = {}
        self._limit = memo

    def of(self, state: GameState) -> float:
        """V(state)."""
        return self.judge(state)[0]

    def advice(self, state: GameState) -> Advice:
        """The bot's advice at the position of ``state`` (phase place or magdagdon), nothing
        staged: the computer's choice a review shows beside the player's."""
        found = self.judge(state)[1]
        if found is None:
            raise ValueError(f"no decision to advise in phase {state.phase.value}")
        return found

    def after_reroll(self, state: GameState, dice: tuple[int, ...]) -> float:
        """V of the reroll node: the tray ``dice`` of ``state`` chosen to I-ROLL ULIT."""
        return self.bot.reroll_value(unstaged(state), dice)

    def judge(self, state: GameState) -> tuple[float, Advice | None]:
        """V(state), and the bot's advice when ``state`` is a decision."""
        if state.phase is Phase.OVER:
            return float(state.score().total), None
        if state.phase is Phase.ROLL:
            return self.bot.expected_before_roll(state), None
        position = unstaged(state)
        found = self._memo.get(position)
        if found is None:
            if len(self._memo) >= self._limit:
                self._memo.clear()
            found = self._memo[position] = self._decision(position)
        return found

    def _decision(self, state: GameState) -> tuple[float, Advice]:
        advice = self.bot.advise(state)
        action = advice.action
        if isinstance(action, Adjust):
            return self.of(state.apply(action)), advice
        if isinstance(action, Reroll):
            return self.bot.reroll_value(state, action.dice), advice
        return advice.expected_value, advice
