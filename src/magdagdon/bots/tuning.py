"""The board evaluation's weights for each difficulty, tuned with ``magdagdon simulate``.

Both bots that evaluate boards use them: ``expectimax`` at the leaves of its look-ahead, ``greedy``
on the boards the turn can leave (on 400 games of seed 1, the tuned weights against the defaults:
NIGHTMARE 198.2 against 185.3, SURVIVAL 301.3 against 284.0), with a learned correction.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from magdagdon.bots.calibration import CALIBRATION
from magdagdon.bots.evaluate import Evaluator, Weights
from magdagdon.engine import Difficulty

if TYPE_CHECKING:
    from collections.abc import Mapping

_NARROW = (0.0, 16.0, 6.0, 1.0, 0.0, 0.0, 0.0)
#: A bonus counts by how narrow its line's open cells are: one that accepts a single value is as
#: good as filled (1,000 games over the share by open-cell count: SURVIVAL +10, NIGHTMARE +5).
_CELL_SHARE = (0.0, 1.0, 0.9, 0.85, 0.8, 0.75, 0.7)

WEIGHTS: dict[Difficulty, Weights] = {
    Difficulty.PEACEFUL: Weights(),
    # SURVIVAL: the calibration, conflicts and the frontier counted (with 20 boards searched
    # deeper, 1,000 games of seed 1, paired: 346.1, was 333.8, +12.4, se 2.3).
    Difficulty.SURVIVAL: Weights(
        narrow=_NARROW,
        cell_share=_CELL_SHARE,
        conflict=20.0,
        frontier=3.0,
        calibration=CALIBRATION[Difficulty.SURVIVAL],
    ),
    # NIGHTMARE: the calibration, paired: +2.4 (se 1.3) on 1,000 games of seed 1 (218.3), +2.9
    # (se 1.6) on 300 of seed 7. With the frontier (4.5) too: +9.3 (se 3.2) on seed 7 but −0.5
    # (se 1.7) on seed 1, so not that.
    Difficulty.NIGHTMARE: Weights(
        narrow=_NARROW,
        cell_share=_CELL_SHARE,
        calibration=CALIBRATION[Difficulty.NIGHTMARE],
    ),
}

#: The learned corrections (``bots/residual.py``, trained by ``bench/train_residual.py``) that
#: ``greedy`` adds to the evaluation. It looks one move deep, and the correction, trained on what
#: the boards it leaves came to, stands in for a look-ahead: NIGHTMARE 209.1 against 197.4 (1,000
#: games of seed 1; 206.1 with tables trained without the board's symmetries), SURVIVAL 326.0
#: against 300.2, PEACEFUL 324.8 against 286.4. ``expectimax`` adds half of its own
#: (``expectimax.LOOKAHEAD_RESIDUALS``).
RESIDUALS: Mapping[Difficulty, str] = {
    Difficulty.PEACEFUL: "peaceful",
    Difficulty.SURVIVAL: "survival",
    Difficulty.NIGHTMARE: "nightmare",
}


def weights_for(
    difficulty: Difficulty, *, residual: float = 0.0, tables: Mapping[Difficulty, str] = RESIDUALS
) -> Weights:
    """The tuned weights of ``difficulty``, with this share of its learned correction (named by
    ``tables``), where it has one (0: without)."""
    weights = WEIGHTS[difficulty]
    if residual and difficulty in tables:
        weights = replace(weights, residual=tables[difficulty], residual_share=residual)
    return weights


class Evaluators:
    """One :class:`Evaluator` (with its memo) for each difficulty, made when first asked; with
    this share (``residual``) of the difficulty's learned correction (named by ``tables``)."""

    def __init__(
        self, *, residual: float = 0.0, tables: Mapping[Difficulty, str] = RESIDUALS
    ) -> None:
        self._residual = residual
        self._tables = tables
        self._made: dict[Difficulty, Evaluator] = {}

    def __getitem__(self, difficulty: Difficulty) -> Evaluator:
        found = self._made.get(difficulty)
        if found is None:
            weights = weights_for(difficulty, residual=self._residual, tables=self._tables)
            found = self._made[difficulty] = Evaluator(weights)
        return found
