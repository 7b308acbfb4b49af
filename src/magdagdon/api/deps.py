"""The routers' dependencies: the store and the caller (the player of the cookie).

Both are ``async`` and do no I/O: each route is a plain ``def`` that FastAPI runs in its thread
pool, where the store's blocking calls are safe, and that does all of its request's database
work in that one thread. (A sync dependency would be a thread hop of its own: measured, each hop
costs more than the query it would run.)

Players are made lazily: a request that only reads (a game, the current game, High Scores,
the settings, anything that answers 404) makes no player and sets no cookie, whatever its
cookie says; only a request that creates something makes the player, in the same transaction
as what it creates where it can (:meth:`Caller.player_for_write`), and sets the cookie.
"""

from __future__ import annotations

import secrets
from typing import Annotated

from fastapi import Depends, Request, Response

from magdagdon.api.cookies import COOKIE, new_player_token, set_new_player_cookie
from magdagdon.services import games
from magdagdon.store import GameRecord, Player, Store
from magdagdon.store.records import is_key


async def get_store(request: Request) -> Store:
    store: Store = request.app.state.store
    return store


StoreDep = Annotated[Store, Depends(get_store)]


class Caller:
    """Who sent the request: the player its cookie names, if any."""

    def __init__(self, request: Request, response: Response, store: Store) -> None:
        self._request, self._response, self._store = request, response, store
        self._player: Player | None = None

    @property
    def cookie_token(self) -> str:
        """The cookie's token as sent, unchecked ("" without one): to read, and act on, the
        caller's own rows by, where a token that names nobody simply finds nothing. A game's
        player is always a real player, so a game found with it proves it, and an action needs
        no read of the player (measured: a tenth of the round trip); a game not found is 404,
        and makes no player."""
        token = self._request.cookies.get(COOKIE) or ""
        return token if is_key(token) else ""

    def known(self) -> Player | None:
        """The cookie's player, or None (nothing is made): for requests that only read."""
        if self._player is None:
            token = self.cookie_token
            self._player = self._store.player(token) if token else None
        return self._player

    def player_for_write(self) -> tuple[Player, bool]:
        """For a request that creates something: (the caller's player, False), or (a new
        player, not yet saved, True) for the creating transaction to insert; then call
        :meth:`created` once that transaction has committed."""
        known = self.known()
        if known is not None:
            return known, False
        return Player(secrets.token_urlsafe(32), "fil"), True

    def created(self, player: Player) -> None:
        """``player`` was just saved for this request: the answer sets its cookie."""
        self._player = player
        new_player_token(self._request, player.token)
        set_new_player_cookie(self._request, self._response)

    def player(self) -> Player:
        """The caller's player, made (in a transaction of its own) when there is none: only
        for a request that creates something."""
        player, new = self.player_for_write()
        if new:
            player = self._store.new_player(player.language)
            self.created(player)
        return player

    def game(self, game_id: str) -> GameRecord:
        """The caller's game ``game_id``; 404 for any other (``games.owned`` is the one check)."""
        return games.load(self._store, self.cookie_token, game_id)


async def get_caller(request: Request, response: Response, store: StoreDep) -> Caller:
    return Caller(request, response, store)


CallerDep = Annotated[Caller, Depends(get_caller)]
