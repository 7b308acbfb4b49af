"""The player cookie: a random token, kept for 400 days, as narrow as the game allows:

- ``HttpOnly``: no script reads it (the page never needs to);
- ``Path=/api``: only the API reads it, so the page and its files are fetched without it;
- ``SameSite=Strict``: no request that another site starts carries it, not even a link
  followed to the game. The page needs none on its own load (it is the same for everyone): it is
  its own fetches, same-origin, that carry the cookie, so a page opened from a QR code, a
  message or another site plays as the device's player all the same;
- ``Secure`` when the request came over HTTPS (directly, or through a trusted proxy's
  X-Forwarded-Proto).

Devices from before kept the cookie at ``Path=/``; it still reaches ``/api`` and still works.
An answer that sets or clears the cookie also clears that old one: with both, a browser sends
both and the old one would win (``Request.cookies`` keeps the last of a name)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from starlette.requests import Request
    from starlette.responses import Response

COOKIE = "magdagdon_player"
PATH = "/api"
OLD_PATH = "/"
MAX_AGE = 400 * 24 * 3600  # the longest lifetime browsers keep


def new_player_token(request: Request, token: str) -> None:
    """Remember that this request made a new player, so that every answer sets the cookie."""
    request.state.new_player_token = token


def set_new_player_cookie(request: Request, response: Response) -> None:
    token = getattr(request.state, "new_player_token", None)
    if token is not None:
        set_player_cookie(request, response, token)


def set_player_cookie(request: Request, response: Response, token: str) -> None:
    """The answer makes this device the player ``token``."""
    secure = request.url.scheme == "https"
    _clear_old(request, response, secure)
    response.set_cookie(
        COOKIE, token, max_age=MAX_AGE, path=PATH, httponly=True, samesite="strict", secure=secure
    )


def clear_player_cookie(request: Request, response: Response) -> None:
    """The answer makes this device forget its player."""
    secure = request.url.scheme == "https"
    _clear_old(request, response, secure)
    response.delete_cookie(COOKIE, path=PATH, httponly=True, samesite="strict", secure=secure)


def _clear_old(request: Request, response: Response, secure: bool) -> None:
    """Clear a cookie of before ``Path=/api``, when the request came with a cookie at all."""
    if COOKIE in request.cookies:
        response.delete_cookie(
            COOKIE, path=OLD_PATH, httponly=True, samesite="strict", secure=secure
        )
