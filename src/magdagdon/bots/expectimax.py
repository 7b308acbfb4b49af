"""The ``expectimax`` bot: each placement weighed by what the next roll can do with it.

For a turn, the planner lists every distinct board the roll can leave. The best of them by the
board evaluation are then searched one roll deeper: over the 126 distinct rolls of four dice, each
with its exact chance, the best board the next turn can reach (one walk of the board's extensions
serves all 126 rolls). A roll that cannot place the minimum costs a RUIN on the best cell to lose,
unless a Power saves it. Powers are weighed the same way: the expected gain of BAWAS −1,
DAGDAG +1 or I-ROLL ULIT against its penalty and the worth of keeping the use for later.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from magdagdon.bots.advice import Advice, TurnBot, codes_of, next_step
from magdagdon.bots.base import register
from magdagdon.bots.evaluate import RUIN_CODE, Codes, Evaluator, exact_points
from magdagdon.bots.planner import (
    ONE_CHANGE,
    ROLL_CHANCES,
    ROLL_VALUES,
    best_by_roll,
    extension_table,
    turn_plans,
)
from magdagdon.engine import Action, Adjust, GameState, Phase, Reroll, Ruin
from magdagdon.engine.dice import roll_outcomes

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator


@dataclass(frozen=True, slots=True)
class Settings:
    """How wide and how deep the search looks."""

    #: How many of the turn's best boards (by evaluation) are searched one roll deeper.
    width: int = 10
    #: Dice the next turn may place beyond its minimum, in the one-roll look-ahead.
    extra: int = 0
    #: Boards with at most this many empty cells are searched to the end of the game, exactly.
    exact: int = 4
    #: Points a Power use must gain beyond its penalty, by uses left (keeping one has a worth).
    reserve: tuple[float, ...] = (0.0, 4.0, 3.0, 2.0)


def _with(codes: Codes, cell: int, code: int) -> Codes:
    return (*codes[:cell], code, *codes[cell + 1 :])


class ExpectimaxBot(TurnBot):
    """One-roll expectimax over the exact chance outcomes, with Powers and RUIN choice."""

    name = "expectimax"

    def __init__(self, settings: Settings | None = None, evaluate: Evaluator | None = None) -> None:
        super().__init__()
        self.settings = settings or Settings()
        self.evaluate = evaluate or Evaluator()
        self._after: dict[tuple[Codes, int, int], float] = {}

    # ----- the value of a board once the turn is over --------------------------------------

    def after_turn(self, codes: Codes, base_minimum: int, penalty: int | None) -> float:
        """The expected evaluation after the next roll is placed as well as it can be.

        ``penalty`` is what the next Power use costs (None when none is left): a roll that cannot
        place the minimum may then be saved by one BAWAS −1 / DAGDAG +1.
        """
        empties = codes.count(0)
        if not empties:
            return float(exact_points(codes))
        key = (codes, base_minimum, -1 if penalty is None else penalty)
        found = self._after.get(key)
        if found is not None:
            return found
        if len(self._after) > 200_000:
            self._after.clear()
        minimum = min(base_minimum, empties)
        exact = empties <= self.settings.exact
        high = min(empties if exact else minimum + self.settings.extra, 4)

        def leaf(board: Codes) -> float:
            if board.count(0):
                return self.after_turn(board, base_minimum, penalty)
            return float(exact_points(board))

        table = extension_table(codes, minimum, high, leaf if exact else self.evaluate)
        ruin = max(
            (leaf if exact else self.evaluate)(_with(codes, c, RUIN_CODE))
            for c in range(16)
            if not codes[c]
        )
        best = best_by_roll(table)
        total = 0.0
        for i, chance in enumerate(ROLL_CHANCES):
            value = best[i]
            if value is None:
                value = ruin
                if penalty is not None:
                    for j in ONE_CHANGE[i]:
                        saved = best[j]
                        if saved is not None and saved - penalty > value:
                            value = saved - penalty
            total += chance * value
        self._after[key] = total
        return total

    def expected_before_roll(self, state: GameState) -> float:
        """The expected final score of ``state`` in phase roll, the coming roll placed well."""
        value = self.after_turn(codes_of(state), state.difficulty.base_minimum, state.next_penalty)
        return value - state.power_penalty

    # ----- the decision of a turn --------------------------------------------------------------

    def advise(self, state: GameState) -> Advice:
        codes = codes_of(state)
        base = state.difficulty.base_minimum
        later = _penalty_after(state, 0)
        if state.phase is Phase.MAGDAGDON:
            cells = state.empty_cells()
            boards = sorted(
                (_with(codes, c, RUIN_CODE) for c in cells), key=self.evaluate, reverse=True
            )[: self.settings.width]
            values = {b: self.after_turn(b, base, later) for b in boards}
            board = max(values, key=values.__getitem__)
            cell = next(c for c in cells if board[c] == RUIN_CODE)
            advice = Advice(Ruin(cell), (), values[board] - state.power_penalty)
        else:
            plans = turn_plans(codes, state.dice, state.min_required)
            boards = sorted(plans, key=self.evaluate, reverse=True)[: self.settings.width]
            values = {b: self.after_turn(b, base, later) for b in boards}
            board = max(values, key=values.__getitem__)
            placement = plans[board]
            advice = Advice(
                next_step(state, placement), placement, values[board] - state.power_penalty
            )
        power = self._power(state, codes)
        return power or advice

    def _power(self, state: GameState, codes: Codes) -> Advice | None:
        """A Power worth more than its penalty and the worth of keeping it, if any."""
        penalty = state.next_penalty
        if penalty is None:
            return None
        minimum = state.min_required
        table = extension_table(
            codes, minimum, min(minimum + self.settings.extra, codes.count(0)), self.evaluate
        )
        ruin = max(self.evaluate(_with(codes, c, RUIN_CODE)) for c in range(16) if not codes[c])
        by_roll = [ruin if v is None else v for v in best_by_roll(table)]

        def worth(values: tuple[int, ...]) -> float:
            return by_roll[_INDEX[tuple(sorted(values))]]

        dice = state.dice
        now = worth(dice)
        best_gain, best_action = -1e9, None
        for action, gain in self._power_options(state, worth):
            if gain > best_gain:
                best_gain, best_action = gain, action
        threshold = penalty + self.settings.reserve[min(state.powers_left, 3)]
        if best_action is None or best_gain - now <= threshold:
            return None
        return Advice(best_action, (), best_gain - state.power_penalty - penalty)

    def _power_options(
        self, state: GameState, worth: Callable[[tuple[int, ...]], float]
    ) -> Iterator[tuple[Action, float]]:
        dice = state.dice
        tray = state.tray
        for die in tray:
            for delta in (-1, 1):
                if 1 <= dice[die] + delta <= 6:
                    changed = list(dice)
                    changed[die] += delta
                    yield Adjust(die, delta), worth(tuple(changed))
        tried: set[tuple[tuple[int, ...], tuple[int, ...]]] = set()
        for mask in range(1, 1 << len(tray)):
            chosen = tuple(d for i, d in enumerate(tray) if mask >> i & 1)
            kept = tuple(sorted(dice[d] for d in range(len(dice)) if d not in chosen))
            rolled = tuple(sorted(dice[d] for d in chosen))
            if (kept, rolled) in tried:
                continue
            tried.add((kept, rolled))
            total = 0.0
            for values, ways in roll_outcomes(len(chosen)):
                total += ways * worth(kept + values)
            yield Reroll(chosen), total / 6 ** len(chosen)


_INDEX = {values: i for i, values in enumerate(ROLL_VALUES)}


def _penalty_after(state: GameState, more: int) -> int | None:
    used = state.powers_used + more
    penalties = state.difficulty.penalties
    return penalties[used] if used < len(penalties) else None


register("expectimax", ExpectimaxBot)
