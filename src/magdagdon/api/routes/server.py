"""``GET /api/server``: what the page needs to know about the server itself — the address a
phone on the same network opens, and its QR code (SETTINGS, "play on your phone")."""

from fastapi import APIRouter, Request
from pydantic import BaseModel, Field

from magdagdon import qr
from magdagdon.api.origin import SettingsDep, lan_url

router = APIRouter(prefix="/api/server", tags=["server"])


class ServerView(BaseModel):
    lan_url: str | None = Field(
        description="The URL another device on the network opens to play here (magdagdon "
        "serve --lan), or the page's own address; null when only this machine can reach it."
    )
    lan_qr_svg: str | None = Field(description="lan_url's QR code, a standalone SVG document.")


@router.get("")
async def server(request: Request, settings: SettingsDep) -> ServerView:
    url = lan_url(request, settings)
    return ServerView(lan_url=url, lan_qr_svg=None if url is None else qr.svg(url))
