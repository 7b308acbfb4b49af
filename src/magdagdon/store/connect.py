"""One SQLAlchemy engine per store, set up for durability on each database.

SQLite: WAL with ``synchronous=FULL`` (a commit is on disk before it returns, so neither a
SIGKILL nor a power cut loses an acknowledged action), foreign keys on, a 30 s busy timeout.
The sqlite3 module's own transaction handling is switched off and the store emits BEGIN itself
(SQLAlchemy's documented recipe): a write is ``BEGIN IMMEDIATE``, so it takes the write lock
before it reads and another process cannot slip in between; a read of several statements that
must agree is a plain ``BEGIN`` (:data:`SNAPSHOT`); every other read is one statement, atomic on
its own, and runs without BEGIN or COMMIT (two round trips fewer into SQLite).

PostgreSQL (psycopg 3): the server's defaults (``synchronous_commit = on``: a commit is flushed
before it returns); a write locks the rows it changes (``SELECT … FOR UPDATE``).
"""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sqlalchemy import create_engine, event

if TYPE_CHECKING:
    from sqlalchemy import Connection, Engine
    from sqlalchemy.engine import URL

#: The execution options that mark a write transaction (``BEGIN IMMEDIATE`` on SQLite), and a
#: read of several statements that must see one state of the database (``BEGIN``).
WRITE = "magdagdon_write"
SNAPSHOT = "magdagdon_snapshot"
SYNCHRONOUS = ("FULL", "NORMAL")
POOL_SIZE = 8  # connections kept open; FastAPI's thread pool runs up to 40 requests at once
MAX_OVERFLOW = 16


def open_engine(url: URL, *, synchronous: str = "FULL") -> Engine:
    if url.get_backend_name() == "sqlite":
        return _sqlite(url, synchronous)
    # "READ COMMITTED" is PostgreSQL's default, named here because the writes rely on it: a
    # row lock taken by SELECT … FOR UPDATE waits for the other writer and then sees its commit
    return create_engine(
        url,
        pool_size=POOL_SIZE,
        max_overflow=MAX_OVERFLOW,
        isolation_level="READ COMMITTED",
    )


def _sqlite(url: URL, synchronous: str) -> Engine:
    if synchronous not in SYNCHRONOUS:
        raise ValueError(f"synchronous is one of {SYNCHRONOUS}")
    if url.database:  # the user's data directory may not exist yet
        Path(url.database).parent.mkdir(parents=True, exist_ok=True)
    engine = create_engine(
        url,
        connect_args={"timeout": 30.0, "check_same_thread": False},
        pool_size=POOL_SIZE,
        max_overflow=MAX_OVERFLOW,
        # every transaction is ended by the block that began it, and a read outside one leaves
        # nothing open: the pool's ROLLBACK on each return (a measurable cost) has nothing to do
        pool_reset_on_return=None,
    )

    @event.listens_for(engine, "connect")
    def on_connect(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None  # sqlite3 emits no BEGIN of its own
        cursor = dbapi_connection.cursor()
        try:
            _use_wal(cursor, url.database)
            cursor.execute(f"PRAGMA synchronous = {synchronous}")
            cursor.execute("PRAGMA foreign_keys = ON")
        finally:
            cursor.close()

    @event.listens_for(engine, "begin")
    def on_begin(conn: Connection) -> None:
        options = conn.get_execution_options()
        begin = (
            "BEGIN IMMEDIATE" if options.get(WRITE) else "BEGIN" if options.get(SNAPSHOT) else None
        )
        if begin is not None:  # straight to sqlite3: this runs before every transaction
            conn.connection.driver_connection.execute(begin)  # type: ignore[union-attr]

    return engine


def _use_wal(cursor: sqlite3.Cursor, name: str | None, timeout: float = 30.0) -> None:
    """Switch the file to WAL (it stays so). Switching takes an exclusive lock and SQLite then
    answers "database is locked" at once instead of waiting for the busy timeout, which is
    what processes starting together on a new file meet: so wait here."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            mode = cursor.execute("PRAGMA journal_mode = WAL").fetchone()[0]
            break
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or time.monotonic() > deadline:
                raise
            time.sleep(0.01)
    if str(mode).lower() != "wal":
        raise OSError(f"cannot use WAL on {name} (journal mode {mode})")
