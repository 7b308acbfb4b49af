"""``GET /api/games/{id}/hint``: the computer player's best action for the game's current state.

The answer carries the next action, the whole recommended placement of this turn (die and cell, in
staging order) and the expected final score. Asking counts a hint in the game (SPEC "Hints": not
in phase ``roll``, where I-ROLL is the only move).

The search runs in the server's compute processes (``magdagdon.compute``), never in a thread of
the server: one hint per player at a time (a second one answers 429 ``rate_limited`` with
``Retry-After: 1``), a bounded queue (503 ``busy``) and a time limit. The route itself is
``async``: it waits for the search without holding a thread, and reads and counts in the
thread pool.
"""

import threading
from typing import Any

import anyio.to_thread
from fastapi import APIRouter, Request

from magdagdon import games
from magdagdon.api.deps import CallerDep, StoreDep
from magdagdon.api.responses import ErrorBody, Hint, PlacementStep, error_responses
from magdagdon.bots.expectimax import ExpectimaxBot
from magdagdon.compute import AlreadyRunningError
from magdagdon.engine import Difficulty, GameState, Phase, Roll, action_to_json
from magdagdon.engine.codec import cell_to_json
from magdagdon.engine.errors import GameOverError

router = APIRouter(prefix="/api/games", tags=["hint"])

_bot = ExpectimaxBot()  # one per compute process, with its caches
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


def warm() -> None:
    """Run once in each compute process: the bot's tables of every difficulty."""
    for difficulty in Difficulty:
        best_hint(GameState.new(difficulty, 0))


_REFUSED: dict[int | str, dict[str, object]] = {
    429: {"model": ErrorBody, "description": "A hint for this player is being computed already"},
    503: {"model": ErrorBody, "description": "The computer player is busy; see Retry-After"},
}


@router.get("/{game_id}/hint", responses={**error_responses(404, 409), **_REFUSED})
async def hint(request: Request, game_id: str, store: StoreDep, caller: CallerDep) -> Hint:
    """The best action now; 409 ``game_over`` once the game has ended. Counts one hint, except
    in phase ``roll``."""
    compute = request.app.state.compute
    player = caller.cookie_token  # a game found with it is that player's
    if compute.computing("hint", player):  # refused before any database work
        raise AlreadyRunningError("a hint is already being computed for you")
    game = await anyio.to_thread.run_sync(caller.game, game_id)
    if game.state.phase is Phase.OVER:
        raise GameOverError("the game is over; there is nothing left to hint")
    action, placement, value = await compute.run("hint", best_hint, game.state, player=player)
    await anyio.to_thread.run_sync(games.hint_given, store, game)
    return Hint(action=action, placement=placement, expected_value=value, version=game.version)
