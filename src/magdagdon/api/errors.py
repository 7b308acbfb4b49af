"""Every error answers ``{"error": {"code", "message"}}``: 404, 409, 422 — never a 500."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException
from starlette.routing import Match

from magdagdon.api.cookies import set_new_player_cookie
from magdagdon.engine import IllegalActionError, MalformedError
from magdagdon.services.errors import RefusedInputError
from magdagdon.store import GameNotFoundError

if TYPE_CHECKING:
    from fastapi import FastAPI, Request

log = logging.getLogger("magdagdon.api")


def error_response(
    request: Request, status: int, code: str, message: str, **fields: int | str | None
) -> JSONResponse:
    error = {"code": code, "message": message, **fields}
    response = JSONResponse({"error": error}, status_code=status)
    set_new_player_cookie(request, response)
    return response


def _validation_message(exc: RequestValidationError) -> str:
    parts = []
    for error in exc.errors()[:5]:
        where = ".".join(str(p) for p in error.get("loc", ()) if p != "body")
        parts.append(f"{where}: {error.get('msg', 'invalid')}" if where else error.get("msg", ""))
    return "; ".join(parts) or "malformed request"


async def _illegal(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, IllegalActionError)
    return error_response(request, 409, exc.code, exc.message)


async def _not_found(request: Request, exc: Exception) -> JSONResponse:
    return error_response(request, 404, "not_found", "no such game")


async def _malformed(request: Request, exc: Exception) -> JSONResponse:
    return error_response(request, 422, "malformed", str(exc))


async def _refused(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RefusedInputError)
    return error_response(request, 422, exc.code, exc.message, **exc.fields())


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
    app.add_exception_handler(IllegalActionError, _illegal)
    app.add_exception_handler(GameNotFoundError, _not_found)
    app.add_exception_handler(MalformedError, _malformed)
    app.add_exception_handler(RefusedInputError, _refused)
    app.add_exception_handler(RequestValidationError, _invalid)
    app.add_exception_handler(HTTPException, _http)
