"""The hint: the computer player's best action for a state, as the compute processes run it.

Only the engine and the bots are imported here, so that a compute process starts quickly (the
web stack stays in the server); the route (``api/routes_hint.py``) shapes the answer.
"""

from __future__ import annotations

import threading
from typing import Any

from magdagdon.bots.expectimax import ExpectimaxBot
from magdagdon.engine import Difficulty, GameState, Phase, Roll, action_to_json
from magdagdon.engine.codec import cell_to_json

_bot = ExpectimaxBot()  # one in each compute process, with its caches
_lock = threading.Lock()  # the bot's caches are not for two searches at once

Placement = list[tuple[int, list[int]]]  # (die, [row, column]) in staging order


def best(state: GameState) -> tuple[dict[str, Any], Placement, float]:
    """The hint for ``state`` (not over): the action, the placement and the expected value."""
    with _lock:
        if state.phase is Phase.ROLL:
            value = _bot.expected_before_roll(state)
            return action_to_json(Roll()), [], round(value, 2)
        advice = _bot.advise(state)
    placement = [(die, list(cell_to_json(cell))) for die, cell in advice.placement]
    return action_to_json(advice.action), placement, round(advice.expected_value, 2)


def warm() -> None:
    """Run once in each compute process: the bot's tables of every difficulty."""
    for difficulty in Difficulty:
        best(GameState.new(difficulty, 0))
