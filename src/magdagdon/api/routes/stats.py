"""``/api/stats``: the player's Statistics of one difficulty (``magdagdon.services.stats``)."""

from fastapi import APIRouter

from magdagdon.api.deps import CallerDep, StoreDep
from magdagdon.api.schemas.responses import error_responses
from magdagdon.api.schemas.stats import StatsOut
from magdagdon.api.view import streak_out
from magdagdon.engine import Difficulty
from magdagdon.services import stats

router = APIRouter(prefix="/api/stats", tags=["stats"])


@router.get("", responses=error_responses(422), response_model_by_alias=True)
def read_stats(difficulty: Difficulty, store: StoreDep, caller: CallerDep) -> StatsOut:
    token = caller.cookie_token
    found = stats.statistics(store, token, difficulty)
    return StatsOut.model_validate(
        {
            "difficulty": difficulty.value,
            "games": found.games,
            "finished": found.finished,
            "mean": found.mean,
            "median": found.median,
            "best": found.best,
            "best_game_id": found.best_game_id,
            "histogram": [{"from": b.low, "to": b.high, "count": b.count} for b in found.histogram],
            "streak": streak_out(found.streak),
            "ruins_per_game": found.ruins_per_game,
            "powers_per_game": found.powers_per_game,
            "combos": {
                "straight": found.straights,
                "four_of_a_kind": found.fours,
                "two_pairs": found.two_pairs,
            },
            "computer_mean": found.computer_mean,
        }
    )
