"""``GET /api/games/{id}/share``: a finished daily game's share text (``services.share``)."""

from fastapi import APIRouter

from magdagdon.api.deps import CallerDep
from magdagdon.api.origin import SettingsDep, public_origin
from magdagdon.api.schemas.daily import ShareOut
from magdagdon.api.schemas.responses import error_responses
from magdagdon.services import share
from magdagdon.services.errors import GameNotFoundError, GameNotOverError, NotDailyError

router = APIRouter(prefix="/api/games", tags=["daily"])


@router.get(
    "/{game_id}/share",
    response_model=ShareOut,
    responses=error_responses(GameNotFoundError, GameNotOverError, NotDailyError),
)
def share_text(game_id: str, caller: CallerDep, settings: SettingsDep) -> share.Share:
    """The share text of a finished daily or practice game (409 before its end). Its link is
    on the server's public address (``api.origin.public_origin``); none without one."""
    return share.share(caller.game(game_id), public_origin(settings))
