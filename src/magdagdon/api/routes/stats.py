"""``/api/stats``: the player's Statistics of one difficulty (``magdagdon.services.stats``)."""

from fastapi import APIRouter
from pydantic import BaseModel, Field

from magdagdon.api.deps import CallerDep, StoreDep
from magdagdon.api.routes.daily import StreakOut, streak_out
from magdagdon.api.schemas.responses import error_responses
from magdagdon.engine import Difficulty
from magdagdon.services import stats

router = APIRouter(prefix="/api/stats", tags=["stats"])


class BinOut(BaseModel):
    from_: int = Field(alias="from", description="The lowest score of the bin.")
    to: int = Field(description="The highest score of the bin (included).")
    count: int


class CombosOut(BaseModel):
    straight: int = Field(description="Lines (rows and columns) made into a STRAIGHT.")
    four_of_a_kind: int
    two_pairs: int


class StatsOut(BaseModel):
    difficulty: str
    games: int = Field(description="normal, daily and practice games started.")
    finished: int
    mean: float | None
    median: float | None
    best: int | None
    best_game_id: str | None = Field(description="The best game (to review it); null when none.")
    histogram: list[BinOut]
    streak: StreakOut
    ruins_per_game: float | None
    powers_per_game: float | None
    combos: CombosOut
    computer_mean: float = Field(
        description="The computer player's mean on this difficulty (6,000 measured games)."
    )


@router.get("", responses=error_responses(422), response_model_by_alias=True)
def read_stats(difficulty: Difficulty, store: StoreDep, caller: CallerDep) -> StatsOut:
    with caller.acting() as token:
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
