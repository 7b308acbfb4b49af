"""``/api/player/export`` and ``/api/player/import``: the player's data as one JSON file
(``services.transfer`` holds the rules). The import's body has a cap of its own, larger than
every other request's (``Settings.max_import_bytes``)."""

import json
from typing import Annotated, Any

from fastapi import APIRouter, Body, Response

from magdagdon import clock
from magdagdon.api.deps import CallerDep, StoreDep
from magdagdon.api.schemas.responses import ImportedOut, error_responses
from magdagdon.services import transfer

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


@router.post("/import", responses=error_responses(422))
def import_(
    document: Annotated[dict[str, Any], Body()], store: StoreDep, caller: CallerDep
) -> ImportedOut:
    """Replay every game of an export and keep the player's new ones; 422 ``import_invalid``
    (naming the game and the action) when one does not replay, and then nothing is kept."""
    found = transfer.import_document(store, caller.player(), document)
    return ImportedOut(imported=found.imported, skipped=found.skipped)
