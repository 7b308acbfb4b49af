"""The end of a game searched exactly: every remaining roll, placement, RUIN and Power, to the end.

With few empty cells left the whole tree is small enough to search: its values are the exact
expected final score with the best play, and its choices are that play. Two values, memoised by
the board and the Power uses made so far (``used``), both without the penalties already paid:

- ``roll_value(codes, used)``: before a ROLL, the expectation over the 126 rolls of four dice;
- ``dice_values(codes, used)``: for each of the 126 rolls (``planner.ROLL_VALUES`` order), the
  best of: placing at least the turn's minimum (the best board's ``roll_value``); a RUIN on the
  best cell, when no placement is possible; and, while uses remain, BAWAS −1 / DAGDAG +1 on one
  die or I-ROLL ULIT of any dice, less the next penalty, valued with ``used + 1``.

The dice are interchangeable, so a roll is its sorted values. A Power changes tray dice only, and
a placement after it is the same as one before, so a turn's value needs no staged dice.
"""

from __future__ import annotations

from operator import mul
from typing import TYPE_CHECKING

from magdagdon.bots.ordered import ordered_sum
from magdagdon.bots.penalty_walk import best_by_multiset, boards_by_multiset, points
from magdagdon.bots.planner import (
    ONE_CHANGE,
    ROLL_CHANCES,
    ROLL_VALUES,
    extension_table,
    turn_plans,
)
from magdagdon.bots.rescue import by_roll
from magdagdon.engine import Action, Adjust, Difficulty, Reroll, Ruin, rules
from magdagdon.engine.board import RUIN_CODE
from magdagdon.engine.board_codes import EMPTY, Codes, ruin_boards
from magdagdon.engine.dice import roll_chances
from magdagdon.engine.rules import DELTAS, DICE_PER_ROLL, adjusted
from magdagdon.engine.scoring import board_points

if TYPE_CHECKING:
    from magdagdon.bots.planner import Placement

#: By difficulty, boards with at most this many empty cells are searched exactly (``docs/bots.md``
#: "V, a true expectation": the cost of each threshold). One more empty cell costs a cold search
#: of up to about 3 s with Powers left (PEACEFUL, SURVIVAL at 5) or 1 s (NIGHTMARE at 6).
EXACT_UPTO: dict[Difficulty, int] = {
    Difficulty.PEACEFUL: 4,
    Difficulty.SURVIVAL: 4,
    Difficulty.NIGHTMARE: 5,
}

INDEX: dict[tuple[int, ...], int] = {values: i for i, values in enumerate(ROLL_VALUES)}


def _kept(values: tuple[int, ...]) -> set[tuple[int, ...]]:
    """Every proper sub-multiset of a roll (sorted): what an I-ROLL ULIT can keep."""
    out: set[tuple[int, ...]] = set()
    for mask in range(1, 1 << DICE_PER_ROLL):  # at least one die rerolled
        out.add(tuple(v for d, v in enumerate(values) if not mask >> d & 1))
    return out


#: For each kept multiset: (index of the roll it becomes, chance) over the rerolled dice.
_REROLLED: dict[tuple[int, ...], tuple[tuple[int, float], ...]] = {}
for _size in range(DICE_PER_ROLL):
    for _keep, _ in roll_chances(_size) if _size else (((), 1.0),):
        _REROLLED[_keep] = tuple(
            (INDEX[tuple(sorted(_keep + rolled))], chance)
            for rolled, chance in roll_chances(DICE_PER_ROLL - _size)
        )
