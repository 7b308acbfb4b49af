"""``/api/games``: start a game, find the current one, read one, and play actions on it.

Plain ``def`` routes: FastAPI runs them in its thread pool, where the store's blocking calls
are safe (``deps.py``). Those that make no player take the request alone (``deps.store_of``,
``deps.cookie_token``): no dependency to resolve on the most frequent requests."""

from typing import Annotated

from fastapi import APIRouter, Body, Request, Response

from magdagdon.api.deps import CallerDep, StoreDep, cookie_token, store_of
from magdagdon.api.game_state import game_response
from magdagdon.api.schemas.requests import ActionBody, NewGame
from magdagdon.api.schemas.responses import GameView, error_responses
from magdagdon.engine import IllegalActionError, MalformedError, action_from_json
from magdagdon.services import games
from magdagdon.services.errors import GameAbandonedError, GameNotFoundError, VersionConflictError
from magdagdon.store import GameMode

router = APIRouter(prefix="/api/games", tags=["games"])


@router.post(
    "", status_code=201, response_model=GameView, responses=error_responses(MalformedError)
)
def new_game(request: Request, body: NewGame, store: StoreDep, caller: CallerDep) -> Response:
    """Start a new game; it abandons the player's unfinished games as its mode says. The
    first game of a browser without a player makes the player, in the same transaction."""
    player, new = caller.player_for_write()
    game = games.start(
        store,
        player.token,
        body.difficulty,
        body.seed,
        mode=GameMode(body.mode),
        new_player=player if new else None,
    )
    if new:
        caller.created(player)
    return game_response(request, store, game, 201)


@router.get("/current", response_model=GameView, responses=error_responses(GameNotFoundError))
def current_game(request: Request) -> Response:
    """The player's most recent unfinished game that is not a tutorial."""
    store = store_of(request)
    game = store.current_game(cookie_token(request))
    if game is None:
        raise GameNotFoundError("current")
    return game_response(request, store, game)


@router.get("/{game_id}", response_model=GameView, responses=error_responses(GameNotFoundError))
def read_game(request: Request, game_id: str) -> Response:
    store = store_of(request)
    return game_response(request, store, games.load(store, cookie_token(request), game_id))


@router.post(
    "/{game_id}/actions",
    response_model=GameView,
    responses=error_responses(
        GameNotFoundError,
        IllegalActionError,
        VersionConflictError,
        GameAbandonedError,
        MalformedError,
    ),
)
def play(request: Request, game_id: str, body: Annotated[ActionBody, Body()]) -> Response:
    """Apply one action; it is saved before the answer. 409 when the rules refuse it."""
    action = action_from_json(body.model_dump(exclude={"version"}))
    store = store_of(request)
    game = games.play(store, cookie_token(request), game_id, action, version=body.version)
    return game_response(request, store, game)
