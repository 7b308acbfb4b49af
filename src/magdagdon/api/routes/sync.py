"""``/api/games/sync`` and ``/api/games/{id}/log``: games played in the page's own engine while
the server could not be reached (``services.sync`` holds the rules)."""

from typing import Annotated, Any

from fastapi import APIRouter, Body, Request, Response

from magdagdon.api.deps import CallerDep, StoreDep
from magdagdon.api.game_state import game_response
from magdagdon.api.schemas.responses import GameLogOut, SyncedView, error_responses
from magdagdon.services import sync
from magdagdon.services.errors import (
    GameNotFoundError,
    MalformedSyncError,
    SyncConflictError,
    SyncInvalidError,
)

router = APIRouter(prefix="/api/games", tags=["games"])
SYNC_PATH = "/api/games/sync"
#: The body cap of a game sent back: its log is at most 1,000 actions (an import's bound) of at
#: most ~60 bytes of JSON each.
SYNC_MAX_BYTES = 96 * 1024


@router.post(
    "/sync",
    response_model=SyncedView,
    responses=error_responses(SyncConflictError, SyncInvalidError, MalformedSyncError),
)
def sync_game(
    request: Request, body: Annotated[dict[str, Any], Body()], store: StoreDep, caller: CallerDep
) -> Response:
    """One game played offline (its id, seed, mode and whole action log, and optionally when
    it began and ended on the device: ``played_at``, ``finished_at``): replayed, then kept in
    one transaction, dated when it was played; the same game sent again changes nothing.
    Answers the state of the game the server keeps, and in ``sync`` how it was kept."""
    synced = sync.sync(store, caller.player().token, body)
    outcome = {"outcome": synced.outcome, "game_id": synced.game.id, "sent_id": synced.sent_id}
    return game_response(request, store, synced.game, extra={"sync": outcome})


@router.get(
    "/{game_id}/log", response_model=GameLogOut, responses=error_responses(GameNotFoundError)
)
def game_log(game_id: str, store: StoreDep, caller: CallerDep) -> sync.GameLog:
    """The game's seed, mode and action log: what the page's engine needs to go on with it."""
    return sync.log(store, caller.cookie_token, game_id)
