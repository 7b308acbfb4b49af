"""``/api/stats``: the player's Statistics of one difficulty (``magdagdon.services.stats``)."""

from fastapi import APIRouter

from magdagdon.api.deps import CallerDep, StoreDep
from magdagdon.api.schemas.responses import error_responses
from magdagdon.api.schemas.stats import StatsOut
from magdagdon.engine import Difficulty, MalformedError
from magdagdon.services import stats

router = APIRouter(prefix="/api/stats", tags=["stats"])


@router.get("", response_model=StatsOut, responses=error_responses(MalformedError))
def read_stats(difficulty: Difficulty, store: StoreDep, caller: CallerDep) -> stats.Statistics:
    return stats.statistics(store, caller.cookie_token, difficulty)
