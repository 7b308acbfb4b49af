"""Where this server can be reached: the request's own origin, and the address a phone on the
same network uses (``magdagdon serve --lan``, or ``MAGDAGDON_LAN_URL``)."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request

from magdagdon.lan import is_loopback_host
from magdagdon.settings import Settings


async def get_settings(request: Request) -> Settings:
    settings: Settings = request.app.state.settings
    return settings


SettingsDep = Annotated[Settings, Depends(get_settings)]


def request_origin(request: Request) -> str:
    """``scheme://host[:port]`` as the client asked for it (https behind a trusted proxy)."""
    return f"{request.url.scheme}://{request.url.netloc}"


def is_loopback(request: Request) -> bool:
    """Whether the client named this server by a loopback name, which no other device can."""
    return is_loopback_host(request.url.hostname)


def lan_url(request: Request, settings: Settings) -> str | None:
    """The URL another device opens to play here: the LAN URL when the server has one, else
    the request's origin unless it is a loopback one (then none: no other device can use it)."""
    if settings.lan_url:
        return settings.lan_url.rstrip("/")
    return None if is_loopback(request) else request_origin(request)


def shared_origin(request: Request, settings: Settings) -> str:
    """The origin of a URL made for another device (a device link): the request's, or the LAN
    URL when the request came by a loopback name."""
    if is_loopback(request) and settings.lan_url:
        return settings.lan_url.rstrip("/")
    return request_origin(request)
