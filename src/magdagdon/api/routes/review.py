"""``GET /api/games/{id}/review``: a finished game's review (docs/rules.md "Modes and records"
(Review)).

200 with the review once computed; 202 ``{"status": "pending", "progress"}`` while a background
job computes it (the first poll starts it); 409 ``game_not_over`` before the end; 404 for another
player's game. The rules of when a job starts are ``services.reviews``'s; the job runs in the
server's background compute processes (``magdagdon.compute``), apart from every request.
"""

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from magdagdon.api.deps import CallerDep, StoreDep
from magdagdon.api.schemas.responses import error_responses
from magdagdon.api.schemas.review import Review, ReviewPending
from magdagdon.services import reviews
from magdagdon.services.errors import GameNotFoundError, GameNotOverError, ReviewFailedError

router = APIRouter(prefix="/api/games", tags=["review"])

_ANSWERS: dict[int | str, dict[str, object]] = {
    200: {"model": Review, "description": "The review"},
    202: {"model": ReviewPending, "description": "Being computed: poll again"},
}


@router.get(
    "/{game_id}/review",
    responses={
        **_ANSWERS,
        **error_responses(GameNotFoundError, GameNotOverError, ReviewFailedError),
    },
)
def review(request: Request, game_id: str, store: StoreDep, caller: CallerDep) -> JSONResponse:
    """The game's review, or its progress (starting it)."""
    token = caller.cookie_token
    found = reviews.review(store, token, game_id, request.app.state.compute)
    if isinstance(found, reviews.Pending):
        return JSONResponse({"status": "pending", "progress": found.progress}, status_code=202)
    return JSONResponse({"status": "done", **found.review})
