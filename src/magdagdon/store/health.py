"""Whether the database can be used now (``GET /api/health``): a write transaction that
changes nothing a player sees but meets what a real write would meet.

SQLite: this process's write lock and ``BEGIN IMMEDIATE`` (a lock held by another program),
then ``PRAGMA user_version`` written with the value it has, committed (one page to the
write-ahead log, synchronously: a full disk, a read-only or damaged file). PostgreSQL: the
connection (a stopped or unreachable server), ``transaction_read_only`` (a server in recovery,
or made read-only), and the lock that an action's writes take on its tables (a table locked by
another program), released at once. Each within the store's waits.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sqlalchemy import text

from magdagdon.store.failures import RETRY_DOWN, Failure, StorageUnavailableError
from magdagdon.store.migrate import ALEMBIC_USER_VERSION

if TYPE_CHECKING:
    from magdagdon.store.store import Store

_READ_ONLY = Failure("the database is read-only", RETRY_DOWN, reopen=False)
_SQLITE_PROBE = text(f"PRAGMA user_version = {ALEMBIC_USER_VERSION:d}")
_PG_PROBE = text("SELECT current_setting('transaction_read_only')")
_PG_LOCK_PROBE = text("LOCK TABLE games, actions IN ROW EXCLUSIVE MODE")
_QUICK_CHECK = text("PRAGMA quick_check(1)")


def probe(store: Store) -> Failure | None:
    """None when the database is well; else what is wrong."""
    try:
        with store.write() as rows:
            if store.dialect == "sqlite":
                rows.conn.execute(_SQLITE_PROBE)
            elif rows.conn.execute(_PG_PROBE).scalar() == "on":
                raise StorageUnavailableError(_READ_ONLY)
            else:
                rows.conn.execute(_PG_LOCK_PROBE)
    except StorageUnavailableError as exc:
        return exc.failure
    return None


def damage(store: Store) -> str | None:
    """At start-up, for SQLite: what SQLite's own ``quick_check`` finds wrong with the file
    (it reads every page once: about a second for 100 MB); None when it is sound. A damaged
    page would otherwise be met only by the player whose game is on it."""
    if store.dialect != "sqlite":
        return None
    try:
        with store.snapshot() as reads:
            found = str(reads.conn.execute(_QUICK_CHECK).scalar())
    except StorageUnavailableError as exc:
        return f"{exc.reason} ({exc.failure.detail})"
    return None if found == "ok" else f"the database file is damaged ({found})"
