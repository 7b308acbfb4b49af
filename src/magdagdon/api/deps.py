"""The routers' dependencies: the store and the caller (the player of the cookie).

Both are ``async`` and do no I/O: each route is a plain ``def`` that FastAPI runs in its thread
pool, where the store's blocking calls are safe, and that does all of its request's database
work in that one thread. (A sync dependency would be a thread hop of its own: measured, each hop
costs more than the query it would run.)"""

from __future__ import annotations

from contextlib import contextmanager
from typing import TYPE_CHECKING, Annotated

from fastapi import Depends, Request, Response

from magdagdon import games
from magdagdon.api.cookies import COOKIE, new_player_token, set_new_player_cookie
from magdagdon.store import GameNotFoundError, GameRecord, Player, Store

if TYPE_CHECKING:
    from collections.abc import Iterator


async def get_store(request: Request) -> Store:
    store: Store = request.app.state.store
    return store


StoreDep = Annotated[Store, Depends(get_store)]


class Caller:
    """Who sent the request: the player of its cookie, looked up on first use (in the route's
    thread); a new player, and its cookie on the answer, when the cookie names nobody."""

    def __init__(self, request: Request, response: Response, store: Store) -> None:
        self._request, self._response, self._store = request, response, store
        self._player: Player | None = None

    def player(self) -> Player:
        if self._player is None:
            token = self._request.cookies.get(COOKIE)
            player = self._store.player(token) if token else None
            if player is None:
                player = self._store.new_player()
                new_player_token(self._request, player.token)
                set_new_player_cookie(self._request, self._response)
            self._player = player
        return self._player

    @property
    def token(self) -> str:
        return self.player().token

    @contextmanager
    def acting(self) -> Iterator[str]:
        """The token to act on the caller's own games with: the cookie's, unchecked. A game's
        player is always a real player, so a game found with it proves it, and an action needs
        no read of the player (measured: a tenth of the round trip). When no game is found,
        the caller is made a player as on any request (an unknown cookie gets a new one)."""
        try:
            yield self._request.cookies.get(COOKIE) or ""
        except GameNotFoundError:
            self.player()
            raise

    def game(self, game_id: str) -> GameRecord:
        """The caller's game ``game_id``; 404 for any other (``games.owned`` is the one check)."""
        with self.acting() as token:
            return games.load(self._store, token, game_id)


async def get_caller(request: Request, response: Response, store: StoreDep) -> Caller:
    return Caller(request, response, store)


CallerDep = Annotated[Caller, Depends(get_caller)]
