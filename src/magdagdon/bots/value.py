"""V(s): the computer player's expected final score from a state, with its own play
(docs/rules.md "Modes and records", Review). One function answers the hint's ``expected_value``,
the game review and the computer's figure in STATISTIKA, so a review's values are the hint's for
the same states and following every hint gives up nothing.

Near the end of a game (``endgame.EXACT_UPTO`` empty cells or fewer) V is exact: the whole tree of
rolls, placements, RUINs and Powers to the end (``bots/endgame.py``), which the computer also
plays. Before that V is the look-ahead's own value, which ranks the boards of a turn well but is
no expected final score, made one by an offset fitted on the computer's own games
(``bots/value_calibration.py``, ``bench/calibration_bench.py``): the mean of the final score less
the look-ahead's value, by the empty cells, the Power uses left and the RUINs on the board in each
stage of the game, fitted on the computer's own games and on games it took over from a bad player
(``bots/risky.py``), whose RUIN-heavy boards the look-ahead values high; a correction by
the board (``bots/value_board.py``), fitted so that V before a roll stands nearer the mean of V
over its outcomes, on the computer's own boards and on those a bad or a random player leaves;
and one count of empty cells before the exact end, where that gap was widest (and the counts
before that: 6 and 7 empty cells on PEACEFUL and SURVIVAL, 7 to 10 on NIGHTMARE), a correction
fitted to that mean itself, board by board (``bots/value_edge.py``).
The look-ahead's choices do not change with them.

By the kind of state:

- phase ``over``: the final score;
- a dead board (``board_codes.dead``: no die can be staged on it again), at any stage: exact, the
  board with every empty cell a RUIN (``walled_in``), since every roll to the end is a MAGDAGDON;
  the look-ahead valued such boards a bad player walls in 60–70 points high;
- phase ``roll`` (a chance node: the dice are about to fall): the expectation over the 126
  outcomes (``expected_before_roll``), plus the offset of its board and its correction by the
  board;
- phase ``place`` / ``magdagdon`` (a decision): V of the state that following the bot's advice
  leads to: after a placement or a RUIN, the next turn's phase roll; after BAWAS −1 / DAGDAG +1,
  the state after it (at most as deep as the Power uses left); after I-ROLL ULIT of dice D, the
  reroll node (s, D);
- a reroll node (s, D) (the chosen dice are in the air): the exact mean of V over its outcomes
  (a chance node true at its step: the look-ahead's own estimate, ``reroll_value``, stood up to
  ±90 points from it). The hint's ``Values`` keeps that estimate plus the offset of rerolls at
  that stage of the game with that many Power uses left (``exact_rerolls=False``): the mean costs
  0.1–1.5 s, a hint has 150 ms. So a review's value differs from the hint's where the computer's
  choice is a Power whose chain ends in an I-ROLL ULIT, and there only.

A decision state is valued with nothing staged: the bot plans a turn from the permanent board and
the dice, but weighs Powers only on the dice in the tray, so a position's value must not move
while the player stages and returns dice (they are no steps of a review).
"""

from __future__ import annotations

from operator import attrgetter
from typing import TYPE_CHECKING, NamedTuple

from magdagdon.bots.advice import placed
from magdagdon.bots.advice import unstaged as unstaged  # the review's and the tests' too
from magdagdon.bots.endgame import EXACT_UPTO
from magdagdon.bots.expectimax import ExpectimaxBot
from magdagdon.bots.ordered import ordered_sum
from magdagdon.bots.value_board import correction
from magdagdon.bots.value_calibration import REROLL_OFFSETS, ROLL_OFFSETS
from magdagdon.bots.value_edge import edge_correction
from magdagdon.engine import OFF, Adjust, GameState, Phase, Reroll
from magdagdon.engine.board import RUIN_CODE
from magdagdon.engine.board_codes import EMPTY, dead
from magdagdon.engine.dice import roll_chances
from magdagdon.engine.scoring import score_codes

if TYPE_CHECKING:
    from magdagdon.bots.advice import Advice
    from magdagdon.engine import Difficulty
    from magdagdon.engine.board_codes import Codes


