"""Counters that every server process and every host of one database share: the rate limits'
fixed windows (``api/edge/sharedrates.py``), in the ``rate_counters`` table.

One transaction counts a request in all of its counters at once: an upsert that answers each
counter's hits after this one (``INSERT … ON CONFLICT DO UPDATE … RETURNING``, on both
databases). The upsert takes the counters' rows (PostgreSQL's row locks, SQLite's write lock)
until the transaction ends, so two processes never both read the last free hit: with any number
of processes, exactly ``limit`` requests pass in a window. A request over one of its limits rolls
the transaction back, so a refused request counts in none of them.

A window is aligned to its length (a minute's starts on the minute) by the database's clock, so
hosts whose clocks differ still agree on it.

The counts are not worth an fsync each: SQLite commits them with ``synchronous=NORMAL`` (in WAL
mode never corrupt; on disk at the next checkpoint), PostgreSQL with ``synchronous_commit``
off. A crash of the machine loses at most the last counts, which only lets a few more requests
in that window.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sqlalchemy import event, text

from magdagdon.store.connect import Waits
from magdagdon.store.store import Store

if TYPE_CHECKING:
    from collections.abc import Sequence

#: A counter gives up on the database sooner than a request does: the limiter then counts in
#: its own process (``sharedrates.py``) and the request still meets the database's own wait.
COUNTING = Waits(lock=0.5, statement=0.5, connect=2, queue=0.5)
SWEEP_INTERVAL = 60.0  # seconds between two sweeps of ended windows by one process
_EPOCH = {
    "sqlite": "CAST(strftime('%s', 'now') AS INTEGER)",
    "postgresql": "CAST(floor(extract(epoch FROM statement_timestamp())) AS BIGINT)",
}


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
        dialect = self.store.dialect
        if dialect == "postgresql":
            event.listen(self.store.engine, "connect", _no_synchronous_commit)
        self._now = _EPOCH[dialect]
        self._mark = "?" if dialect == "sqlite" else "%s"  # the driver's placeholder
        self._upserts: dict[int, str] = {}
        self._sweep = text(f"DELETE FROM rate_counters WHERE window_end <= {self._now}")
        self._swept = time.monotonic()

    def close(self) -> None:
        self.store.close()

    def hit(self, counts: Sequence[Count]) -> int | None:
        """Count one request in every one of ``counts`` and answer None; or, when that would
        put one over its limit, count it in none and answer the seconds until that window ends
        (the longest wait when several are full)."""
        if not counts:
            return None
        params: list[Any] = []
        for count in counts:
            params += (count.key, count.period, count.period)
        limits = {count.key: count.limit for count in counts}
        sweep = time.monotonic() - self._swept > SWEEP_INTERVAL
        try:
            with self.store.write() as rows:
                # straight to the driver: SQLAlchemy's statement machinery costs more than the
                # statement itself on this path, which every limited request takes
                driver: Any = rows.conn.connection.driver_connection
                found = driver.execute(self._upsert(len(counts)), params).fetchall()
                waits = [end - now for key, hits, end, now in found if hits > limits[key]]
                if waits:
                    raise _OverError(max(1, *waits))  # rolls the counts back
                if sweep:
                    self._swept = time.monotonic()
                    rows.conn.execute(self._sweep)
        except _OverError as over:
            return over.wait
        return None

    def _upsert(self, size: int) -> str:
        statement = self._upserts.get(size)
        if statement is None:
            mark = self._mark
            row = f"({mark}, ({self._now} / {mark} + 1) * {mark}, 1)"
            statement = (
                "INSERT INTO rate_counters (key, window_end, hits) VALUES "
                + ", ".join([row] * size)
                + " ON CONFLICT (key) DO UPDATE SET hits = CASE"
                " WHEN rate_counters.window_end = excluded.window_end"
                " THEN rate_counters.hits + 1 ELSE 1 END,"
                " window_end = excluded.window_end"
                f" RETURNING key, hits, window_end, {self._now}"
            )
            self._upserts[size] = statement
        return statement


def _no_synchronous_commit(dbapi_connection: Any, _record: Any) -> None:
    # psycopg's connection is in a transaction after a statement until it commits: end it
    dbapi_connection.execute("SET synchronous_commit = off")
    dbapi_connection.commit()
