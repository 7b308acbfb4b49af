"""``/api/player``: the player's settings, remembered by cookie."""

from fastapi import APIRouter

from magdagdon.api.deps import CallerDep, StoreDep
from magdagdon.api.requests import PlayerSettingsIn
from magdagdon.api.responses import PlayerSettings, error_responses

router = APIRouter(prefix="/api/player", tags=["player"])


@router.get("")
def read_settings(caller: CallerDep) -> PlayerSettings:
    """The settings; the defaults for a browser without a player (none is made)."""
    known = caller.known()
    return PlayerSettings.model_validate({"language": known.language if known else "fil"})


@router.put("", responses=error_responses(422))
def update_settings(body: PlayerSettingsIn, store: StoreDep, caller: CallerDep) -> PlayerSettings:
    """Change the settings; a browser without a player gets one, made with them."""
    player, new = caller.player_for_write()
    if new:
        updated = store.new_player(body.language)
        caller.created(updated)
    else:
        updated = store.set_language(player.token, body.language)
    return PlayerSettings.model_validate({"language": updated.language})