class Key(NamedTuple):
    """What a calibrated value's offset is looked up by (``offset``)."""

    difficulty: Difficulty
    reroll: bool  # a reroll node (else phase roll)
    empties: int
    powers_left: int
    ruins: int


def stage_of(empties: int) -> int:
    """The stage of the game by its empty cells: 0 for 16–13, 1 for 12–9, 2 for 8–5, 3 for 4–1.

    >>> [stage_of(e) for e in (16, 13, 12, 9, 8, 5, 4, 1)]
    [0, 0, 1, 1, 2, 2, 3, 3]
    """
    return min(3, (16 - empties) // 4)


def offset(key: Key) -> float:
    """The fitted offset of the look-ahead's value at ``key``: phase roll by empty cells, by
    Power uses left, and by the RUINs on the board (1, 2, 3 or more) in each stage of the game
    (one term each); a reroll node by the stage of the game and the Power uses left."""
    stage = stage_of(key.empties)
    if key.reroll:
        return REROLL_OFFSETS[key.difficulty][stage][key.powers_left]
    by_empties, by_powers, by_ruins = ROLL_OFFSETS[key.difficulty]
    return by_empties[key.empties] + by_powers[key.powers_left] + by_ruins[stage][min(key.ruins, 3)]


def walled_in(codes: Codes, power_penalty: int) -> float:
    """The final score from a dead board (``board_codes.dead``): every roll to the end is a
    MAGDAGDON and every empty cell a RUIN, whatever the dice; the computer uses no Power there
    (none can place a die), so V is this, exactly, at any stage of the game."""
    return float(
        score_codes([RUIN_CODE if code == EMPTY else code for code in codes], power_penalty).total
    )


def after_advice(state: GameState, advice: Advice) -> GameState:
    """The state that following ``advice`` (a placement or a RUIN) at ``state`` leads to."""
    if not advice.placement:
        return state.apply(advice.action)
    return placed(state, advice.placement)


class Value(NamedTuple):
    """V of a state, as the look-ahead's value, its offset (``key`` None: exact) and a phase
    roll's correction by the board (``bots/value_board.py``)."""

    raw: float
    key: Key | None
    by_board: float = 0.0

    @property
    def value(self) -> float:
        return self.raw if self.key is None else self.raw + offset(self.key) + self.by_board


def by_board(codes: Codes, key: Key) -> float:
    """The correction by the board of a phase roll on ``codes`` before the exact end, whose
    offset is at ``key`` (0 where its difficulty has none), and at the edge of the exact end its
    correction there (``bots/value_edge.py``)."""
    found = correction(key.difficulty)
    edge = edge_correction(key.difficulty, codes, key.empties, key.powers_left)
    if found is None:
        return edge
    return found(codes, key.empties, stage_of(key.empties), key.powers_left, key.ruins) + edge


#: What the bot's decision at a state (nothing staged) depends on: its identity without its seed,
#: the dice drawn so far and the turn's number. The same position is met again along other paths
#: (a roll's outcome, the same dice after another die was rerolled), with the same value and
#: advice to the bit.
_position = attrgetter("difficulty", "phase", "board", "dice", "powers_used", "min_required")
_ANY_ORDER = attrgetter("difficulty", "phase", "board", "powers_used", "min_required")


def _alike(position: GameState) -> tuple[object, ...]:
    """What V alone depends on: the position with its dice's values in any order (the order
    decides nothing, ``tests/bots/test_dice_order.py``; the advice names dice by their places)."""
    return (*_ANY_ORDER(position), tuple(sorted(position.dice)))


def in_order(position: GameState) -> GameState:
    """``position`` (nothing staged) with its dice sorted: the one position of all its orders
    that a value alone is asked at. A reroll's outcomes lie in the tray's order (the kept dice
    where they were), and the look-ahead keys its boards, Power options and plans by the tray,
    which its plans name dice by: asked in one order, the same dice on the same board, met at
    each Power use left, are searched once instead of once an order."""
    dice = tuple(sorted(position.dice))
    if dice == position.dice:
        return position
    return GameState(
        position.difficulty,
        position.seed,
        draws=position.draws,
        phase=position.phase,
        turn=position.turn,
        board=position.board,
        dice=dice,
        staged=(OFF,) * len(dice),
        powers_used=position.powers_used,
        min_required=position.min_required,
    )


_BEFORE_REROLL = attrgetter("difficulty", "board", "powers_used", "min_required")


class Values:
    """V(s) with one bot (and its caches); memoised by position, so a review and its summary ask
    the search once a state. Not thread-safe: one per thread, or behind a lock."""

    def __init__(
        self, bot: ExpectimaxBot | None = None, *, memo: int = 4096, exact_rerolls: bool = True
    ) -> None:
        """``exact_rerolls`` False: a reroll node before the exact end is the look-ahead's
        estimate and its offset (the hint's: the mean costs 0.1–1.5 s), not the mean."""
        self.bot = bot or ExpectimaxBot()
        # A review's exact means ask the look-ahead's end values with every later penalty: its
        # own bot fills them from one walk (``position``), a bot shared with the hint does not.
        self._fills = bot is None and exact_rerolls
        if self._fills:
            self.bot.penalties_from = 0
        self.exact_rerolls = exact_rerolls
        self._memo: dict[tuple[object, ...], tuple[Value, Advice | None]] = {}
        # V by the position in any order of its dice: an exact mean's outcomes meet the same
        # values in other orders (a roll's sorted, a reroll's with the kept dice where they lie).
        self._values: dict[tuple[object, ...], Value] = {}
        self._rerolls: dict[tuple[object, ...], float] = {}
        self._limit = memo

    def position(self, state: GameState) -> None:
        """A review has come to ``state``: the look-ahead's end values are filled for the
        penalties of its Power uses still to come only (those of the uses made are asked no more).
        Values are the same whatever was filled."""
        if self._fills:
            self.bot.penalties_from = state.powers_used

    def of(self, state: GameState) -> float:
        """V(state)."""
        return self._value(state).value

    def _value(self, state: GameState) -> Value:
        """V(state) in its parts, without the advice (looked up in any order of the dice)."""
        if state.phase is Phase.OVER or state.phase is Phase.ROLL:
            return self.explain(state)[0]
        position = unstaged(state)
        found = self._values.get(_alike(position))
        if found is None:
            found = self.explain(in_order(position))[0]
        return found

    def advice(self, state: GameState) -> Advice:
        """The bot's advice at the position of ``state`` (phase place or magdagdon), nothing
        staged: the computer's choice a review shows beside the player's."""
        found = self.judge(state)[1]
        if found is None:
            raise ValueError(f"no decision to advise in phase {state.phase.value}")
        return found

    def judge(self, state: GameState) -> tuple[float, Advice | None]:
        """V(state), and the bot's advice when ``state`` is a decision."""
        found, advice = self.explain(state)
        return found.value, advice

    def after_reroll(self, state: GameState, dice: tuple[int, ...]) -> float:
        """V of the reroll node: the tray ``dice`` of ``state`` chosen to I-ROLL ULIT."""
        return self.reroll(state, dice).value

    def expected(self, state: GameState, dice: tuple[int, ...] | None = None) -> float:
        """The exact mean of V over the outcomes of a chance node: the ROLL of ``state`` (phase
        roll), or its I-ROLL ULIT of the tray ``dice``. Near the end V is exact and already that
        mean; before it, 126 (or fewer) decisions are valued, so only a review asks."""
        if dice is None:
            if state.phase is not Phase.ROLL or self._exact(state):
                return self.of(state)
            outcomes = roll_chances(4)
            return ordered_sum(chance * self.of(state.roll_with(v)) for v, chance in outcomes)
        if self._exact(state) or self.exact_rerolls:
            return self.after_reroll(state, dice)
        outcomes = roll_chances(len(dice))
        return ordered_sum(chance * self.of(state.reroll_with(dice, v)) for v, chance in outcomes)

    @staticmethod
    def _exact(state: GameState) -> bool:
        codes = tuple(state.codes())
        return codes.count(EMPTY) <= EXACT_UPTO[state.difficulty] or dead(codes)

    def explain(self, state: GameState) -> tuple[Value, Advice | None]:
        """V(state) in its parts, and the bot's advice when ``state`` is a decision."""
        if state.phase is Phase.OVER:
            return Value(float(state.score().total), None), None
        if state.phase is Phase.ROLL:
            return self._roll(state), None
        position = unstaged(state)
        key = _position(position)
        found = self._memo.get(key)
        if found is None:
            if len(self._memo) >= self._limit:
                self._memo.clear()
                self._values.clear()
            found = self._memo[key] = self._decision(position)
            self._values[_alike(position)] = found[0]
        return found

    def reroll(self, state: GameState, dice: tuple[int, ...]) -> Value:
        """V of the reroll node of ``dice`` at ``state``, in its parts."""
        position = unstaged(state)
        codes = tuple(position.codes())
        difficulty = position.difficulty
        empties = codes.count(EMPTY)
        if empties <= EXACT_UPTO[difficulty] or dead(codes):
            penalty = position.next_penalty
            if penalty is None:
                raise ValueError("no Power use is left to reroll with")
            if empties > EXACT_UPTO[difficulty]:  # the dice in the air change nothing
                return Value(walled_in(codes, position.power_penalty + penalty), None)
            kept = tuple(sorted(v for d, v in enumerate(position.dice) if d not in dice))
            found = self.bot.endgame(difficulty).reroll_value(codes, position.powers_used, kept)
            return Value(found - penalty - position.power_penalty, None)
        if self.exact_rerolls:
            return Value(self._mean_of_reroll(position, dice), None)
        key = Key(difficulty, True, empties, position.powers_left, codes.count(RUIN_CODE))
        return Value(self.bot.reroll_value(position, dice), key)

    def _mean_of_reroll(self, position: GameState, dice: tuple[int, ...]) -> float:
        """The exact mean of V over the outcomes of rerolling ``dice`` at ``position``, memoised
        by the position with the rerolled dice's values left out (they are in the air)."""
        kept = tuple(0 if d in dice else v for d, v in enumerate(position.dice))
        key = (*_BEFORE_REROLL(position), kept)
        found = self._rerolls.get(key)
        if found is None:
            outcomes = roll_chances(len(dice))
            found = ordered_sum(
                chance * self.of(position.reroll_with(dice, v)) for v, chance in outcomes
            )
            if len(self._rerolls) >= self._limit:
                self._rerolls.clear()
            self._rerolls[key] = found
        return found

    def _roll(self, state: GameState) -> Value:
        codes = tuple(state.codes())
        difficulty = state.difficulty
        empties = codes.count(EMPTY)
        if empties <= EXACT_UPTO[difficulty]:
            exact = self.bot.endgame(difficulty).roll_value(codes, state.powers_used)
            return Value(exact - state.power_penalty, None)
        if dead(codes):
            return Value(walled_in(codes, state.power_penalty), None)
        key = Key(difficulty, False, empties, state.powers_left, codes.count(RUIN_CODE))
        return Value(self.bot.expected_before_roll(state), key, by_board(codes, key))

    def _decision(self, state: GameState) -> tuple[Value, Advice]:
        advice = self.bot.advise(state)
        action = advice.action
        if isinstance(action, Adjust):
            return self._value(state.apply(action)), advice
        if isinstance(action, Reroll):
            return self.reroll(state, action.dice), advice
        return self._value(after_advice(state, advice)), advice


def next_roll(values: Values, state: GameState) -> GameState | None:
    """The phase roll the computer's choice at ``state`` (a decision) leads to, through its
    BAWAS −1 / DAGDAG +1; None where it ends the game or rerolls (a reroll node, whose V is the
    exact mean over its outcomes): where a review shows V before a roll after that choice."""
    while True:
        advice = values.explain(state)[1]
        if advice is None or isinstance(advice.action, Reroll):
            return None
        if not isinstance(advice.action, Adjust):
            after = after_advice(state, advice)
            return after if after.phase is Phase.ROLL else None
        state = state.apply(advice.action)
