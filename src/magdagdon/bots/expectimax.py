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

from magdagdon.bots.advice import Advice, TurnBot, as_staged, codes_of, next_step, unstaged
from magdagdon.bots.base import register
from magdagdon.bots.endgame import EXACT_UPTO, Endgame
from magdagdon.bots.evaluate import Evaluator, Weights
from magdagdon.bots.opening import book as opening_book
from magdagdon.bots.penalty_walk import best_by_multiset, boards_by_multiset, points
from magdagdon.bots.planner import (
    ROLL_VALUES,
    Placement,
    best_by_roll,
    chance_key,
    extension_table,
    magdagdon_chance,
    turn_plans,
)
from magdagdon.bots.rescue import gaps_of, rescued, rescued_mean, rescued_means
from magdagdon.bots.tuning import Evaluators, weights_for
from magdagdon.engine import (
    Action,
    Adjust,
    Difficulty,
    GameState,
    Reroll,
    Ruin,
    rules,
)
from magdagdon.engine.board import RUIN_CODE
from magdagdon.engine.board_codes import EMPTY, Codes, ruin_boards
from magdagdon.engine.dice import roll_expectation
from magdagdon.engine.rules import DICE_PER_ROLL, adjusted
from magdagdon.engine.scoring import board_points

if TYPE_CHECKING:
    from collections.abc import Callable, Collection, Iterator, Mapping


#: A turn's boards searched deeper (the best last), with their plans (None: a RUIN's boards).
Candidates = tuple[list[Codes], dict[Codes, Placement] | None]


@dataclass(frozen=True, slots=True)
class Settings:
    """How wide and how deep the search looks."""

    #: How many of the turn's best boards (by evaluation) are searched one roll deeper.
    width: int = 10
    #: Boards with at most this many empty cells are searched to the end of the game, exactly.
    exact: int = 4
    #: Points taken off a next-turn board for each unit of chance that the roll after it cannot
    #: place its minimum (for boards with at most ``risk_upto`` empty cells; 0 = off).
    risk_weight: float = 0.0
    risk_upto: int = 6
    #: BAWAS −1 / DAGDAG +1 whose evaluated gain falls short of the cost by less than this are
    #: still searched like a turn.
    search_margin: float = 15.0
    #: Points a Power use must gain beyond its penalty, by uses left (keeping one has a worth).
    reserve: tuple[float, ...] = (0.0, 4.0, 3.0, 2.0)


#: How much of the learned correction of the evaluation (``bots/residual.py``) the look-ahead adds,
#: on every difficulty. On NIGHTMARE, with the tables trained for
#: ``greedy``: all of it double counts what the look-ahead already weighs (1,000 games of seed 1,
#: paired: +0.3, se 2.5); half of it, paired, on 1,000 games: +3.0 (se 2.3) on seed 1, +7.3 (se 2.3)
#: on seed 2. With the tables trained on every image of a board (``residual.SYMMETRIES``), 1,000
#: games of seeds 1 / 2 / 3: 223.0 / 224.7 / 233.4, against 221.3 / 223.2 / 229.7 (paired on seeds 2
#: and 3: +1.6, se 1.6; +3.7, se 1.7). With the look-ahead's own tables (below), 0.7 instead of 0.5:
#: +0.1 (se 1.4) on seed 2.
RESIDUAL_SHARE = 0.5

#: The look-ahead's own tables: ``greedy``'s, trained on further by TD(0) from the look-ahead's
#: own games (``bench/train_residual.py --policy expectimax``). 1,000 games of seeds 1 / 2 / 3,
#: paired against ``greedy``'s tables: +1.6 / +1.4 / +0.5 (se 1.3 each). SURVIVAL's look-ahead
#: adds half of ``greedy``'s tables (60,000 games of seed 101): 1,000 games of seeds 2 / 3,
#: paired, +7.8 / +11.0 (se 2.3 / 2.1); seed 1 350.1, was 346.1. PEACEFUL's the same way:
#: +5.7 / +7.0 (se 2.2 / 2.1) on seeds 2 / 3, seed 1 420.4, was 414.0.
LOOKAHEAD_RESIDUALS: dict[Difficulty, str] = {
    Difficulty.PEACEFUL: "peaceful",
    Difficulty.SURVIVAL: "survival",
    Difficulty.NIGHTMARE: "nightmare-lookahead",
}

