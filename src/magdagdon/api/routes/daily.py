"""``/api/daily``: today's challenges and the streak, a new attempt at a day's challenge, the
day's table of this server's players; and ``/api/games/{id}/share``, a daily game's share text.

The rules are ``services.daily``'s and ``services.share``'s; the shapes are here."""

from typing import Annotated, Literal

from fastapi import APIRouter, Query, Request, Response
from pydantic import BaseModel, ConfigDict, Field

from magdagdon.api.days import Day
from magdagdon.api.deps import CallerDep, StoreDep
from magdagdon.api.routes.games import _view
from magdagdon.api.schemas.responses import GameView, error_responses
from magdagdon.engine import Difficulty
from magdagdon.services import daily, share

router = APIRouter(prefix="/api", tags=["daily"])


class DailyStart(BaseModel):
    model_config = ConfigDict(extra="forbid")
    difficulty: Difficulty
    date: Day | None = None  # today (UTC) when left out


class StreakOut(BaseModel):
    current: int = Field(description="Days in a row with a finished ranked attempt, to today.")
    best: int


class ChallengeOut(BaseModel):
    difficulty: Literal["peaceful", "survival", "nightmare"]
    status: Literal["new", "playing", "over"] = Field(description="Of the ranked attempt.")
    game_id: str | None
    score: int | None


class DailyOut(BaseModel):
    date: str
    number: int
    streak: StreakOut
    challenges: list[ChallengeOut]


class TableRowOut(BaseModel):
    rank: int
    name: str = Field(description="The player's name, or a neutral one; show it as text.")
    named: bool = Field(description="Whether the player set the name (else the neutral one).")
    tag: str = Field(description="Four digits telling unnamed players apart (Manlalaro 4F2A).")
    score: int
    turns: int
    game_id: str | None = Field(None, description="Only on the asking player's own row.")


class ShareOut(BaseModel):
    game_id: str
    number: int
    date: str
    difficulty: Literal["peaceful", "survival", "nightmare"]
    mode: Literal["daily", "practice"]
    score: int
    grid: list[list[Literal["straight", "four_of_a_kind", "two_pairs", "number", "ruin"]]]
    text: dict[str, str] = Field(description="The share text in each language (fil, en).")


def streak_out(streak: daily.Streak) -> StreakOut:
    return StreakOut(current=streak.current, best=streak.best)


@router.get("/daily")
def overview(store: StoreDep, caller: CallerDep) -> DailyOut:
    """Today's challenge (UTC) on each difficulty, as the player stands with it."""
    with caller.acting() as token:
        found = daily.overview(store, token)
    return DailyOut(
        date=found.day.isoformat(),
        number=found.number,
        streak=streak_out(found.streak),
        challenges=[
            ChallengeOut.model_validate(
                {
                    "difficulty": c.difficulty.value,
                    "status": c.status,
                    "game_id": c.game_id,
                    "score": c.score,
                }
            )
            for c in found.challenges
        ],
    )


@router.post(
    "/daily", status_code=201, response_model=GameView, responses=error_responses(409, 422)
)
def start(request: Request, body: DailyStart, store: StoreDep, caller: CallerDep) -> Response:
    """A new game of the day's challenge: ``daily`` (ranked) on the player's first attempt at
    today's, else ``practice``; 409 ``daily_not_open`` for a day not begun."""
    game = daily.start(store, caller.token, body.difficulty, body.date)
    return _view(request, store, game, 201)


@router.get("/daily/table", responses=error_responses(409, 422))
def table(
    difficulty: Difficulty,
    store: StoreDep,
    caller: CallerDep,
    day: Annotated[Day | None, Query(alias="date")] = None,
) -> list[TableRowOut]:
    """The day's ranked attempts on this server, best first (today when no date)."""
    with caller.acting() as token:
        entries = daily.table(store, token, difficulty, day)
    return [
        TableRowOut(
            rank=e.rank,
            name=e.name,
            named=e.named,
            tag=e.tag,
            score=e.score,
            turns=e.turns,
            game_id=e.game_id,
        )
        for e in entries
    ]


@router.get("/games/{game_id}/share", responses=error_responses(404, 409))
def share_text(request: Request, game_id: str, caller: CallerDep) -> ShareOut:
    """The share text of a finished daily or practice game (409 before its end)."""
    found = share.share(caller.game(game_id), str(request.base_url))
    return ShareOut.model_validate(
        {
            "game_id": game_id,
            "number": found.number,
            "date": found.day,
            "difficulty": found.difficulty,
            "mode": found.mode,
            "score": found.score,
            "grid": [list(row) for row in found.grid],
            "text": found.text,
        }
    )
