"""``/api/player/export`` and ``/api/player/import``: the player's data as one JSON file
(``services.transfer`` holds the rules). The import's body has a cap of its own, larger than
every other request's (``Settings.max_import_bytes``).

An import is parsed, checked and replayed in the server's import process
(``magdagdon.compute``, kind ``import``), never in a thread of the server, where it would hold
the GIL against the players' actions: one import per player at a time (a second answers 429
``rate_limited``), a bounded queue (503 ``busy`` with ``Retry-After``) and a time limit. Its
games are then stored a few hundred to a transaction. A file that is refused changes nothing:
not even a player is made for a caller without one.
"""

import json
import secrets

import anyio.to_thread
from fastapi import APIRouter, Request, Response

from magdagdon import clock
from magdagdon.api.deps import CallerDep, StoreDep
from magdagdon.api.schemas.responses import ImportedOut, error_responses
from magdagdon.compute import IMPORT, AlreadyRunningError, ComputeBusyError
from magdagdon.observe import metrics
from magdagdon.services import transfer
from magdagdon.services.errors import ImportInvalidError, MalformedImportError

router = APIRouter(prefix="/api/player", tags=["player"])
IMPORT_PATH = "/api/player/import"


@router.get("/export")
def export(store: StoreDep, caller: CallerDep) -> Response:
    """Every game (seed, mode, action log) and setting of the player, as a file to keep."""
    token = caller.cookie_token
    player = store.player(token) if token else None
    document = transfer.export(store, player, token)
    day = clock.today().isoformat()
    return Response(
        json.dumps(document, ensure_ascii=False, separators=(",", ":")),
        media_type="application/json",
        headers={"Content-Disposition": f'attachment; filename="magdagdon-{day}.json"'},
    )


_BODY = {"required": True, "content": {"application/json": {"schema": {"type": "object"}}}}


@router.post(
    "/import",
    response_model=ImportedOut,
    responses=error_responses(
        ImportInvalidError, MalformedImportError, AlreadyRunningError, ComputeBusyError
    ),
    openapi_extra={"requestBody": _BODY},
)
async def import_(request: Request, store: StoreDep, caller: CallerDep) -> transfer.Imported:
    """Replay every game of an export and keep the player's new ones; 422 ``import_invalid``
    (naming the game, and the action or the field) when one does not replay or is out of
    range, and then nothing is kept."""
    compute = request.app.state.compute
    # without a cookie: a key of its own (the address's rate limit bounds such callers)
    key = caller.cookie_token or secrets.token_hex(8)
    # refused before the body is read: up to 16 MB that a refused request need not cost
    if compute.computing(IMPORT, key):
        metrics.job_refused(compute.pool_name(IMPORT), "already_running")
        raise AlreadyRunningError("an import of yours is under way already")
    if compute.full(IMPORT):
        metrics.job_refused(compute.pool_name(IMPORT), "busy")
        raise ComputeBusyError("too many imports are under way")
    body = await request.body()
    player, new = await anyio.to_thread.run_sync(caller.player_for_write)
    now = clock.now()
    prepared = await compute.run(IMPORT, transfer.prepare, body, player.token, now, player=key)
    found = await anyio.to_thread.run_sync(
        lambda: transfer.store_prepared(store, player, prepared, new_player=new)
    )
    if new:
        caller.created(player)
    return found
