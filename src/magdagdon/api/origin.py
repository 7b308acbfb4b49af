"""Where other devices reach this server: the configured public address (``magdagdon serve
--public-url``, ``MAGDAGDON_PUBLIC_URL``), or the address a phone on the same network uses
(``magdagdon serve --lan``, ``MAGDAGDON_LAN_URL``); docs/hosting.md."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request

from magdagdon.settings import Settings


async def get_settings(request: Request) -> Settings:
    settings: Settings = request.app.state.settings
    return settings


SettingsDep = Annotated[Settings, Depends(get_settings)]


def public_origin(settings: Settings) -> str | None:
    """The address another device opens this server at, for every absolute URL an answer
    carries (a share's link, a device link, the phone's QR code): the configured public URL
    (``--public-url``, ``MAGDAGDON_PUBLIC_URL``), else the LAN URL (``--lan``), else none. Never
    the request's ``Host``: a client could name any host there, and a link made from it would
    send another device wherever that client wanted."""
    found = settings.public_url or settings.lan_url
    return None if found is None else found.rstrip("/")
