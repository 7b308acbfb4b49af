"""``GET /api/games/{id}/hint``: the computer player's best action for the game's current state.

The answer carries the next action, the whole recommended placement of this turn (die and cell, in
staging order) and the expected final score. Asking counts a hint in the game (docs/rules.md "Modes
and records" (Hints): not
in phase ``roll``, where I-ROLL is the only move).

The search runs in the server's compute processes (``magdagdon.compute``), never in a thread of
the server: one hint per player at a time (a second one answers 429 ``rate_limited`` with
``Retry-After: 1``), a bounded queue (503 ``busy``) and a time limit. The route itself is
``async``: it waits for the search without holding a thread, and reads and counts in the
thread pool.
"""

import anyio.to_thread
from fastapi import APIRouter, Request

from magdagdon.api.deps import CallerDep, StoreDep
from magdagdon.api.schemas.responses import Hint, PlacementStep, error_responses
from magdagdon.bots import hints
from magdagdon.compute import AlreadyRunningError, ComputeBusyError
from magdagdon.engine import Phase
from magdagdon.engine.errors import GameOverError
from magdagdon.observe import metrics
from magdagdon.services import games
from magdagdon.services.errors import GameNotFoundError

router = APIRouter(prefix="/api/games", tags=["hint"])


@router.get(
    "/{game_id}/hint",
    responses=error_responses(
        GameNotFoundError, GameOverError, AlreadyRunningError, ComputeBusyError
    ),
)
async def hint(request: Request, game_id: str, store: StoreDep, caller: CallerDep) -> Hint:
    """The best action now; 409 ``game_over`` once the game has ended. Counts one hint, except
    in phase ``roll``."""
    compute = request.app.state.compute
    player = caller.cookie_token  # a game found with it is that player's
    if compute.computing("hint", player):  # refused before any database work
        metrics.job_refused(compute.pool_name("hint"), "already_running")
        raise AlreadyRunningError("a hint is already being computed for you")
    game = await anyio.to_thread.run_sync(caller.game, game_id)
    if game.state.phase is Phase.OVER:
        raise GameOverError("the game is over; there is nothing left to hint")
    action, steps, value = await compute.run("hint", hints.best, game.state, player=player)
    placement = [PlacementStep(die=die, cell=cell) for die, cell in steps]
    await anyio.to_thread.run_sync(games.hint_given, store, game)
    return Hint(action=action, placement=placement, expected_value=value, version=game.version)
