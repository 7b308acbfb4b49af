"""``/api/player/link`` and ``/api/player/leave``: one player on every device.

A device makes a one-time link (``POST /api/player/link``) and shows it with its QR code;
another device that brings the code back (``POST /api/player/link/{code}``) becomes the same
player. A device can also forget its player (``POST /api/player/leave``). The rules are
``services.links``'s; the rate limits (``api/edge/ratelimit.py``) keep codes from being guessed."""

from fastapi import APIRouter, Request, Response
from fastapi.responses import JSONResponse

from magdagdon import qr
from magdagdon.api.cookies import clear_player_cookie, set_player_cookie
from magdagdon.api.deps import CallerDep, StoreDep
from magdagdon.api.game_state import settings_of
from magdagdon.api.origin import SettingsDep, public_origin
from magdagdon.api.schemas.responses import DeviceLinkView, PlayerSettings, error_responses
from magdagdon.services import links
from magdagdon.services.errors import LinkInvalidError

router = APIRouter(prefix="/api/player", tags=["player"])


def link_url(origin: str | None, code: str) -> str | None:
    """The page that spends ``code``, on the server's public address; none without one."""
    return None if origin is None else f"{origin}/#link={code}"


@router.post("/link", status_code=201)
def make_link(store: StoreDep, caller: CallerDep, settings: SettingsDep) -> DeviceLinkView:
    """A one-time link (10 minutes) that makes another device this player; its URL is on the
    server's public address (``api.origin.public_origin``), none without one."""
    made = links.make(store, caller.player().token)
    url = link_url(public_origin(settings), made.code)
    svg = None if url is None else qr.svg(url)
    return DeviceLinkView(code=made.code, url=url, expires_at=made.expires_at, qr_svg=svg)


@router.post(
    "/link/{code}", response_model=PlayerSettings, responses=error_responses(LinkInvalidError)
)
def use_link(request: Request, code: str, store: StoreDep) -> Response:
    """Make this device the player of the link (its cookie names that player from now on).
    A wrong, used or expired code answers 404 ``link_invalid`` and changes nothing."""
    player = links.use(store, code)
    answer = settings_of(player)
    response = JSONResponse(answer.model_dump())
    set_player_cookie(request, response, player.token)
    return response


@router.post("/leave", status_code=204)
def leave(request: Request) -> Response:
    """This device forgets its player (a new one is made on the next request that needs it)."""
    response = Response(status_code=204)
    clear_player_cookie(request, response)
    return response
