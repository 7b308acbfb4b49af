"""``/api/player``: the player's settings, remembered by cookie."""

from fastapi import APIRouter

from magdagdon.api.deps import PlayerDep, StoreDep
from magdagdon.api.requests import PlayerSettingsIn
from magdagdon.api.responses import PlayerSettings, error_responses

router = APIRouter(prefix="/api/player", tags=["player"])


@router.get("")
async def read_settings(player: PlayerDep) -> PlayerSettings:
    """(``async``: no I/O of its own; the player dependency runs in the thread pool)"""
    return PlayerSettings.model_validate({"language": player.language})


@router.put("", responses=error_responses(422))
def update_settings(body: PlayerSettingsIn, store: StoreDep, player: PlayerDep) -> PlayerSettings:
    updated = store.set_language(player.token, body.language)
    return PlayerSettings.model_validate({"language": updated.language})
