"""The API's game state of a stored game: the engine's state view (``magdagdon.engine.view``,
the same one the page's engine worker answers with) plus what only the store knows (the rank).

It is sent as the engine made it, serialised once by orjson (compact UTF-8, as the standard
library's ``json.dumps(separators=(",", ":"), ensure_ascii=False)`` writes it, in a tenth of
the time): no model checks it again on the way out. ``GameView`` (``schemas/responses.py``)
documents it, and ``tests/api/test_api_game_state.py`` shows that the model, and the standard
library, would send the same bytes for games through every phase.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import orjson
from fastapi import Response

from magdagdon.api.cookies import set_new_player_cookie
from magdagdon.api.schemas import responses
from magdagdon.engine.view import StateView, state_view
from magdagdon.services import players
from magdagdon.store import GameStatus

if TYPE_CHECKING:
    from collections.abc import Mapping

    from starlette.requests import Request

    from magdagdon.store import GameRecord, Player, Store


def game_view(game: GameRecord, store: Store) -> StateView:
    """The API's game state of a stored game; its rank is read from ``store`` once it is over."""
    state = game.state
    rank = rank_among = None
    if state.is_over and game.mode.ranked:
        rank = store.rank(game.id)
        rank_among = store.ranked_games(game.player, game.difficulty) if rank else None
    return state_view(
        state,
        game_id=game.id,
        version=game.version,
        mode=game.mode.value,
        daily_date=game.daily_date,
        hints_used=game.hints_used,
        rank=rank,
        rank_among=rank_among,
        finished_at=game.finished_at,
        abandoned=game.status is GameStatus.ABANDONED,
    )


def view_json(view: Mapping[str, Any]) -> bytes:
    """The bytes of a state view that the API sends."""
    return orjson.dumps(view)


def game_response(
    request: Request,
    store: Store,
    game: GameRecord,
    status: int = 200,
    *,
    extra: dict[str, Any] | None = None,
) -> Response:
    """The state view as JSON, serialised once (as ``GameView`` would send it: compact, UTF-8),
    with the top-level fields ``extra`` (a sync's ``sync``); a returned Response does not get
    the dependency's cookie, so it is set here."""
    view = game_view(game, store)
    body = view_json({**view, **extra} if extra else view)
    response = Response(body, status_code=status, media_type="application/json")
    set_new_player_cookie(request, response)
    return response


def settings_of(player: Player) -> responses.PlayerSettings:
    """What ``/api/player`` answers of ``player`` (a device link's answer too)."""
    return responses.PlayerSettings.model_validate(
        {
            "language": player.language,
            "name": player.name,
            "tag": players.player_tag(player.token),
            "name_hidden": player.name_hidden,
        }
    )
