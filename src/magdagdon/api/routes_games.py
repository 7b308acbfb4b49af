"""``/api/games``: start a game, find the current one, read one, and play actions on it."""

from typing import Annotated

from fastapi import APIRouter, Body

from magdagdon.api.deps import GameDep, PlayerDep, StoreDep
from magdagdon.api.requests import ActionBody, NewGame
from magdagdon.api.responses import GameState, error_responses
from magdagdon.api.view import game_view
from magdagdon.engine import action_from_json
from magdagdon.store import GameNotFoundError, GameRecord, Store

router = APIRouter(prefix="/api/games", tags=["games"])


def _view(store: Store, game: GameRecord) -> GameState:
    return game_view(game, store.rank(game.id) if game.state.is_over else None)


@router.post("", status_code=201, responses=error_responses(422))
def new_game(body: NewGame, store: StoreDep, player: PlayerDep) -> GameState:
    """Start a new game; any unfinished game of the player is abandoned."""
    return _view(store, store.new_game(player.token, body.difficulty, body.seed))


@router.get("/current", responses=error_responses(404))
def current_game(store: StoreDep, player: PlayerDep) -> GameState:
    """The player's unfinished game."""
    game = store.current_game(player.token)
    if game is None:
        raise GameNotFoundError("current")
    return _view(store, game)


@router.get("/{game_id}", responses=error_responses(404))
def read_game(store: StoreDep, game: GameDep) -> GameState:
    return _view(store, game)


@router.post("/{game_id}/actions", responses=error_responses(404, 409, 422))
def play(
    game_id: str,
    body: Annotated[ActionBody, Body()],
    store: StoreDep,
    player: PlayerDep,
) -> GameState:
    """Apply one action; it is saved before the answer. 409 when the rules refuse it."""
    action = action_from_json(body.model_dump(exclude={"version"}))
    game = store.apply(game_id, action, version=body.version, player=player.token)
    return _view(store, game)
