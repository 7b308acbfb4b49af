"""Every error answers the API's ``{"error": {"code", "message"}}`` (docs/api.md "Errors"),
from one table: :data:`ANSWERS` names each exception's status and code, the app's handlers
and the edge's own answers (``api/edge/answers.py``) alike. Bad input is 404, 409, 413, 422,
429 or 503 with a code — never a 500."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException
from starlette.routing import Match

from magdagdon.api.cookies import set_new_player_cookie
from magdagdon.compute import AlreadyRunningError, ComputeError, ComputeTimeoutError
from magdagdon.engine import IllegalActionError, MalformedError
from magdagdon.services.errors import (
    DailyNotOpenError,
    GameAbandonedError,
    GameNotFoundError,
    GameNotOverError,
    ImportInvalidError,
    InvalidNameError,
    LinkInvalidError,
    MalformedImportError,
    MalformedSyncError,
    NotDailyError,
    RefusedError,
    ReviewFailedError,
    SyncConflictError,
    SyncInvalidError,
    VersionConflictError,
)
from magdagdon.store.failures import DRIVER_ERRORS, StorageUnavailableError, classify

if TYPE_CHECKING:
    from fastapi import FastAPI, Request

log = logging.getLogger("magdagdon.api")


class RequestTimeoutError(Exception):
    """The edge's: the request's headers or body did not arrive in time."""


class BodyTooLargeError(Exception):
    """The edge's: a body over the limit of its path."""


class HeadersTooLargeError(Exception):
    """The edge's: request headers over the limit."""


class CrossSiteError(Exception):
    """The edge's: a state-changing request sent from another site."""


class RateLimitedError(Exception):
    """The edge's: too many requests of a kind; ``retry_after`` in seconds."""

    def __init__(self, message: str, retry_after: int) -> None:
        super().__init__(message)
        self.retry_after = retry_after


@dataclass(frozen=True, slots=True)
class Answer:
    status: int
    code: str | None  # None: the exception's own ``code`` (each of the engine's rules has one)
    about: str  # what it means, for the API's documentation (``error_responses``)
    message: str = "{exc}"  # formatted with the exception as ``exc``
    retry_after: str | None = None  # the Retry-After header, formatted the same way


INTERNAL = Answer(
    500, "internal_error", "a bug; see the server's log", "the server failed; see its log"
)

#: Each exception the server answers, with its status and code (a subclass not listed answers
#: as its nearest listed base; anything else is :data:`INTERNAL`).
ANSWERS: dict[type[Exception], Answer] = {
    # the rules of play (engine/errors.py): 409 with the rule's own code
    IllegalActionError: Answer(
        409, None, "the rules do not allow this action now; nothing changed"
    ),
    MalformedError: Answer(422, "malformed", "not the shape the request must have"),
    # the services' refusals (services/errors.py)
    GameNotFoundError: Answer(
        404, "not_found", "no such game (or another player's)", "no such game"
    ),
    LinkInvalidError: Answer(404, "link_invalid", "a wrong, used or expired code"),
    VersionConflictError: Answer(
        409, "version_conflict", "the game moved on from the version sent; nothing changed"
    ),
    GameAbandonedError: Answer(
        409, "game_abandoned", "a newer game of the player's abandoned this one"
    ),
    GameNotOverError: Answer(409, "game_not_over", "the game is not over yet"),
    NotDailyError: Answer(409, "not_daily", "not a daily challenge (or its practice)"),
    DailyNotOpenError: Answer(409, "daily_not_open", "that day's challenge has not begun"),
    SyncConflictError: Answer(
        409, "sync_conflict", "the server's copy of the game went another way"
    ),
    InvalidNameError: Answer(422, "invalid_name", "a name the rules of names refuse"),
    ImportInvalidError: Answer(
        422, "import_invalid", "a game of the file does not replay; nothing was kept"
    ),
    MalformedImportError: Answer(422, "malformed", "not an export document"),
    SyncInvalidError: Answer(422, "sync_invalid", "the game's log does not replay from its seed"),
    MalformedSyncError: Answer(422, "malformed", "not a game played offline"),
    ReviewFailedError: Answer(503, "review_failed", "the review could not be computed"),
    # the database (store/failures.py) and the computer player (compute/)
    StorageUnavailableError: Answer(
        503,
        "storage_unavailable",
        "the database cannot be used now; see Retry-After",
        "the database cannot be used now ({exc.reason}); try again in a moment",
        "{exc.retry_after}",
    ),
    AlreadyRunningError: Answer(
        429, "rate_limited", "one of the player's is under way already", "{exc}; one at a time", "1"
    ),
    ComputeTimeoutError: Answer(
        503,
        "busy",
        "the computer player is busy; see Retry-After",
        "the computer player took too long on this one; try again later",
        "5",
    ),
    ComputeError: Answer(
        503,
        "busy",
        "the computer player is busy; see Retry-After",
        "the computer player is busy; try again in a moment",
        "1",
    ),
    # the edge's, before the app sees the request (api/edge/)
    RequestTimeoutError: Answer(408, "request_timeout", "the body did not arrive in time"),
    BodyTooLargeError: Answer(413, "body_too_large", "the body is over this path's limit"),
    HeadersTooLargeError: Answer(431, "headers_too_large", "the headers are over the limit"),
    CrossSiteError: Answer(403, "cross_site", "sent from another site; nothing changed"),
    RateLimitedError: Answer(
        429,
        "rate_limited",
        "too many requests of this kind; see Retry-After",
        retry_after="{exc.retry_after}",
    ),
}


