"""``/api/highscores``: the player's High Scores of one difficulty, best first."""

from typing import Annotated

from fastapi import APIRouter, Query

from magdagdon.api.deps import CallerDep, StoreDep
from magdagdon.api.schemas.responses import HighScoreEntry, error_responses
from magdagdon.engine import Difficulty

router = APIRouter(prefix="/api/highscores", tags=["highscores"])


@router.get("", responses=error_responses(422))
def highscores(
    difficulty: Difficulty,
    store: StoreDep,
    caller: CallerDep,
    limit: Annotated[int, Query(ge=1, le=1000)] = 100,
) -> list[HighScoreEntry]:
    """Best first; on a tie, the game that ended first ([] for a browser without a player)."""
    found = store.highscores(caller.cookie_token, difficulty, limit)
    return [HighScoreEntry.model_validate(entry) for entry in found]
