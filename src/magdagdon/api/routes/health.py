"""``GET /api/health``: whether the server and its database are well, for a load balancer or a
monitor. 200 ``{"status": "ok", "database": "ok"}``; 503 ``{"status": "unavailable",
"database": "unavailable"}`` with ``Retry-After`` when the database cannot be used (within
2 s). It makes no player and is not rate-limited.

The probe (``store.health``) runs in a thread of its own, not in the pool that the other
routes share: when every thread there waits on a locked database, the health check must still
answer. One probe at a time: a check that comes while one runs waits for that one.
"""

import asyncio
import concurrent.futures
import threading

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from magdagdon.api.deps import StoreDep
from magdagdon.store import Store, health
from magdagdon.store.failures import RETRY_BUSY, Failure

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


@router.get("/health", responses={503: {"description": "The database cannot be used now"}})
async def health_check(request: Request, store: StoreDep) -> JSONResponse:
    prober: Prober = request.app.state.prober
    failure = await prober.check(store)
    if failure is None:
        return JSONResponse({"status": "ok", "database": "ok"})
    return JSONResponse(
        {"status": "unavailable", "database": "unavailable"},
        status_code=503,
        headers={"Retry-After": str(failure.retry_after)},
    )