#: The settings tuned for each difficulty with ``magdagdon simulate``, with the evaluation weights
#: of ``tuning.WEIGHTS`` (and that share of the learned correction).
TUNED: dict[Difficulty, tuple[Settings, Weights]] = {
    Difficulty.PEACEFUL: (
        Settings(),
        weights_for(Difficulty.PEACEFUL, residual=RESIDUAL_SHARE, tables=LOOKAHEAD_RESIDUALS),
    ),
    # SURVIVAL: 20 boards searched deeper (with the calibration, conflicts and the frontier of
    # ``tuning``: 1,000 games of seed 1, paired: 346.1, was 333.8, +12.4, se 2.3).
    Difficulty.SURVIVAL: (
        Settings(width=20),
        weights_for(Difficulty.SURVIVAL, residual=RESIDUAL_SHARE, tables=LOOKAHEAD_RESIDUALS),
    ),
    Difficulty.NIGHTMARE: (
        Settings(risk_weight=40.0, risk_upto=3),
        weights_for(Difficulty.NIGHTMARE, residual=RESIDUAL_SHARE, tables=LOOKAHEAD_RESIDUALS),
    ),
}


class ExpectimaxBot(TurnBot):
    """One-roll expectimax over the exact chance outcomes, with Powers and RUIN choice."""

    name = "expectimax"

    def __init__(
        self,
        settings: Settings | None = None,
        evaluate: Evaluator | None = None,
        *,
        opening: bool = True,
    ) -> None:
        """``settings`` and ``evaluate`` override the tuned ones of every difficulty; ``opening``
        False leaves the first turn's kept values unread (``bots/opening.py``: they are the tuned
        bot's, so a bot with other settings never reads them)."""
        super().__init__()
        self._fixed = settings is not None or evaluate is not None
        self._opening = opening and not self._fixed
        self._book: Mapping[tuple[Codes, int, int], float] = {}
        self.settings = settings or Settings()
        self.evaluate = evaluate or Evaluator()
        self._evaluators = Evaluators(residual=RESIDUAL_SHARE, tables=LOOKAHEAD_RESIDUALS)
        self._difficulty: Difficulty | None = None
        self._after: dict[tuple[Codes, int, int], float] = {}
        self._magdagdon: dict[tuple[Codes, int, bool], float] = {}
        self._at_risk: dict[tuple[Codes, int], float] = {}
        self._endgames: dict[Difficulty, Endgame] = {}
        # What a turn's dice and board alone decide, asked again for every Power use left and
        # every outcome of a chance node that leads there (a review's exact means ask each
        # 3–8 times): the boards searched deeper, and the dice's evaluated worth.
        self._candidates: dict[tuple[Codes, tuple[int, ...], int], Candidates] = {}
        self._worths: dict[tuple[Codes, int], list[float]] = {}
        self._rerolled: dict[tuple[Codes, int, tuple[int, ...], int], float] = {}
        self._options: dict[tuple[Codes, int, tuple[int, ...]], list[tuple[Action, float]]] = {}
        # The evaluation's best board for each roll (and a RUIN's), by board and minimum: the
        # same for every Power penalty, and a reroll's outcomes value each board again with the
        # next use's penalty (the walk was 3–4 times per board in a PEACEFUL review).
        self._evaluated: dict[tuple[Codes, int], tuple[list[float | None], float, list[int]]] = {}
        #: Near the end, :meth:`after_turn` also fills the values for the penalties of the uses
        #: from this one on (and none) from the same walk: a review's exact means ask them all,
        #: a hint one or two (None: off).
        self.penalties_from: int | None = None

    def endgame(self, difficulty: Difficulty) -> Endgame:
        """The exact search of the end of a game on ``difficulty`` (with its memo)."""
        found = self._endgames.get(difficulty)
        if found is None:
            found = self._endgames[difficulty] = Endgame(difficulty)
        return found

    def _tune_for(self, difficulty: Difficulty) -> None:
        """Switch to the tuned settings and evaluation of ``difficulty`` (the caches with them)."""
        if difficulty is self._difficulty or self._fixed:
            return
        self._difficulty = difficulty
        self.settings = TUNED[difficulty][0]
        self.evaluate = self._evaluators[difficulty]
        self._book = opening_book(difficulty) if self._opening else {}
        self._after.clear()
        self._magdagdon.clear()
        self._at_risk.clear()
        self._candidates.clear()
        self._worths.clear()
        self._rerolled.clear()
        self._options.clear()
        self._evaluated.clear()

    def _magdagdon_chance(self, codes: Codes, min_required: int) -> float:
        key = chance_key(codes, min_required)
        found = self._magdagdon.get(key)
        if found is None:
            if len(self._magdagdon) > 200_000:
                self._magdagdon.clear()
            found = self._magdagdon[key] = magdagdon_chance(codes, min_required)
        return found

    # ----- the value of a board once the turn is over --------------------------------------

    def after_turn(self, codes: Codes, base_minimum: int, penalty: int | None) -> float:
        """The expected evaluation after the next roll is placed as well as it can be.

        ``penalty`` is what the next Power use costs (None when none is left): a roll that cannot
        place the minimum may then be saved by one BAWAS −1 / DAGDAG +1.
        """
        empties = codes.count(EMPTY)
        if not empties:
            return float(board_points(codes))
        key = _key(codes, base_minimum, penalty)
        found = self._after.get(key)  # (as ``_leaf`` does)
        if found is None:
            found = self._book.get(key)
        if found is not None:
            return found
        if len(self._after) > 200_000:
            self._after.clear()
        min_required = rules.min_required(base_minimum, empties)
        exact = empties <= self.settings.exact
        high = min(empties if exact else min_required, DICE_PER_ROLL)
        if exact and self.penalties_from is not None:
            return self._exact_after(codes, base_minimum, penalty, min_required, high)

        def risky(board: Codes) -> float:
            return self.leaf_value(board, base_minimum)

        # The risk counts only on boards with at most ``risk_upto`` empty cells: a table whose
        # boards all have more is the evaluation's alone, asked without the calls around it.
        at_risk = self.settings.risk_weight and empties - high <= self.settings.risk_upto
        if exact or at_risk or high != min_required:
            score = self._leaf(base_minimum, penalty) if exact else risky
            table = extension_table(codes, min_required, high, score)
            ruin = max(score(board) for board in ruin_boards(codes))
            total = rescued_mean(table, ruin, penalty)
        else:  # the evaluation's alone (``high`` is the minimum): the same for every penalty
            best, ruin, gaps = self._evaluated_by_roll(codes, min_required)
            total = rescued(best, ruin, penalty, gaps)
        self._after[key] = total
        return total

    def _exact_after(
        self, codes: Codes, base_minimum: int, penalty: int | None, min_required: int, high: int
    ) -> float:
        """:meth:`after_turn` of a board searched to the end, for ``penalty`` and, from the same
        walk, for each later penalty of the difficulty and for none (``bots/penalty_walk.py``):
        each one's table the best of the same boards, as ``extension_table`` takes it."""
        groups = boards_by_multiset(codes, min_required, high)
        ruins = ruin_boards(codes)
        known = self._after
        asked, *later = self._later(penalty)  # the asked one is missing (``after_turn``)
        todo = [asked, *(each for each in later if _key(codes, base_minimum, each) not in known)]
        leaves = [self._leaf(base_minimum, each) for each in todo]
        empties = codes.count(EMPTY)
        if empties == 1:  # the RUIN fills the board too
            ruin = max(map(points, ruins))
            rescues = [(ruin, each) for each in todo]
        else:
            rescues = [
                (max(map(leaf, ruins)), each) for leaf, each in zip(leaves, todo, strict=True)
            ]
        if min_required == empties:
            # A turn that must fill every empty cell leaves full boards only, whose points no
            # penalty changes: one table serves every penalty (a review asks each board of one
            # or two empty cells with every penalty).
            means = rescued_means(best_by_multiset(groups, points), rescues)
        else:
            means = [
                rescued_mean(best_by_multiset(groups, leaf), ruin, each)
                for leaf, (ruin, each) in zip(leaves, rescues, strict=True)
            ]
        if len(known) > 200_000:
            known.clear()
        for each, mean in zip(todo, means, strict=True):
            known[_key(codes, base_minimum, each)] = mean
        return means[0]

    def _leaf(self, base_minimum: int, penalty: int | None) -> Callable[[Codes], float]:
        """A board's value once the turn is over, searched to the end: its :meth:`after_turn`
        with ``penalty`` (its memo looked up first, without the call), or a full board's points."""
        known = self._after.get
        later = -1 if penalty is None else penalty

        def leaf(board: Codes) -> float:
            if EMPTY not in board:  # full: the memo never holds one
                return float(board_points(board))
            found = known((board, base_minimum, later))
            if found is not None:
                return found
            return self.after_turn(board, base_minimum, penalty)

        return leaf

    def _later(self, penalty: int | None) -> tuple[int | None, ...]:
        """``penalty``, then the difficulty's penalties from the use ``penalties_from`` on and
        None (no use left): a review asks the same boards with each of them (the deepest chain
        of its means first), so all are taken from the first walk."""
        start = self.penalties_from
        if self._difficulty is None or start is None:
            return (penalty,)
        return tuple(dict.fromkeys((penalty, *self._difficulty.penalties[start:], None)))

    def after_values(self) -> dict[tuple[Codes, int, int], float]:
        """The values :meth:`after_turn` has computed (since the difficulty last changed): what
        ``bots/opening.py`` keeps of the first turns."""
        return dict(self._after)

    def leaf_value(self, board: Codes, base_minimum: int) -> float:
        """The evaluation of a board the look-ahead stops at, less the risk that the roll after
        it cannot place the minimum (``Settings.risk_weight``, near the end). A board at risk is
        memoised whole: the look-ahead's tables meet it about twice (NIGHTMARE's reviews), and
        the risk's own memo is keyed by what it depends on, dearer to make than this look-up."""
        left = board.count(EMPTY)
        if not (self.settings.risk_weight and 0 < left <= self.settings.risk_upto):
            return self.evaluate(board)
        key = (board, base_minimum)
        found = self._at_risk.get(key)
        if found is None:
            if len(self._at_risk) > 200_000:
                self._at_risk.clear()
            need = rules.min_required(base_minimum, left)
            value = self.evaluate(board)
            value -= self.settings.risk_weight * self._magdagdon_chance(board, need)
            found = self._at_risk[key] = value
        return found

    def expected_before_roll(self, state: GameState) -> float:
        """The expected final score of ``state`` in phase roll, the coming roll placed well."""
        self._tune_for(state.difficulty)
        value = self.after_turn(codes_of(state), state.difficulty.base_minimum, state.next_penalty)
        return value - state.power_penalty

    # ----- the decision of a turn --------------------------------------------------------------

    def advise(self, state: GameState) -> Advice:
        """The turn's decision, taken at its position with nothing staged (the Powers are
        weighed on all four dice, not on those left in the tray) and carried on from the dice as
        staged, so that staging on the way never changes the turn (``advice.as_staged``)."""
        if state.order:
            return as_staged(state, self.advise(unstaged(state)))
        self._tune_for(state.difficulty)
        codes = codes_of(state)
        if codes.count(EMPTY) <= EXACT_UPTO[state.difficulty]:
            return self._exact(state, codes)
        return self.look_ahead(state)

    def look_ahead(self, state: GameState) -> Advice:
        """The one-roll look-ahead's decision (the bot's own everywhere but near the end, where
        the exact search decides; ``bench/endgame_bench.py`` compares the two there)."""
        self._tune_for(state.difficulty)
        codes = codes_of(state)
        base = state.difficulty.base_minimum
        value, board, placement = self._best_turn(
            codes, state.dice, state.min_required, base, state.next_penalty
        )
        power = self._power(state, codes, value)
        if power is not None:
            return power
        expected = value - state.power_penalty
        if placement is None:
            cell = next(c for c in state.empty_cells() if board[c] == RUIN_CODE)
            return Advice(Ruin(cell), (), expected)
        return Advice(next_step(state, placement), placement, expected)

    def _exact(self, state: GameState, codes: Codes) -> Advice:
        """The best move of the exact search (``bots/endgame.py``) near the end of a game."""
        value, action, placement = self.endgame(state.difficulty).best(
            codes, state.dice, state.powers_used, state.min_required
        )
        expected = value - state.power_penalty
        if action is None:
            return Advice(next_step(state, placement), placement, expected)
        return Advice(action, (), expected)

    def _best_turn(
        self, codes: Codes, dice: tuple[int, ...], min_required: int, base: int, later: int | None
    ) -> tuple[float, Codes, Placement | None]:
        """The best value, board and placement of the turn for these dice; with no placement
        (MAGDAGDON), the best board with a new RUIN."""
        boards, plans = self._searched(codes, dice, min_required)
        values = {b: self.after_turn(b, base, later) for b in boards}
        board = max(values, key=values.__getitem__)
        return values[board], board, plans[board] if plans is not None else None

    def _searched(self, codes: Codes, dice: tuple[int, ...], min_required: int) -> Candidates:
        """The ``width`` best boards of the turn by evaluation (the best last), with their
        plans; with no placement, the best boards with a new RUIN and None."""
        key = (codes, dice, min_required)
        found = self._candidates.get(key)
        if found is not None:
            return found
        if len(self._candidates) > 5_000:
            self._candidates.clear()
        width = self.settings.width
        plans = turn_plans(codes, dice, min_required)
        # Boards of equal evaluation in the order of the boards themselves: the dice's order in
        # the tray must not decide which are kept (the same position, the same decision).
        if plans:
            boards = _best_of(plans, self.evaluate, width)
            found = boards, {b: plans[b] for b in boards}
        else:
            found = _best_of(ruin_boards(codes), self.evaluate, width), None
        self._candidates[key] = found
        return found

    def _power(self, state: GameState, codes: Codes, value_now: float) -> Advice | None:
        """A Power worth more than its penalty and the worth of keeping it, if any.

        Every Power is first weighed by the board evaluation; the best BAWAS −1 / DAGDAG +1 are
        then searched like the turn itself, and I-ROLL ULIT keeps its evaluated gain."""
        penalty = state.next_penalty
        if penalty is None:
            return None
        min_required = state.min_required
        worth = self._dice_worth(state, codes)
        now = worth(state.dice)
        cost = penalty + self.settings.reserve[min(state.powers_left, 3)]
        later = state.difficulty.penalty_after(state.powers_used + 1)
        options = self._sorted_options(state, codes, worth)
        best_action: Action | None = None
        best_value = value_now
        adjusts = [o for o in options if isinstance(o[0], Adjust)][:2]
        for action, gain in adjusts:
            if gain - now <= cost - self.settings.search_margin:
                continue
            assert isinstance(action, Adjust)
            # Its value alone is asked: the dice in order, as the same values are searched at
            # a placement (``Values`` asks values of positions with their dice in order).
            searched = self._best_turn(
                codes,
                tuple(sorted(_adjusted(state.dice, action))),
                min_required,
                state.difficulty.base_minimum,
                later,
            )
            if searched[0] - cost > best_value:
                best_action, best_value = action, searched[0] - cost
        rerolls = [o for o in options if isinstance(o[0], Reroll)][:1]
        for action, gain in rerolls:
            if gain - now > cost and value_now + gain - now - cost > best_value:
                best_action, best_value = action, value_now + gain - now - cost
        if best_action is None:
            return None
        return Advice(best_action, (), best_value + cost - penalty - state.power_penalty)

    def _sorted_options(
        self, state: GameState, codes: Codes, worth: Callable[[tuple[int, ...]], float]
    ) -> list[tuple[Action, float]]:
        """:meth:`_power_options`, the best first (read only, never changed by a caller); of
        equal worth, by the dice they leave, so that which are searched does not hang on the
        dice's order in the tray. Memoised by the board, the minimum and the dice, all they
        depend on: a review's exact means ask the same dice on the same board again with each
        Power use made (4–5 times)."""
        key = (codes, state.min_required, state.dice)
        found = self._options.get(key)
        if found is None:
            if len(self._options) > 5_000:
                self._options.clear()
            options = self._power_options(state, codes, worth)
            found = self._options[key] = [
                (action, worth_of) for worth_of, _, action in sorted(options, key=_best_first)
            ]
        return found

    def _power_options(
        self, state: GameState, codes: Codes, worth: Callable[[tuple[int, ...]], float]
    ) -> Iterator[tuple[float, tuple[int, ...], Action]]:
        """Each Power use the engine allows now, with the worth of the dice it leaves (a reroll's
        expected over its outcomes) and those dice (sorted; a reroll's kept and rolled values):
        uses that leave the same values are weighed once."""
        dice = state.dice
        tried: set[tuple[int, ...]] = set()
        for action in state.legal_actions():
            if isinstance(action, Adjust):
                after = _adjusted(dice, action)
                left = (0, *sorted(after))
                if left not in tried:
                    tried.add(left)
                    yield worth(after), left, action
            elif isinstance(action, Reroll):
                chosen = action.dice
                kept = tuple(sorted(dice[d] for d in range(len(dice)) if d not in chosen))
                rolled = tuple(sorted(dice[d] for d in chosen))
                left = (1, *kept, 0, *rolled)
                if left not in tried:
                    tried.add(left)
                    yield self._reroll_worth(state, codes, kept, len(chosen)), left, action

    def _dice_worth(self, state: GameState, codes: Codes) -> Callable[[tuple[int, ...]], float]:
        """The evaluated worth of the turn's best board for any four dice values."""
        by_roll = self._worth_by_roll(codes, state.min_required)
        return lambda values: by_roll[_INDEX[tuple(sorted(values))]]

    def _worth_by_roll(self, codes: Codes, min_required: int) -> list[float]:
        """For each of the 126 rolls, the evaluated worth of its best board (a RUIN's when it
        places nothing)."""
        key = (codes, min_required)
        found = self._worths.get(key)
        if found is None:
            if len(self._worths) > 2_000:
                self._worths.clear()
            best, ruin, _ = self._evaluated_by_roll(codes, min_required)
            found = [ruin if v is None else v for v in best]
            self._worths[key] = found
        return found

    def _evaluated_by_roll(
        self, codes: Codes, min_required: int
    ) -> tuple[list[float | None], float, list[int]]:
        """For each of the 126 rolls, the best evaluation of a board placing exactly
        ``min_required`` of its dice (None: none can), the best board with a new RUIN, and the
        rolls that place nothing (``rescue.gaps_of``: every penalty's mean reads them).
        Memoised by the board and the minimum (read only, never changed by a caller)."""
        key = (codes, min_required)
        found = self._evaluated.get(key)
        if found is None:
            if len(self._evaluated) > 4_000:  # 126 values each: a few MB at most
                self._evaluated.clear()
            evaluate = self.evaluate
            table = extension_table(codes, min_required, min_required, evaluate)
            ruin = max(evaluate(board) for board in ruin_boards(codes))
            best = best_by_roll(table)
            found = self._evaluated[key] = best, ruin, gaps_of(best)
        return found

    def _reroll_worth(
        self, state: GameState, codes: Codes, kept: tuple[int, ...], count: int
    ) -> float:
        """The expected worth of the dice after rerolling ``count`` of them, ``kept`` (sorted)
        kept (``_reroll_worth``), memoised by the board and the dice."""
        key = (codes, state.min_required, kept, count)
        found = self._rerolled.get(key)
        if found is None:
            if len(self._rerolled) > 20_000:
                self._rerolled.clear()
            worth = self._dice_worth(state, codes)
            found = self._rerolled[key] = _reroll_worth(worth, kept, count)
        return found

    # ----- a reroll's value, for any dice (the review's chance node: bots/value.py) ----------

    def reroll_value(self, state: GameState, dice: tuple[int, ...]) -> float:
        """The expected final score of rerolling the tray ``dice`` of ``state`` (phase place or
        magdagdon, a Power use left), as :meth:`_power` values a reroll when it weighs one: the
        turn's value now, plus the expected change of the dice's evaluated worth, less the
        reroll's penalty and the penalties already paid. Any choice of dice, not only the bot's:
        so a review can value the player's reroll the way the bot valued its own."""
        self._tune_for(state.difficulty)
        penalty = state.next_penalty
        if penalty is None:
            raise ValueError("no Power use is left to reroll with")
        codes = codes_of(state)
        base = state.difficulty.base_minimum
        value_now = self._best_turn(codes, state.dice, state.min_required, base, penalty)[0]
        worth = self._dice_worth(state, codes)
        kept = tuple(sorted(v for d, v in enumerate(state.dice) if d not in dice))
        gain = self._reroll_worth(state, codes, kept, len(dice))
        return value_now + gain - worth(state.dice) - penalty - state.power_penalty


