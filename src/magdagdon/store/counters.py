"""Counters that every server process and every host of one database share: the rate limits'
fixed windows (``api/edge/sharedrates.py``), in the ``rate_counters`` table.

One statement counts a request in all of its counters at once: an upsert that answers each
counter's hits after this one (``INSERT … ON CONFLICT DO UPDATE … RETURNING``, on both
databases). Each increment is atomic, so two processes never both get the last free hit: with
any number of processes, exactly ``limit`` requests pass in a window. A refused request counts
in none of its counters: on SQLite its transaction (which holds the write lock) rolls back; on
PostgreSQL the upsert runs alone (one round trip) and a second statement takes the counts back.

A window is aligned to its length (a minute's starts on the minute) by the database's clock, so
hosts whose clocks differ still agree on it.

The counts are not worth an fsync each: SQLite commits them with ``synchronous=NORMAL`` (in WAL
mode never corrupt; on disk at the next checkpoint), PostgreSQL with ``synchronous_commit``
off. A crash of the machine loses at most the last counts, which only lets a few more requests
in that window.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sqlalchemy import event

from magdagdon.store.connect import Waits
from magdagdon.store.store import Store

if TYPE_CHECKING:
    from collections.abc import Sequence

log = logging.getLogger("magdagdon.store")
#: A counter gives up on the database sooner than a request does: the limiter then counts in
#: its own process (``sharedrates.py``) and the request still meets the database's own wait.
COUNTING = Waits(lock=0.5, statement=0.5, connect=2, queue=0.5)
SWEEP_INTERVAL = 60.0  # seconds between two sweeps of ended windows by one process


@dataclass(frozen=True, slots=True)
class Count:
    """One counter a request counts in: at most ``limit`` hits in each window of ``period``
    seconds."""

    key: str
    limit: int
    period: int


class _OverError(Exception):
    def __init__(self, wait: int) -> None:
        super().__init__(wait)
        self.wait = wait


class Counters:
    """The shared counters of a database (a SQLite file path or a ``postgresql://`` URL, already
    migrated). Thread-safe; close it when done. Its methods raise ``StorageUnavailableError``
    when the database cannot be used now."""

    def __init__(self, db: str, *, waits: Waits = COUNTING, connections: int = 2) -> None:
        self.store = Store(
            db, synchronous="NORMAL", waits=waits, migrated=True, connections=connections
        )
        if self.store.dialect == "postgresql":
            event.listen(self.store.engine, "connect", _no_synchronous_commit)
        self._swept = time.monotonic()

    def close(self) -> None:
        self.store.close()

    def hit(self, counts: Sequence[Count]) -> int | None:
        """Count one request in every one of ``counts`` and answer None; or, when that would
        put one over its limit, count it in none and answer the seconds until that window ends
        (the longest wait when several are full)."""
        if not counts:
            return None
        keys = [(count.key, count.period) for count in counts]
        limits = {count.key: count.limit for count in counts}
        sweep = time.monotonic() - self._swept > SWEEP_INTERVAL
        if sweep:
            self._swept = time.monotonic()
        if self.store.dialect == "postgresql":
            return self._hit_at_once(keys, limits, sweep)
        try:
            with self.store.write() as rows:
                wait = _wait(rows.count_hits(keys), limits)
                if wait is not None:
                    raise _OverError(wait)  # rolls the counts back
                if sweep:
                    rows.sweep_counts()
        except _OverError as over:
            return over.wait
        return None

    def _hit_at_once(
        self, keys: list[tuple[str, int]], limits: dict[str, int], sweep: bool
    ) -> int | None:
        """PostgreSQL: the upsert on its own (one round trip rather than three with BEGIN and
        COMMIT); a request over a limit takes its counts back with a second statement. Until
        then another request that shares one of its counters may see one hit too many and be
        refused (never let in)."""
        with self.store.autocommit() as rows:
            found = rows.count_hits(keys)
            wait = _wait(found, limits)
            if wait is not None:
                rows.uncount([(key, end) for key, _hits, end, _now in found])
            elif sweep:
                rows.sweep_counts()
        return wait


def _wait(found: list[tuple[str, int, int, int]], limits: dict[str, int]) -> int | None:
    """The seconds until the longest full window among ``found`` (key, hits, window_end, now)
    ends; None when none is over its limit."""
    waits = [end - now for key, hits, end, now in found if hits > limits[key]]
    return max(1, *waits) if waits else None


def _no_synchronous_commit(dbapi_connection: Any, _record: Any) -> None:
    # psycopg's connection is in a transaction after a statement until it commits: end it
    dbapi_connection.execute("SET synchronous_commit = off")
    dbapi_connection.commit()
