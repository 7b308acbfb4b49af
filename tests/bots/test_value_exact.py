"""V near the end of a game is exact (``bots/endgame.py``): checked against a brute force that asks
the engine itself for every legal action and every chance outcome, on literal boards and dice."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from magdagdon.bots.endgame import EXACT_UPTO
from magdagdon.bots.value import Values
from magdagdon.engine import Difficulty, GameState, Phase, Reroll, Stage, Unstage
from magdagdon.engine.board import from_codes
from magdagdon.engine.dice import roll_chances

if TYPE_CHECKING:
    from magdagdon.engine import Action


Memo = dict[tuple[object, ...], float]


def brute_force(state: GameState, memo: Memo) -> float:
    """The best expected final score from ``state``: every legal action but returning a die
    (staging in another order reaches every placement), every outcome of every roll. Memoised by
    what the future depends on (not the turn count or the dice stream's place)."""
    key = (state.phase, tuple(state.codes()), state.dice, state.staged, state.powers_used)
    found = memo.get(key)
    if found is not None:
        return found
    if state.phase is Phase.OVER:
        value = float(state.score().total)
    elif state.phase is Phase.ROLL:
        value = sum(p * brute_force(state.roll_with(v), memo) for v, p in state.chance_outcomes())
    else:
        value = float("-inf")
        for action in state.legal_actions():
            if not isinstance(action, Unstage):
                value = max(value, _after(state, action, memo))
    memo[key] = value
    return value


def _after(state: GameState, action: Action, memo: Memo) -> float:
    if isinstance(action, Reroll):
        outcomes = roll_chances(len(action.dice))
        return sum(p * brute_force(state.reroll_with(action.dice, v), memo) for v, p in outcomes)
    return brute_force(state.apply(action), memo)


def _board(rows: tuple[str, ...]) -> tuple[int, ...]:
    """Rows of digits, ``.`` an empty cell, ``x`` a RUIN."""
    return tuple(int(c) for c in "".join(rows).replace(".", "0").replace("x", "7"))


#: (difficulty, board, Power uses made, dice): small end games with literal dice.
CASES = [
    # NIGHTMARE, three empty cells, a roll that places only two dice on them
    (Difficulty.NIGHTMARE, ("3456", "4.65", "5654", ".5.3"), 0, (4, 5, 6, 1)),
    # NIGHTMARE, two empty cells: MAGDAGDON (no die fits): the RUIN's cell is the choice
    (Difficulty.NIGHTMARE, ("1234", "2345", "34.6", "456."), 0, (1, 1, 1, 2)),
    # SURVIVAL, two empty cells, the one Power use left: a bad roll a Power may save
    (Difficulty.SURVIVAL, ("3333", "4444", "55.5", "666."), 0, (1, 1, 2, 3)),
    # SURVIVAL, no Power left, a RUIN on the board already
    (Difficulty.SURVIVAL, ("x234", "2345", "3..6", "456."), 1, (4, 5, 5, 6)),
    # PEACEFUL, one empty cell, one Power use left (the 40-point one)
    (Difficulty.PEACEFUL, ("3456", "4565", "565.", "6543"), 2, (1, 1, 2, 2)),
    # PEACEFUL, one empty cell, the last use left: a four of a kind waits for a 5
    (Difficulty.PEACEFUL, ("4444", "3333", "555.", "6666"), 2, (1, 2, 6, 6)),
]


@pytest.mark.parametrize(("difficulty", "rows", "used", "dice"), CASES)
def test_exact_values_are_the_brute_force(
    difficulty: Difficulty, rows: tuple[str, ...], used: int, dice: tuple[int, ...]
) -> None:
    codes = _board(rows)
    assert 0 < codes.count(0) <= 3 <= EXACT_UPTO[difficulty]
    before = GameState(difficulty, 1, board=from_codes(list(codes)), powers_used=used)
    state = before.roll_with(dice)
    memo: Memo = {}
    values = Values()
    # V of the decision, of the roll before it, and the computer's move is the best one
    assert values.of(state) == pytest.approx(brute_force(state, memo), abs=1e-9)
    assert values.of(before) == pytest.approx(brute_force(before, memo), abs=1e-9)
    advice = values.advice(state)
    best = brute_force(state, memo)
    if advice.placement:
        after = state
        for die, cell in advice.placement:
            after = after.apply(Stage(die, cell))
        assert brute_force(after, memo) == pytest.approx(best, abs=1e-9)
    else:
        assert _after(state, advice.action, memo) == pytest.approx(best, abs=1e-9)


@pytest.mark.parametrize("difficulty", list(Difficulty), ids=lambda d: d.value)
def test_near_the_end_a_roll_s_value_is_the_mean_over_its_outcomes(difficulty: Difficulty) -> None:
    """In the exact region a chance node is the exact expectation of V over its 126 outcomes,
    so a roll's luck averages to zero."""
    codes = _board(("3456", "4565", "5.5.", "65.."))
    state = GameState(difficulty, 1, board=from_codes(list(codes)))
    values = Values()
    mean = sum(
        chance * values.of(state.roll_with(dice)) for dice, chance in state.chance_outcomes()
    )
    assert values.of(state) == pytest.approx(mean, abs=1e-9)
