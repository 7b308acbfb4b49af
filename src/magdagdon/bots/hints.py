"""The hint: the computer player's best action for a state, as the compute processes run it.

Only the engine and the bots are imported here, so that a compute process starts quickly (the
web stack stays in the server); the route (``api/routes/hint.py``) shapes the answer.
"""

from __future__ import annotations

import threading
from typing import Any

from magdagdon.bots.advice import as_staged
from magdagdon.bots.expectimax import ExpectimaxBot
from magdagdon.bots.value import Values
from magdagdon.engine import Difficulty, GameState, Roll, action_to_json
from magdagdon.engine.codec import cell_to_json

_bot = ExpectimaxBot()  # one in each compute process, with its caches
# V(s), the review's values (bots/value.py), but a reroll node is the look-ahead's estimate: its
# exact mean would cost a hint 0.1–1.5 s.
_values = Values(_bot, exact_rerolls=False)
_lock = threading.Lock()  # the bot's caches are not for two searches at once

Placement = list[tuple[int, list[int]]]  # (die, [row, column]) in staging order


def best(state: GameState) -> tuple[dict[str, Any], Placement, float]:
    """The hint for ``state`` (not over): the action, the placement and V(state), the expected
    final score of following the advice (of a Power: its whole chain)."""
    with _lock:
        value, advice = _values.judge(state)
        if advice is None:  # phase roll
            return action_to_json(Roll()), [], round(value, 2)
        advice = as_staged(state, advice)  # the turn's advice, from the dice as staged
    placement = [(die, list(cell_to_json(cell))) for die, cell in advice.placement]
    return action_to_json(advice.action), placement, round(value, 2)


def bot() -> ExpectimaxBot:
    """This process's computer player (its caches are the hint's)."""
    return _bot


def warm() -> None:
    """Run once in each compute process: the bot's tables of every difficulty."""
    for difficulty in Difficulty:
        best(GameState.new(difficulty, 0))
