"""``/api/player``: the player's settings, remembered by cookie."""

from fastapi import APIRouter

from magdagdon.api.deps import CallerDep, StoreDep
from magdagdon.api.requests import PlayerSettingsIn
from magdagdon.api.responses import PlayerSettings, error_responses

router = APIRouter(prefix="/api/player", tags=["player"])


@router.get("")
def read_settings(caller: CallerDep) -> PlayerSettings:
    return PlayerSettings.model_validate({"language": caller.player().language})


@router.put("", responses=error_responses(422))
def update_settings(body: PlayerSettingsIn, store: StoreDep, caller: CallerDep) -> PlayerSettings:
    updated = store.set_language(caller.token, body.language)
    return PlayerSettings.model_validate({"language": updated.language})
