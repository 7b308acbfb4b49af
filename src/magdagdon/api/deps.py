"""The routers' dependencies: the store, the player of the cookie, and one of their games.

The ones that touch the database are plain ``def``: FastAPI runs them in its thread pool, so a
query (or a PostgreSQL round trip) never blocks the event loop."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request, Response

from magdagdon import games
from magdagdon.api.cookies import COOKIE, new_player_token, set_new_player_cookie
from magdagdon.store import GameRecord, Player, Store


async def get_store(request: Request) -> Store:
    store: Store = request.app.state.store  # no I/O: no thread needed
    return store


StoreDep = Annotated[Store, Depends(get_store)]


def get_player(request: Request, response: Response, store: StoreDep) -> Player:
    """The player of the cookie; a new one (and its cookie) when there is no known cookie."""
    token = request.cookies.get(COOKIE)
    player = store.player(token) if token else None
    if player is None:
        player = store.new_player()
        new_player_token(request, player.token)
        set_new_player_cookie(request, response)
    return player


PlayerDep = Annotated[Player, Depends(get_player)]


def get_game(game_id: str, store: StoreDep, player: PlayerDep) -> GameRecord:
    """The player's game ``game_id``; 404 for any other (``games.owned`` is the one check)."""
    return games.load(store, player.token, game_id)


GameDep = Annotated[GameRecord, Depends(get_game)]
