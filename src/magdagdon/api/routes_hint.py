"""``GET /api/games/{id}/hint``: the computer player's best action for the game's current state.

The answer carries the next action, the whole recommended placement of this turn (die and cell, in
staging order) and the expected final score. Asking counts a hint in the game (SPEC "Hints": not
in phase ``roll``, where I-ROLL is the only move).
"""

import threading
from typing import Any

from fastapi import APIRouter

from magdagdon import games
from magdagdon.api.deps import CallerDep, StoreDep
from magdagdon.api.responses import Hint, PlacementStep, error_responses
from magdagdon.bots.expectimax import ExpectimaxBot
from magdagdon.engine import GameState, Phase, Roll, action_to_json
from magdagdon.engine.codec import cell_to_json
from magdagdon.engine.errors import GameOverError

router = APIRouter(prefix="/api/games", tags=["hint"])

_bot = ExpectimaxBot()
_lock = threading.Lock()  # the bot's caches are shared by every request


def best_hint(state: GameState) -> tuple[dict[str, Any], list[PlacementStep], float]:
    """The hint for ``state`` (not over): the action, the placement and the expected value."""
    with _lock:
        if state.phase is Phase.ROLL:
            value = _bot.expected_before_roll(state)
            return action_to_json(Roll()), [], round(value, 2)
        advice = _bot.advise(state)
    placement = [PlacementStep(die=die, cell=cell_to_json(cell)) for die, cell in advice.placement]
    return action_to_json(advice.action), placement, round(advice.expected_value, 2)


@router.get("/{game_id}/hint", responses=error_responses(404, 409))
def hint(game_id: str, store: StoreDep, caller: CallerDep) -> Hint:
    """The best action now; 409 ``game_over`` once the game has ended. Counts one hint, except
    in phase ``roll``."""
    game = caller.game(game_id)
    if game.state.phase is Phase.OVER:
        raise GameOverError("the game is over; there is nothing left to hint")
    action, placement, value = best_hint(game.state)
    games.hint_given(store, game)
    return Hint(action=action, placement=placement, expected_value=value, version=game.version)
