"""The ``greedy`` bot: the turn's placement with the best board evaluation (the weights tuned for
the difficulty, and its learned correction where there is one); no Powers."""

from __future__ import annotations

from typing import TYPE_CHECKING

from magdagdon.bots.advice import Advice, TurnBot, codes_of, next_step
from magdagdon.bots.base import register
from magdagdon.bots.planner import turn_plans
from magdagdon.bots.tuning import Evaluators
from magdagdon.engine import GameState, Phase, Ruin
from magdagdon.engine.board import RUIN_CODE
from magdagdon.engine.board_codes import put

if TYPE_CHECKING:
    from magdagdon.bots.evaluate import Evaluator


class GreedyBot(TurnBot):
    """Looks one turn ahead: every distinct placement of the roll, scored by :class:`Evaluator`."""

    name = "greedy"

    def __init__(self, evaluate: Evaluator | None = None) -> None:
        """``evaluate`` overrides the tuned evaluation of every difficulty."""
        super().__init__()
        self._evaluators = Evaluators(residual=1.0)
        self._fixed = evaluate

    def advise(self, state: GameState) -> Advice:
        evaluate = self._fixed or self._evaluators[state.difficulty]
        codes = codes_of(state)
        if state.phase is Phase.MAGDAGDON:
            cells = state.empty_cells()
            values = {cell: evaluate(put(codes, cell, RUIN_CODE)) for cell in cells}
            cell = max(cells, key=values.__getitem__)
            return Advice(Ruin(cell), (), values[cell] - state.power_penalty)
        plans = turn_plans(codes, state.dice, state.min_required)
        board = max(plans, key=evaluate)
        placement = plans[board]
        return Advice(next_step(state, placement), placement, evaluate(board) - state.power_penalty)


register("greedy", GreedyBot)
