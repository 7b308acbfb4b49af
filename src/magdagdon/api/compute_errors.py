"""The compute pool's refusals as answers: a second hint while the player's first is being
computed is 429 ``rate_limited`` (``Retry-After: 1``); a server whose compute queue is full,
or a job past its time limit, is 503 ``busy`` with ``Retry-After``."""

from __future__ import annotations

from typing import TYPE_CHECKING

from magdagdon.api.errors import error_response
from magdagdon.compute import AlreadyRunningError, ComputeError, ComputeTimeoutError

if TYPE_CHECKING:
    from fastapi import FastAPI, Request
    from fastapi.responses import JSONResponse


async def _refused(request: Request, exc: Exception) -> JSONResponse:
    if isinstance(exc, AlreadyRunningError):
        response = error_response(request, 429, "rate_limited", f"{exc}; one at a time")
        response.headers["Retry-After"] = "1"
        return response
    if isinstance(exc, ComputeTimeoutError):
        message = "the computer player took too long on this one; try again later"
        retry = "5"
    else:
        message = "the computer player is busy; try again in a moment"
        retry = "1"
    response = error_response(request, 503, "busy", message)
    response.headers["Retry-After"] = retry
    return response


def install(app: FastAPI) -> None:
    app.add_exception_handler(ComputeError, _refused)