def answer_of(exc: BaseException) -> Answer:
    return answer_for(type(exc))


def answer_for(kind: type[BaseException]) -> Answer:
    """The answer to an exception of ``kind``: its own entry or its nearest listed base's."""
    return next((ANSWERS[base] for base in kind.__mro__ if base in ANSWERS), INTERNAL)


def described(kind: type[BaseException]) -> tuple[int, str]:
    """The status of an exception of ``kind`` and ``code: what it means``, as the API's
    documentation lists it (a rule of play has its code on its class)."""
    answer = answer_for(kind)
    code = answer.code
    if code is None:  # a rule of play: one of them, or each rule's own (docs/api.md)
        code = "the rule's code" if kind in ANSWERS else getattr(kind, "code", "refused")
    return answer.status, f"{code}: {answer.about}"


def error_body(code: str, message: str, **fields: int | str | None) -> dict[str, Any]:
    """The one shape of every error answer."""
    return {"error": {"code": code, "message": message, **fields}}


def parts(exc: BaseException) -> tuple[int, dict[str, Any], dict[str, str]]:
    """The answer to ``exc``: its status, its body and its headers."""
    answer = answer_of(exc)
    code = answer.code if answer.code is not None else str(getattr(exc, "code", "refused"))
    fields = exc.fields() if isinstance(exc, RefusedError) else {}
    body = error_body(code, answer.message.format(exc=exc), **fields)
    headers = {}
    if answer.retry_after is not None:
        headers["Retry-After"] = answer.retry_after.format(exc=exc)
    return answer.status, body, headers


def error_response(
    request: Request, status: int, code: str, message: str, **fields: int | str | None
) -> JSONResponse:
    response = JSONResponse(error_body(code, message, **fields), status_code=status)
    set_new_player_cookie(request, response)
    return response


async def answer(request: Request, exc: Exception) -> JSONResponse:
    """The handler of every exception in :data:`ANSWERS` (and of any other: a 500)."""
    status, body, headers = parts(exc)
    response = JSONResponse(body, status_code=status, headers=headers)
    set_new_player_cookie(request, response)
    return response


async def _driver_error(request: Request, exc: Exception) -> JSONResponse:
    """A driver error that escaped the store: ``store.failures.classify`` is the one judge of
    whether it means the database cannot be used now (503) or is a bug (500)."""
    failure = classify(exc)
    if failure is None:
        log.error("database error", exc_info=exc)
        return await answer(request, exc)
    return await answer(request, StorageUnavailableError(failure))


def _validation_message(exc: RequestValidationError) -> str:
    parts = []
    for error in exc.errors()[:5]:
        where = ".".join(str(p) for p in error.get("loc", ()) if p != "body")
        parts.append(f"{where}: {error.get('msg', 'invalid')}" if where else error.get("msg", ""))
    return "; ".join(parts) or "malformed request"


async def _invalid(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RequestValidationError)
    return error_response(request, 422, "malformed", _validation_message(exc))


async def _http(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, HTTPException)
    if exc.status_code == 400:  # a body FastAPI could not parse (not UTF-8, …): malformed
        return error_response(request, 422, "malformed", str(exc.detail))
    code = {404: "not_found", 405: "method_not_allowed"}.get(exc.status_code, "http_error")
    response = error_response(request, exc.status_code, code, str(exc.detail))
    if exc.headers:
        response.headers.update(exc.headers)
    if exc.status_code == 405:
        response.headers["Allow"] = ", ".join(sorted(_allowed_methods(request)))
    return response


def _allowed_methods(request: Request) -> set[str]:
    """Every method some route serves at this path (Starlette names only the first route's)."""
    return {
        method
        for method in _METHODS
        if any(
            route.matches({**request.scope, "method": method})[0] is Match.FULL
            for route in request.app.routes
        )
    }


_METHODS = ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE")


def install(app: FastAPI) -> None:
    for kind in ANSWERS:
        app.add_exception_handler(kind, answer)
    for driver in DRIVER_ERRORS:
        app.add_exception_handler(driver, _driver_error)
    app.add_exception_handler(RequestValidationError, _invalid)
    app.add_exception_handler(HTTPException, _http)
