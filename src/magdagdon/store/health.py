"""Whether the database can be used now (``GET /api/health``): a write transaction that
changes nothing a player sees but meets what a real write would meet.

SQLite: this process's write lock and ``BEGIN IMMEDIATE`` (a lock held by another program),
then ``PRAGMA user_version`` written with the value it has, committed (one page to the
write-ahead log, synchronously: a full disk, a read-only or damaged file). PostgreSQL: the
connection (a stopped or unreachable server), ``transaction_read_only`` (a server in recovery,
or made read-only), and the lock that an action's writes take on its tables (a table locked by
another program), released at once. Each within the store's waits.

A success is reused for :data:`FRESH` seconds: a check within that time of a probe that wrote
answers "well" without writing again (a monitor polling every few seconds still gets a fresh
probe each time, and a flood of checks cannot make the server write and sync the disk for
each). A failure is never reused: while the database cannot be used, every check probes again,
so its recovery shows at once.
"""

from __future__ import annotations

import time
import weakref
from typing import TYPE_CHECKING

from sqlalchemy import text

from magdagdon.store.failures import RETRY_DOWN, Failure, StorageUnavailableError
from magdagdon.store.migrate import ALEMBIC_USER_VERSION

if TYPE_CHECKING:
    from sqlalchemy import Connection

    from magdagdon.store.store import Store

_READ_ONLY = Failure("the database is read-only", RETRY_DOWN, reopen=False)
_SQLITE_PROBE = text(f"PRAGMA user_version = {ALEMBIC_USER_VERSION:d}")
_PG_PROBE = text("SELECT current_setting('transaction_read_only')")
_PG_LOCK_PROBE = text("LOCK TABLE games, actions IN ROW EXCLUSIVE MODE")
_QUICK_CHECK = text("PRAGMA quick_check(1)")
_SIZE = text("SELECT page_count * page_size FROM pragma_page_count(), pragma_page_size()")
FRESH = 1.0  # seconds
_well_at: weakref.WeakKeyDictionary[Store, float] = weakref.WeakKeyDictionary()


def well_recently(store: Store, fresh: float | None = None) -> bool:
    """Whether a probe that began less than ``fresh`` (None: :data:`FRESH`) seconds ago found
    the database well: what :func:`probe` would answer without probing (no I/O, safe on the
    event loop)."""
    fresh = FRESH if fresh is None else fresh
    return time.monotonic() - _well_at.get(store, float("-inf")) < fresh


def probe(store: Store, fresh: float | None = None) -> Failure | None:
    """None when the database is well (a probe that began less than ``fresh`` (None:
    :data:`FRESH`) seconds ago found it so, or this one does); else what is wrong."""
    if well_recently(store, fresh):
        return None
    began = time.monotonic()
    failure = _probe(store)
    if failure is None:
        _well_at[store] = began
    else:
        _well_at.pop(store, None)
    return failure


class HealthReads:
    """The read of the file's soundness (part of :class:`~magdagdon.store.queries.Reads`)."""

    conn: Connection

    def file_bytes(self) -> int:
        """The SQLite file's size in bytes, by its own page count."""
        return int(self.conn.execute(_SIZE).scalar_one())

    def quick_check(self) -> str:
        """SQLite's ``quick_check``: ``ok``, or what it found wrong."""
        return str(self.conn.execute(_QUICK_CHECK).scalar())


class HealthWrites:
    """The probe's write (part of :class:`~magdagdon.store.queries.Rows`)."""

    conn: Connection

    def probe_write(self) -> None:
        """Meet what a real write would meet, changing nothing (see the module)."""
        if self.conn.dialect.name == "sqlite":
            self.conn.execute(_SQLITE_PROBE)
        elif self.conn.execute(_PG_PROBE).scalar() == "on":
            raise StorageUnavailableError(_READ_ONLY)
        else:
            self.conn.execute(_PG_LOCK_PROBE)


def _probe(store: Store) -> Failure | None:
    try:
        with store.write() as rows:
            rows.probe_write()
    except StorageUnavailableError as exc:
        return exc.failure
    return None


#: The largest SQLite file that is checked whole at every start (``PRAGMA quick_check`` reads
#: every page: about half a second for this much); a larger one is checked on demand only.
START_CHECK_BYTES = 64 * 1024 * 1024


def damage(store: Store, *, whole: bool = False) -> str | None:
    """For SQLite: what SQLite's own ``quick_check`` finds wrong with the file; None when it
    is sound. At start-up (``whole`` False) only a file of up to :data:`START_CHECK_BYTES` is
    checked, so that a start costs the same however big the data (docs/hosting.md "Checking the
    database"); ``magdagdon db check`` checks any file whole. PostgreSQL checks its own pages."""
    if store.dialect != "sqlite":
        return None
    try:
        with store.snapshot() as reads:
            if not whole and reads.file_bytes() > START_CHECK_BYTES:
                return None
            found = reads.quick_check()
    except StorageUnavailableError as exc:
        return f"{exc.reason} ({exc.failure.detail})"
    return None if found == "ok" else f"the database file is damaged ({found})"
