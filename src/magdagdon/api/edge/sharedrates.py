"""The rate limits' counters in the database (``store/counters.py``), which every worker process
and every host of a server share: with ``--workers N``, or several hosts on one PostgreSQL, a
player gets each rate once in all, not once per process.

The count runs in a request thread (it waits on the database) before the app does. When the
database cannot be used, the limiter does not refuse the request for it: it counts in this
process's memory instead (:class:`LocalCounters`) and tries the database again a few seconds
later. Every request the limits guard writes to the database itself, so it then gets the
store's own answer (503 ``storage_unavailable``, or its work done when the database is back),
and meanwhile the limits still hold per process rather than not at all.
"""

from __future__ import annotations

import logging
import time
from typing import TYPE_CHECKING

import anyio.to_thread

from magdagdon.api.edge.ratelimit import Counter, LocalCounters
from magdagdon.store.counters import Count, Counters
from magdagdon.store.failures import StorageUnavailableError

if TYPE_CHECKING:
    from limits import RateLimitItem

log = logging.getLogger("magdagdon.ratelimit")
#: Seconds the limiter counts in memory after the database failed it, before it tries again
#: (one request at a time tries, the others go on counting in memory meanwhile).
AWAY = 5.0


class SharedCounters:
    """The counters of ``counters`` (the database), falling back on this process's memory."""

    def __init__(self, counters: Counters) -> None:
        self.counters = counters
        self.local = LocalCounters()
        self._away_until = 0.0
        self._trying = False

    def close(self) -> None:
        self.counters.close()

    async def hit(self, counters: list[Counter]) -> int | None:
        if not counters:
            return None
        trying = bool(self._away_until)
        if trying:
            if self._trying or time.monotonic() < self._away_until:
                return self.local.hit_now(counters)
            self._trying = True  # this request tries the database again
        counts = [_count(rate, keys) for rate, keys in counters]
        try:
            wait = await anyio.to_thread.run_sync(self.counters.hit, counts)
        except StorageUnavailableError as exc:
            if not self._away_until:
                log.warning("rate limits count per process for now: %s", exc.reason)
            self._away_until = time.monotonic() + AWAY
            return self.local.hit_now(counters)
        finally:
            if trying:
                self._trying = False
        if self._away_until:
            log.warning("rate limits count in the database again")
            self._away_until = 0.0
        return wait


def _count(rate: RateLimitItem, keys: tuple[str, str, str]) -> Count:
    return Count(rate.key_for(*keys), rate.amount, rate.get_expiry())
