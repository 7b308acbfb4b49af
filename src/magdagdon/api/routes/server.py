"""``GET /api/server``: what the page needs to know about the server itself — the address a
phone opens (the public or LAN one: ``api.origin.public_origin``), and its QR code (SETTINGS,
"play on your phone")."""

from fastapi import APIRouter

from magdagdon import qr
from magdagdon.api.origin import SettingsDep, public_origin
from magdagdon.api.schemas.responses import ServerView

router = APIRouter(prefix="/api/server", tags=["server"])


@router.get("")
async def server(settings: SettingsDep) -> ServerView:
    url = public_origin(settings)
    return ServerView(lan_url=url, lan_qr_svg=None if url is None else qr.svg(url))
