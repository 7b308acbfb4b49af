"""The exact end's sums written the faster way are the same floats: each roll's value with its
best Power and the reroll means, and each use's boards walked once for every use, against the
loops and walks as they were written before (kept here)."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

import pytest

from magdagdon.bots.endgame import _REROLLED, KEPT, Endgame
from magdagdon.bots.planner import ONE_CHANGE, ROLL_CHANCES, best_by_roll, extension_table
from magdagdon.engine import Difficulty, rules
from magdagdon.engine.board_codes import ruin_boards

if TYPE_CHECKING:
    from magdagdon.engine.board_codes import Codes


def _boards(empties: int, count: int, seed: int) -> list[Codes]:
    """Boards with ``empties`` empty cells, the others numbers or a RUIN at random."""
    rng = random.Random(seed)
    boards = []
    for _ in range(count):
        codes = [rng.choice((1, 2, 3, 3, 4, 4, 5, 6, 7)) for _ in range(16)]
        for cell in rng.sample(range(16), empties):
            codes[cell] = 0
        boards.append(tuple(codes))
    return boards


class _Before(Endgame):
    """The exact end with the sums as they were written before."""

    def roll_value(self, codes: Codes, used: int) -> float:
        if 0 not in codes:
            return super().roll_value(codes, used)
        key = (codes, used)
        found = self._rolls.get(key)
        if found is None:
            by_roll = self.dice_values(codes, used)
            found = sum(c * v for c, v in zip(ROLL_CHANCES, by_roll, strict=True))
            self._rolls[key] = found
        return found

    def dice_values(self, codes: Codes, used: int) -> list[float]:
        key = (codes, used)
        found = self._dice.get(key)
        if found is not None:
            return found
        values = self._placed_before(codes, used)
        if used < len(self.penalties):
            penalty = self.penalties[used]
            after = self.dice_values(codes, used + 1)
            rerolled = {
                keep: sum(chance * after[j] for j, chance in outcomes)
                for keep, outcomes in _REROLLED.items()
            }
            for i, best in enumerate(values):
                for j in ONE_CHANGE[i]:
                    if after[j] - penalty > best:
                        best = after[j] - penalty
                for keep in KEPT[i]:
                    if rerolled[keep] - penalty > best:
                        best = rerolled[keep] - penalty
                values[i] = best
        self._dice[key] = values
        return values

    def reroll_value(self, codes: Codes, used: int, kept: tuple[int, ...]) -> float:
        after = self.dice_values(codes, used + 1)
        return sum(chance * after[j] for j, chance in _REROLLED[kept])

    def _placed_before(self, codes: Codes, used: int) -> list[float]:
        """Each use's boards walked again, their best by roll read roll by roll."""
        empties = codes.count(0)
        low = rules.min_required(self.base, empties)
        table = extension_table(codes, low, min(empties, 4), lambda b: self.roll_value(b, used))
        ruin = max(self.roll_value(board, used) for board in ruin_boards(codes))
        return [ruin if v is None else v for v in best_by_roll(table)]


@pytest.mark.parametrize("difficulty", list(Difficulty))
@pytest.mark.parametrize("empties", [1, 2, 3])
def test_the_exact_end_is_the_one_before(difficulty: Difficulty, empties: int) -> None:
    now, before = Endgame(difficulty), _Before(difficulty)
    for codes in _boards(empties, 6, seed=empties):
        for used in range(len(difficulty.penalties) + 1):
            assert now.dice_values(codes, used) == before.dice_values(codes, used)
            assert now.roll_value(codes, used) == before.roll_value(codes, used)
            if used < len(difficulty.penalties):
                for kept in ((), (3,), (2, 5), (1, 4, 4)):
                    assert now.reroll_value(codes, used, kept) == before.reroll_value(
                        codes, used, kept
                    )
