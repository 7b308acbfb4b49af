"""``/api/games``: start a game, find the current one, read one, and play actions on it."""

from typing import Annotated

from fastapi import APIRouter, Body, Request, Response

from magdagdon.api.cookies import set_new_player_cookie
from magdagdon.api.deps import GameDep, PlayerDep, StoreDep
from magdagdon.api.requests import ActionBody, NewGame
from magdagdon.api.responses import GameState, error_responses
from magdagdon.api.view import game_view
from magdagdon.engine import action_from_json
from magdagdon.store import GameMode, GameNotFoundError, GameRecord, Store

router = APIRouter(prefix="/api/games", tags=["games"])


def _view(request: Request, store: Store, game: GameRecord, status: int = 200) -> Response:
    """The state view as JSON, serialised once (FastAPI would dump and re-validate a model);
    a returned Response does not get the dependency's cookie, so it is set here."""
    view = game_view(game, store)
    response = Response(view.model_dump_json(), status_code=status, media_type="application/json")
    set_new_player_cookie(request, response)
    return response


@router.post("", status_code=201, response_model=GameState, responses=error_responses(422))
async def new_game(request: Request, body: NewGame, store: StoreDep, player: PlayerDep) -> Response:
    """Start a new game; any unfinished game of the player is abandoned."""
    game = store.new_game(player.token, body.difficulty, body.seed, mode=GameMode(body.mode))
    return _view(request, store, game, 201)


@router.get("/current", response_model=GameState, responses=error_responses(404))
async def current_game(request: Request, store: StoreDep, player: PlayerDep) -> Response:
    """The player's unfinished game."""
    game = store.current_game(player.token)
    if game is None:
        raise GameNotFoundError("current")
    return _view(request, store, game)


@router.get("/{game_id}", response_model=GameState, responses=error_responses(404))
async def read_game(request: Request, store: StoreDep, game: GameDep) -> Response:
    return _view(request, store, game)


@router.post(
    "/{game_id}/actions", response_model=GameState, responses=error_responses(404, 409, 422)
)
async def play(
    request: Request,
    game_id: str,
    body: Annotated[ActionBody, Body()],
    store: StoreDep,
    player: PlayerDep,
) -> Response:
    """Apply one action; it is saved before the answer. 409 when the rules refuse it."""
    action = action_from_json(body.model_dump(exclude={"version"}))
    game = store.apply(game_id, action, version=body.version, player=player.token)
    return _view(request, store, game)
