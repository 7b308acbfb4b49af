"""``/api/player``: the player's settings, remembered by cookie: the language and the name
shown on the daily table (``magdagdon.services.players`` says which names may be kept)."""

from fastapi import APIRouter

from magdagdon.api.deps import CallerDep, StoreDep
from magdagdon.api.game_state import settings_of
from magdagdon.api.schemas.requests import PlayerSettingsIn
from magdagdon.api.schemas.responses import PlayerSettings, error_responses
from magdagdon.engine import MalformedError
from magdagdon.services import players
from magdagdon.services.errors import InvalidNameError

router = APIRouter(prefix="/api/player", tags=["player"])


@router.get("")
def read_settings(caller: CallerDep) -> PlayerSettings:
    """The settings; the defaults for a browser without a player (none is made)."""
    known = caller.known()
    if known is None:
        return PlayerSettings(language="fil", name=None, tag=None)
    return settings_of(known)


@router.put("", responses=error_responses(InvalidNameError, MalformedError))
def update_settings(body: PlayerSettingsIn, store: StoreDep, caller: CallerDep) -> PlayerSettings:
    """Change the settings given (a name null clears it); 422 ``invalid_name`` for a name that
    may not be kept, and then nothing changes. A browser without a player gets one."""
    given = "name" in body.model_fields_set
    if given and body.name is not None:
        players.clean_name(body.name)  # refused before anything is made
    player, new = caller.player_for_write()
    if new:
        player = store.new_player(body.language or "fil")
        caller.created(player)
    if body.language is not None:
        player = players.set_language(store, player, body.language)
    if given:
        player = players.set_name(store, player, body.name)
    return settings_of(player)
