"""``GET /api/health``: whether the server and its database are well, for a load balancer or a
monitor. 200 ``{"status": "ok", "database": "ok"}``; 503 ``{"status": "unavailable",
"database": "unavailable"}`` with ``Retry-After`` when the database cannot be used (within
2 s). It makes no player and is not rate-limited.

The probe (``store.health``) runs in a thread of its own, not in the pool that the other
routes share: when every thread there waits on a locked database, the health check must still
answer. One probe at a time: a check that comes while one runs waits for that one.

While a success is fresh (``store.health``: a probe began less than a second ago found the
database well), :class:`FreshHealth` answers it at once, from the edge's innermost layer: the
same 200, with every header the edge adds, without the route's machinery or a thread. Anything
else (no fresh success, a failure) goes to the route.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import threading
from typing import TYPE_CHECKING

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from magdagdon.api.deps import store_of
from magdagdon.store import Store, health
from magdagdon.store.failures import RETRY_BUSY, Failure

if TYPE_CHECKING:
    from starlette.types import ASGIApp, Receive, Scope, Send

router = APIRouter(prefix="/api", tags=["health"])

TIMEOUT = 1.8  # seconds: the answer comes within 2 s whatever the database does
_SLOW = Failure("the database did not answer in time", RETRY_BUSY, reopen=False)


class Prober:
    """One thread that probes the store; concurrent checks share the probe under way."""

    def __init__(self) -> None:
        self._executor = concurrent.futures.ThreadPoolExecutor(1, "magdagdon-health")
        self._lock = threading.Lock()
        self._running: concurrent.futures.Future[Failure | None] | None = None

    async def check(self, store: Store) -> Failure | None:
        with self._lock:
            if self._running is None or self._running.done():
                self._running = self._executor.submit(health.probe, store)
            running = self._running
        try:
            # shielded: a check that gives up must not cancel the probe others wait for
            return await asyncio.wait_for(asyncio.shield(asyncio.wrap_future(running)), TIMEOUT)
        except TimeoutError:
            return _SLOW

    def close(self) -> None:
        self._executor.shutdown(wait=False, cancel_futures=True)


PATH = "/api/health"
_WELL = JSONResponse({"status": "ok", "database": "ok"})


class FreshHealth:
    """ASGI middleware: ``GET /api/health`` answered at once while a success is fresh."""

    def __init__(self, app: ASGIApp, store: Store) -> None:
        self.app, self.store = app, store

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if (
            scope["type"] == "http"
            and scope["path"] == PATH
            and scope["method"] == "GET"
            and health.well_recently(self.store)
        ):
            # a new list each time: the outer layers add their headers to it
            headers = list(_WELL.raw_headers)
            await send({"type": "http.response.start", "status": 200, "headers": headers})
            await send({"type": "http.response.body", "body": _WELL.body})
            return
        await self.app(scope, receive, send)


@router.get("/health", responses={503: {"description": "The database cannot be used now"}})
async def health_check(request: Request) -> JSONResponse:
    prober: Prober = request.app.state.prober
    failure = await prober.check(store_of(request))
    if failure is None:
        return JSONResponse({"status": "ok", "database": "ok"})
    return JSONResponse(
        {"status": "unavailable", "database": "unavailable"},
        status_code=503,
        headers={"Retry-After": str(failure.retry_after)},
    )
