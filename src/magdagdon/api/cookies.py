"""The player cookie: a random token, HttpOnly, SameSite=Lax, kept for 400 days; Secure when the
request came over HTTPS (directly, or through a trusted proxy's X-Forwarded-Proto)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from starlette.requests import Request
    from starlette.responses import Response

COOKIE = "magdagdon_player"
MAX_AGE = 400 * 24 * 3600  # the longest lifetime browsers keep


def new_player_token(request: Request, token: str) -> None:
    """Remember that this request made a new player, so that every answer sets the cookie."""
    request.state.new_player_token = token


def set_new_player_cookie(request: Request, response: Response) -> None:
    token = getattr(request.state, "new_player_token", None)
    if token is not None:
        secure = request.url.scheme == "https"
        response.set_cookie(
            COOKIE, token, max_age=MAX_AGE, path="/", httponly=True, samesite="lax", secure=secure
        )
