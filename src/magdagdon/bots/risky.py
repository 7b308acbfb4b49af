"""A bad player on purpose: every turn it places for the highest chance of a MAGDAGDON on the next
roll (the lower numbers on a tie), never uses a Power and puts each RUIN on the first empty cell.
Its boards are unlike the computer's own (RUIN-heavy), so the review's luck and V's calibration
are checked, and V's offsets fitted, on them too (``bench/review_luck_bench.py``,
``bench/calibration_bench.py``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from magdagdon.bots.base import play_turns
from magdagdon.bots.planner import magdagdon_chance, turn_plans
from magdagdon.engine import Confirm, GameState, Phase, Roll, Ruin, Stage, rules
from magdagdon.engine.board_codes import EMPTY

if TYPE_CHECKING:
    from magdagdon.engine import Action, Difficulty
    from magdagdon.engine.board_codes import Codes


def risk(board: Codes, difficulty: Difficulty) -> float:
    """The chance that the next roll on ``board`` is a MAGDAGDON."""
    empties = board.count(EMPTY)
    if not empties:
        return 0.0
    return magdagdon_chance(board, rules.min_required(difficulty.base_minimum, empties))


def risky_turn(state: GameState) -> list[Action]:
    """The bad player's actions at ``state``: a ROLL, a RUIN, or a whole placement and
    KUMPIRMAHIN."""
    if state.phase is Phase.ROLL:
        return [Roll()]
    if state.phase is Phase.MAGDAGDON:
        return [Ruin(state.empty_cells()[0])]
    plans = turn_plans(tuple(state.codes()), state.dice, state.min_required)
    board = max(plans, key=lambda b: (risk(b, state.difficulty), -sum(x for x in b if 0 < x < 7)))
    return [*(Stage(die, cell) for die, cell in plans[board]), Confirm()]


def risky_game(difficulty: Difficulty, seed: int) -> list[Action]:
    """The bad player's whole game of ``seed``: its action log."""
    return play_turns(GameState.new(difficulty, seed), risky_turn)
