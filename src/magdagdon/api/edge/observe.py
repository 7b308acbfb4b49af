"""The outermost layer of the edge: every request gets an id (``X-Request-Id`` on its answer,
and in the log lines written for it), and its answer is counted (``observe/metrics.py``:
by route template, method, status, and an error's code) and, with JSON logs, logged as one
line (``observe/logs.py``).

Outermost, so that it sees every answer, the edge's own refusals (403, 413, 429) and the
page's files included. A request that raises (a bug) is counted and logged here as a 500 with
its cause; Starlette's error layer outside this one answers it (``stack.py`` adds the id).
Pure ASGI and lean: an action pays for two clock readings, one match of a regular expression
and two increments (``bench/metrics_bench.py``).
"""

from __future__ import annotations

import json
import logging
import os
import re
from time import perf_counter
from typing import TYPE_CHECKING

from fastapi.routing import iter_route_contexts
from starlette.routing import BaseRoute, Mount, compile_path

from magdagdon.observe import metrics
from magdagdon.observe.logs import REQUEST_ID

if TYPE_CHECKING:
    from collections.abc import Iterable

    from starlette.types import ASGIApp, Message, Receive, Scope, Send

HEADER = b"x-request-id"
#: The scope's key for the request's id (the 500 answer, made outside this layer, sends it).
SCOPE_KEY = "magdagdon.request_id"
PAGE = "/{path}"  # anything the page's mount answers: its files, or 404
_CODE = re.compile(rb'"code":\s*"([a-z0-9_]{1,40})"')
_GROUP = re.compile(r"\(\?P<[^>]+>")
log = logging.getLogger("magdagdon.request")


class RouteNames:
    """A path's route template (``/api/games/{game_id}``), by one match against every route's
    pattern at once; the page's mount and anything unrouted are :data:`PAGE`."""

    def __init__(self, routes: Iterable[BaseRoute]) -> None:
        names: list[str] = []
        patterns: list[str] = []
        for route in iter_route_contexts(list(routes)):  # an included router's, one by one
            path, name = route.path, route.path_format
            if not path or not name or isinstance(route.original_route, Mount):
                continue
            pattern = compile_path(path)[0].pattern
            names.append(name)
            # the route's own groups are named after its parameters: several share a name
            patterns.append(f"(?P<r{len(names) - 1}>{_GROUP.sub('(?:', pattern)})")
        self._names = names
        self._match = re.compile("|".join(patterns) or "(?!)").match

    def __call__(self, path: str) -> str:
        found = self._match(path)
        if found is None or found.lastgroup is None:
            return PAGE
        return self._names[int(found.lastgroup[1:])]


class Observe:
    """ASGI middleware: the request's id, its count, its log line."""

    def __init__(self, app: ASGIApp, *, routes: RouteNames, log_requests: bool) -> None:
        self.app, self.routes, self.log_requests = app, routes, log_requests

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        began = perf_counter()
        request_id = os.urandom(8).hex()
        scope[SCOPE_KEY] = request_id
        token = REQUEST_ID.set(request_id)
        status = 0
        code: bytes | None = None
        body = b""  # an error answer's first bytes, for its log line
        header = (HEADER, request_id.encode())

        async def answer(message: Message) -> None:
            nonlocal status, code, body
            if message["type"] == "http.response.start":
                status = message["status"]
                message = {**message, "headers": [*message.get("headers", ()), header]}
            elif status >= 400 and code is None:
                body = message.get("body", b"")
                found = _CODE.search(body)
                code = found[1] if found is not None else b""
            await send(message)

        try:
            await self.app(scope, receive, answer)
        except Exception as exc:
            status, code = (status or 500), b"internal_error"
            if self.log_requests:
                log.error("request failed", exc_info=exc, extra={"request_id": request_id})
            else:  # uvicorn's own line, next, has the traceback
                log.error("request %s failed: %s: %s", request_id, type(exc).__name__, exc)
            raise
        finally:
            REQUEST_ID.reset(token)
            self._done(scope, request_id, status or 499, perf_counter() - began, code, body)

    def _done(
        self,
        scope: Scope,
        request_id: str,
        status: int,
        seconds: float,
        code: bytes | None,
        body: bytes,
    ) -> None:
        """Count the answer (499: the client left before any answer), and log it."""
        if not self.log_requests and metrics.current() is None:
            return
        route = self.routes(scope["path"])
        error = code.decode() if code else None
        metrics.answered(route, scope["method"], status, seconds, error)
        if not self.log_requests:
            return
        if status >= 500 and error != "internal_error":  # a bug's own line is written already
            log.warning("error answer", extra={"request_id": request_id, "cause": _cause(body)})
        log.info(
            "request",
            extra={
                "request_id": request_id,
                "method": scope["method"],
                "route": route,
                "status": status,
                "duration_ms": round(seconds * 1000, 3),
                "code": error,
            },
        )


def _cause(body: bytes) -> str:
    """An error answer's code and message (``{"error": {"code", "message"}}``)."""
    try:
        error = json.loads(body)["error"]
        return f"{error['code']}: {error['message']}"
    except (ValueError, KeyError, TypeError):
        return body[:200].decode(errors="replace")
