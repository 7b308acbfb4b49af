"""``/api/daily``: today's challenges and the streak, a new attempt at a day's challenge, the
day's table of this server's players. The rules are ``services.daily``'s."""

from typing import Annotated

from fastapi import APIRouter, Query, Request, Response

from magdagdon.api.days import Day
from magdagdon.api.deps import CallerDep, StoreDep
from magdagdon.api.game_state import game_response
from magdagdon.api.schemas.daily import DailyOut, TableRowOut
from magdagdon.api.schemas.derive import list_of
from magdagdon.api.schemas.requests import DailyStart
from magdagdon.api.schemas.responses import GameView, error_responses
from magdagdon.engine import Difficulty, MalformedError
from magdagdon.services import daily
from magdagdon.services.errors import DailyNotOpenError

router = APIRouter(prefix="/api", tags=["daily"])


@router.get(
    "/daily", response_model=DailyOut, responses=error_responses(DailyNotOpenError, MalformedError)
)
def overview(
    store: StoreDep, caller: CallerDep, day: Annotated[Day | None, Query(alias="date")] = None
) -> daily.Overview:
    """The day's challenge (today, UTC, when no date) on each difficulty, as the player stands
    with it: its seed's commitment, and the seed once the day is over."""
    return daily.overview(store, caller.cookie_token, day)


@router.post(
    "/daily",
    status_code=201,
    response_model=GameView,
    responses=error_responses(DailyNotOpenError, MalformedError),
)
def start(request: Request, body: DailyStart, store: StoreDep, caller: CallerDep) -> Response:
    """A new game of the day's challenge: ``daily`` (ranked) on the player's first attempt at
    today's, else ``practice``; 409 ``daily_not_open`` for a day not begun."""
    game = daily.start(store, caller.player().token, body.difficulty, body.date)
    return game_response(request, store, game, 201)


@router.get(
    "/daily/table",
    response_model=list_of(TableRowOut),
    responses=error_responses(DailyNotOpenError, MalformedError),
)
def table(
    difficulty: Difficulty,
    store: StoreDep,
    caller: CallerDep,
    day: Annotated[Day | None, Query(alias="date")] = None,
    after: Annotated[
        str | None,
        Query(
            pattern=daily.AFTER_PATTERN,
            description="A row's `after`: the page that follows it (else the top).",
        ),
    ] = None,
) -> list[daily.TableEntry]:
    """The day's ranked attempts on this server, best first (today when no date), a page of
    100 at a time, with the asking player's own row when it is not on the page."""
    return daily.table(store, caller.cookie_token, difficulty, day, after)