#: The same, as the rolls' indices and their chances apart (for ``ordered_sum(map(mul, …))``:
#: the same products added in the same order as a generator's, without a frame for each).
_REROLLED_APART: tuple[tuple[tuple[int, ...], tuple[int, ...], tuple[float, ...]], ...] = tuple(
    (keep, tuple(j for j, _ in outcomes), tuple(c for _, c in outcomes))
    for keep, outcomes in _REROLLED.items()
)
_INDICES = {keep: indices for keep, indices, _ in _REROLLED_APART}
_CHANCES = {keep: chances for keep, _, chances in _REROLLED_APART}
#: For each roll index, the multisets an I-ROLL ULIT can keep.
KEPT: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(sorted(_kept(values))) for values in ROLL_VALUES
)
#: For each roll index, its Powers as places in one list of values (``Endgame._powers``): the
#: rolls one BAWAS −1 / DAGDAG +1 away, then (after the 126 rolls) the rerolls of what it keeps.
_KEEP_AT = {keep: k for k, (keep, _, _) in enumerate(_REROLLED_APART)}
_POWERS: tuple[tuple[int, ...], ...] = tuple(
    (*ONE_CHANGE[i], *(len(ROLL_VALUES) + _KEEP_AT[keep] for keep in KEPT[i]))
    for i in range(len(ROLL_VALUES))
)
#: Values closer than this are a tie; a tie goes to the move without a Power.
_TIE = 1e-9


