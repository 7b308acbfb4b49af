"""A database that cannot be used now answers 503 ``storage_unavailable`` with ``Retry-After``
(API.md), never a 500: the store's :class:`StorageUnavailableError`, and any driver error that
escaped the store but means the same (``store.failures.classify`` is the one judge)."""

from __future__ import annotations

import logging
import sqlite3
from typing import TYPE_CHECKING

import psycopg
from sqlalchemy.exc import DBAPIError

from magdagdon.api.errors import error_response
from magdagdon.store.failures import StorageUnavailableError, classify

if TYPE_CHECKING:
    from fastapi import FastAPI, Request
    from fastapi.responses import JSONResponse

log = logging.getLogger("magdagdon.api")


async def _unavailable(request: Request, exc: Exception) -> JSONResponse:
    failure = classify(exc)
    if failure is None:  # a driver error that is a bug: the same answer as any other
        log.error("database error", exc_info=exc)
        return error_response(request, 500, "internal_error", "the server failed; see its log")
    message = f"the database cannot be used now ({failure.reason}); try again in a moment"
    response = error_response(request, 503, "storage_unavailable", message)
    response.headers["Retry-After"] = str(failure.retry_after)
    return response


def install(app: FastAPI) -> None:
    for kind in (StorageUnavailableError, DBAPIError, sqlite3.Error, psycopg.Error):
        app.add_exception_handler(kind, _unavailable)
