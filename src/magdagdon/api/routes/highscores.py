"""``/api/highscores``: the player's High Scores of one difficulty, best first."""

from typing import Annotated

from fastapi import APIRouter, Query

from magdagdon.api.deps import CallerDep, StoreDep
from magdagdon.api.schemas.derive import list_of
from magdagdon.api.schemas.responses import HighScoreEntry, error_responses
from magdagdon.engine import Difficulty, MalformedError
from magdagdon.store import HighScore

router = APIRouter(prefix="/api/highscores", tags=["highscores"])


@router.get("", response_model=list_of(HighScoreEntry), responses=error_responses(MalformedError))
def highscores(
    difficulty: Difficulty,
    store: StoreDep,
    caller: CallerDep,
    limit: Annotated[int, Query(ge=1, le=1000)] = 100,
) -> list[HighScore]:
    """Best first; on a tie, the game that ended first ([] for a browser without a player)."""
    return store.highscores(caller.cookie_token, difficulty, limit)
