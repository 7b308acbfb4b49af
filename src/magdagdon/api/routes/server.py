"""``GET /api/server``: what the page needs to know about the server itself — the address a
phone on the same network opens, and its QR code (SETTINGS, "play on your phone")."""

from fastapi import APIRouter, Request

from magdagdon import qr
from magdagdon.api.origin import SettingsDep, lan_url
from magdagdon.api.schemas.responses import ServerView

router = APIRouter(prefix="/api/server", tags=["server"])


@router.get("")
async def server(request: Request, settings: SettingsDep) -> ServerView:
    url = lan_url(request, settings)
    return ServerView(lan_url=url, lan_qr_svg=None if url is None else qr.svg(url))