def _key(codes: Codes, base_minimum: int, penalty: int | None) -> tuple[Codes, int, int]:
    """:meth:`ExpectimaxBot.after_turn`'s memo key (-1: no use left)."""
    return codes, base_minimum, -1 if penalty is None else penalty


def _best_of(boards: Collection[Codes], evaluate: Evaluator, width: int) -> list[Codes]:
    """The ``width`` best of ``boards`` by ``evaluate``, the best last."""
    ranked = sorted(zip(map(evaluate, boards), boards, strict=True))
    return [board for _, board in ranked[-width:]]


def _best_first(option: tuple[float, tuple[int, ...], Action]) -> tuple[float, tuple[int, ...]]:
    """The order of Power options: the highest worth first, then by the dice they leave."""
    return -option[0], option[1]


def _reroll_worth(
    worth: Callable[[tuple[int, ...]], float], kept: tuple[int, ...], count: int
) -> float:
    """The expected worth of the dice after rerolling ``count`` of them, ``kept`` (sorted) kept."""
    return roll_expectation(count, lambda values: worth(kept + values))


def _adjusted(dice: tuple[int, ...], action: Adjust) -> tuple[int, ...]:
    """The dice after ``action`` (one the engine allows)."""
    value = adjusted(dice[action.die], action.delta)
    assert value is not None
    return (*dice[: action.die], value, *dice[action.die + 1 :])


_INDEX = {values: i for i, values in enumerate(ROLL_VALUES)}


register("expectimax", ExpectimaxBot)