class Endgame:
    """The exact search of one difficulty, memoised (not thread-safe)."""

    def __init__(self, difficulty: Difficulty, *, memo: int = 300_000) -> None:
        self.difficulty = difficulty
        self.base = difficulty.base_minimum
        self.penalties = difficulty.penalties
        self._rolls: dict[tuple[Codes, int], float] = {}
        self._dice: dict[tuple[Codes, int], list[float]] = {}
        self._limit = memo

    # ----- values ----------------------------------------------------------------------------

    def roll_value(self, codes: Codes, used: int) -> float:
        """The expected final points of ``codes`` before a ROLL, less the penalties of the Powers
        still to be used (not those of the ``used`` ones)."""
        if EMPTY not in codes:
            return float(board_points(codes))
        key = (codes, used)
        found = self._rolls.get(key)
        if found is None:
            if len(self._rolls) > self._limit:
                self._rolls.clear()
            by_roll = self.dice_values(codes, used)
            found = ordered_sum(map(mul, ROLL_CHANCES, by_roll))
            self._rolls[key] = found
        return found

    def dice_values(self, codes: Codes, used: int) -> list[float]:
        """For each roll (``ROLL_VALUES`` order), its exact value with the best play."""
        found = self._dice.get((codes, used))
        if found is not None:
            return found
        # Each use's Powers are valued with the next use's values, so every later use is asked
        # too: the boards each multiset of dice leaves are walked once for them all.
        levels = [used]
        after: list[float] | None = None
        for later in range(used + 1, len(self.penalties) + 1):
            after = self._dice.get((codes, later))
            if after is not None:
                break
            levels.append(later)
        empties = codes.count(EMPTY)
        low, high = rules.min_required(self.base, empties), min(empties, DICE_PER_ROLL)
        # One use alone (always on NIGHTMARE) scores its boards as the walk meets them.
        groups = boards_by_multiset(codes, low, high) if len(levels) > 1 else None
        full = best_by_multiset(groups, points) if groups is not None and low == empties else None
        ruins = ruin_boards(codes)
        for level in reversed(levels):
            values = self._placed(codes, low, high, groups, ruins, level, full)
            if after is not None:
                penalty = self.penalties[level]
                at = self._powers(after).__getitem__
                for i, best in enumerate(values):
                    # The best Power, its penalty taken off once (x - penalty never falls as x
                    # rises, so this is the best of each less the penalty, to the last bit).
                    power = max(map(at, _POWERS[i])) - penalty
                    if power > best:
                        values[i] = power
            if len(self._dice) > self._limit:
                self._dice.clear()
            self._dice[(codes, level)] = after = values
        assert after is not None
        return after

    def reroll_value(self, codes: Codes, used: int, kept: tuple[int, ...]) -> float:
        """The value of rerolling all dice but ``kept`` (sorted values), before its penalty: the
        expectation over the outcomes, each played best with one more use made."""
        after = self.dice_values(codes, used + 1)
        return ordered_sum(map(mul, _CHANCES[kept], map(after.__getitem__, _INDICES[kept])))

    def _placed(
        self,
        codes: Codes,
        low: int,
        high: int,
        groups: dict[tuple[int, ...], list[Codes]] | None,
        ruins: list[Codes],
        used: int,
        full: dict[tuple[int, ...], float] | None = None,
    ) -> list[float]:
        """For each roll, the best board it can leave on ``codes`` placing ``low``–``high`` dice
        (``groups``, where walked already: the boards by the multiset they place; ``full``,
        where those are all full: each multiset's best points), or a RUIN's best of ``ruins``
        when it places nothing, with ``used`` uses made."""
        roll = self.roll_value

        def score(board: Codes) -> float:
            return roll(board, used)

        if full is not None:
            table = full
        elif groups is None:
            table = extension_table(codes, low, high, score)
        else:
            table = best_by_multiset(groups, score)
        return by_roll(table, max(map(score, ruins)))

    @staticmethod
    def _powers(after: list[float]) -> list[float]:
        """The values ``_POWERS`` points into: each roll's with one more use made (``after``),
        then each I-ROLL ULIT's, by what it keeps (one list: a Power's best is one ``max``)."""
        at = after.__getitem__
        return after + [
            ordered_sum(map(mul, chances, map(at, indices)))
            for _, indices, chances in _REROLLED_APART
        ]

    # ----- the best move ---------------------------------------------------------------------

    def best(
        self, codes: Codes, dice: tuple[int, ...], used: int, min_required: int
    ) -> tuple[float, Action | None, Placement]:
        """The best move for the roll ``dice`` (in die order) on ``codes``, with its value (the
        Power's penalty taken off): a placement (action None, the plan), a RUIN, or a Power.
        Near-ties go the same way whatever the dice's order in the tray: the dice are weighed
        by their values, lowest first."""
        value, action, placement = self._best_placement(codes, dice, used, min_required)
        if used < len(self.penalties):
            penalty = self.penalties[used]
            after = self.dice_values(codes, used + 1)
            order = sorted(range(len(dice)), key=dice.__getitem__)
            for die in order:
                v = dice[die]
                for delta in DELTAS:
                    w = adjusted(v, delta)
                    if w is None:
                        continue
                    changed = tuple(sorted((*dice[:die], w, *dice[die + 1 :])))
                    worth = after[INDEX[changed]] - penalty
                    if worth > value + _TIE:
                        value, action, placement = worth, Adjust(die, delta), ()
            for mask in range(1, 1 << len(dice)):
                chosen = tuple(sorted(d for i, d in enumerate(order) if mask >> i & 1))
                kept = tuple(sorted(v for d, v in enumerate(dice) if d not in chosen))
                rerolled = self.reroll_value(codes, used, kept) - penalty
                if rerolled > value + _TIE:
                    value, action, placement = rerolled, Reroll(chosen), ()
        return value, action, placement

    def _best_placement(
        self, codes: Codes, dice: tuple[int, ...], used: int, min_required: int
    ) -> tuple[float, Action | None, Placement]:
        plans = turn_plans(codes, dice, min_required)
        if plans:
            # Of boards of equal value, the greatest by its cells (not the first in die order).
            board = max(plans, key=lambda b: (self.roll_value(b, used), b))
            return self.roll_value(board, used), None, plans[board]
        cells = [c for c in range(len(codes)) if codes[c] == EMPTY]
        values = {c: self.roll_value(_ruined(codes, c), used) for c in cells}
        cell = max(cells, key=values.__getitem__)
        return values[cell], Ruin(cell), ()


def _ruined(codes: Codes, cell: int) -> Codes:
    return (*codes[:cell], RUIN_CODE, *codes[cell + 1 :])
