"""The board evaluation spelled out with the engine's ``fit_masks``, one step after another:
the reference the bots' fast, written-out evaluation must equal to the bit."""

from __future__ import annotations

from magdagdon.bots.evaluate import _COMPATIBLE, _FRONTIER_FROM, _OPEN, _PAIRS, Evaluator
from magdagdon.bots.residual import load
from magdagdon.engine.board import RUIN_CODE
from magdagdon.engine.board_codes import ANY_VALUE, EMPTY, fit_masks, mask_values
from magdagdon.engine.rules import RUIN_PENALTY
from magdagdon.engine.scoring import LINES


def spelled_out(evaluate: Evaluator, codes: tuple[int, ...]) -> float:
    """``evaluate``'s value of ``codes``, each cell's mask, cost and line entry found anew."""
    weights = evaluate.weights
    entries = list(codes)
    empties = codes.count(EMPTY)
    penalty = float(RUIN_PENALTY * codes.count(RUIN_CODE))
    if weights.calibration is not None:
        penalty -= weights.calibration[empties]
    frontier = 0
    for cell, mask in enumerate(fit_masks(codes)):
        if mask < 0:
            continue
        if mask:
            entries[cell] = _OPEN + mask
            penalty += weights.narrow[len(mask_values(mask))]
            if mask != ANY_VALUE:
                frontier |= mask
        else:
            entries[cell] = RUIN_CODE
            penalty += RUIN_PENALTY
    if weights.frontier and empties >= _FRONTIER_FROM:
        penalty -= weights.frontier * len(mask_values(frontier))
    if weights.conflict:
        for a, b in _PAIRS:
            ea, eb = entries[a], entries[b]
            if ea > RUIN_CODE and eb > RUIN_CODE and not _COMPATIBLE[ea - _OPEN][eb - _OPEN]:
                penalty += weights.conflict
    total = -penalty
    for line in LINES:
        total += evaluate._line_value(tuple(entries[c] for c in line))
    if weights.residual is not None and empties:
        total += weights.residual_share * load(weights.residual).value(codes)
    return total
