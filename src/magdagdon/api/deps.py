"""The routers' dependencies: the store, the player of the cookie, and one of their games."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request, Response

from magdagdon.api.cookies import COOKIE, new_player_token, set_new_player_cookie
from magdagdon.store import GameNotFoundError, GameRecord, Player, Store


async def get_store(request: Request) -> Store:
    store: Store = request.app.state.store
    return store


StoreDep = Annotated[Store, Depends(get_store)]


async def get_player(request: Request, response: Response, store: StoreDep) -> Player:
    """The player of the cookie; a new one (and its cookie) when there is no known cookie.

    The dependencies and routes are ``async``: each store call is one short transaction (the
    store serialises them anyway), so it runs on the event loop without a thread hop."""
    token = request.cookies.get(COOKIE)
    player = store.player(token) if token else None
    if player is None:
        player = store.new_player()
        new_player_token(request, player.token)
        set_new_player_cookie(request, response)
    return player


PlayerDep = Annotated[Player, Depends(get_player)]


def load_game(store: Store, player: Player, game_id: str) -> GameRecord:
    """The player's game ``game_id``; :class:`GameNotFoundError` (404) for any other."""
    game = store.game(game_id)
    if game is None or game.player != player.token:
        raise GameNotFoundError(game_id)
    return game


async def get_game(game_id: str, store: StoreDep, player: PlayerDep) -> GameRecord:
    return load_game(store, player, game_id)


GameDep = Annotated[GameRecord, Depends(get_game)]
