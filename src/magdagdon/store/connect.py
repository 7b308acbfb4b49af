"""One SQLAlchemy engine per store, set up for durability on each database.

SQLite: WAL with ``synchronous=FULL`` (a commit is on disk before it returns, so neither a
SIGKILL nor a power cut loses an acknowledged action), the log checkpointed before it can fill
a small volume (:func:`wal_pages`), foreign keys on, a busy timeout of :class:`Waits` ``lock``
seconds (1 s for a server: a lock another program holds answers 503 in time, rather than
freezing every player).
The sqlite3 module's own transaction handling is switched off and the store emits BEGIN itself
(SQLAlchemy's documented recipe): a write is ``BEGIN IMMEDIATE``, so it takes the write lock
before it reads and another process cannot slip in between; a read of several statements that
must agree is a plain ``BEGIN`` (:data:`SNAPSHOT`); every other read is one statement, atomic on
its own, and runs without BEGIN or COMMIT (two round trips fewer into SQLite).

PostgreSQL (psycopg 3): the server's defaults (``synchronous_commit = on``: a commit is flushed
before it returns); a write locks the rows it changes (``SELECT … FOR UPDATE``); a server's
connections give up a lock after ``lock`` seconds and a statement after ``statement`` seconds,
and a connection attempt after ``connect`` seconds. A connection found broken invalidates the
whole pool (SQLAlchemy's default), so the pool heals itself once the server is back.
"""

from __future__ import annotations

import os
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sqlalchemy import create_engine, event

from magdagdon.store.writegate import WriteGate

if TYPE_CHECKING:
    from sqlalchemy import Connection, Engine
    from sqlalchemy.engine import URL

#: The execution options that mark a write transaction (``BEGIN IMMEDIATE`` on SQLite: True,
#: or a ``WriteGate`` that takes the lock), and a read of several statements that must see one
#: state of the database (``BEGIN``).
WRITE = "magdagdon_write"
SNAPSHOT = "magdagdon_snapshot"
SYNCHRONOUS = ("FULL", "NORMAL")
#: Connections kept open, by default (a server keeps one per request thread, Settings.threads):
#: a request that finds none kept waits for one to be opened (PostgreSQL forks a process for
#: each), and one opened beyond those kept is closed again when it is done.
POOL_SIZE = 8
#: Connections opened beyond those kept, for work outside the request threads (the health
#: probe, a clean-up run) or a tool's own threads.
MAX_OVERFLOW = 4


@dataclass(frozen=True, slots=True)
class Waits:
    """How long the store waits on the database before it gives up (seconds)."""

    lock: float  # for a lock (SQLite's busy timeout, PostgreSQL's lock_timeout) or a connection
    statement: float | None  # for one statement (PostgreSQL's statement_timeout); None: forever
    connect: int  # for a new connection to PostgreSQL (libpq's least is 2)
    # for this process's own earlier writes (SQLite's queue, ``Store.write``): only a server
    # far over its capacity waits this long (a lock held elsewhere fails the queue at once,
    # ``writegate.py``)
    queue: float = 5.0


#: SQLite's own ``wal_autocheckpoint`` and page size (``wal_pages``).
DEFAULT_WAL_PAGES = 1000
_PAGE_BYTES = 4096

#: For tools (``db copy``, tests, benchmarks): wait as long as it takes.
PATIENT = Waits(lock=30.0, statement=None, connect=30, queue=60.0)
#: For a server: a player gets an answer within 2 s, a 503 when the database cannot be used.
SERVING = Waits(lock=1.0, statement=1.5, connect=2)


def open_engine(
    url: URL,
    *,
    synchronous: str = "FULL",
    waits: Waits = PATIENT,
    writer: bool = False,
    connections: int = POOL_SIZE,
) -> Engine:
    """The engine of ``url``, keeping ``connections`` open. ``writer``, for SQLite: the engine
    of this process's writes, one at a time (``Store.write``) through a ``WriteGate``: one
    connection kept, and no busy timeout (the gate does the waiting)."""
    if url.get_backend_name() == "sqlite":
        return _sqlite(url, synchronous, waits, writer, connections)
    options = f"-c lock_timeout={int(waits.lock * 1000)}"
    if waits.statement is not None:
        options += f" -c statement_timeout={int(waits.statement * 1000)}"
    # "READ COMMITTED" is PostgreSQL's default, named here because the writes rely on it: a
    # row lock taken by SELECT … FOR UPDATE waits for the other writer and then sees its commit
    return create_engine(
        url,
        pool_size=connections,
        max_overflow=MAX_OVERFLOW,
        pool_timeout=waits.lock,
        # a connection the server ended (a failover, an operator's pg_terminate_backend) is
        # found at checkout and made anew, in every worker's pool, instead of failing the
        # first request that draws it after the database is back
        pool_pre_ping=True,
        isolation_level="READ COMMITTED",
        connect_args={"connect_timeout": max(2, waits.connect), "options": options},
    )


def _sqlite(url: URL, synchronous: str, waits: Waits, writer: bool, connections: int) -> Engine:
    if synchronous not in SYNCHRONOUS:
        raise ValueError(f"synchronous is one of {SYNCHRONOUS}")
    if url.database:  # the user's data directory may not exist yet
        Path(url.database).parent.mkdir(parents=True, exist_ok=True)
    engine = create_engine(
        url,
        connect_args={"timeout": 0.0 if writer else waits.lock, "check_same_thread": False},
        pool_size=1 if writer else connections,
        max_overflow=2 if writer else MAX_OVERFLOW,
        pool_timeout=waits.lock,
        # every transaction is ended by the block that began it, and a read outside one leaves
        # nothing open: the pool's ROLLBACK on each return (a measurable cost) has nothing to do
        pool_reset_on_return=None,
    )

    @event.listens_for(engine, "connect")
    def on_connect(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None  # sqlite3 emits no BEGIN of its own
        cursor = dbapi_connection.cursor()
        try:
            _use_wal(cursor, url.database, waits.lock)
            pages = wal_pages(url.database)
            if pages != DEFAULT_WAL_PAGES:
                cursor.execute(f"PRAGMA wal_autocheckpoint = {pages:d}")
                cursor.execute(f"PRAGMA journal_size_limit = {pages * _PAGE_BYTES:d}")
            cursor.execute(f"PRAGMA synchronous = {synchronous}")
            cursor.execute("PRAGMA foreign_keys = ON")
        finally:
            cursor.close()

    @event.listens_for(engine, "begin")
    def on_begin(conn: Connection) -> None:
        options = conn.get_execution_options()
        write = options.get(WRITE)
        driver: Any = conn.connection.driver_connection  # straight to sqlite3: runs every time
        if isinstance(write, WriteGate):
            write.begin(driver)
        elif write:
            driver.execute("BEGIN IMMEDIATE")
        elif options.get(SNAPSHOT):
            driver.execute("BEGIN")

    return engine


def wal_pages(database: str | None) -> int:
    """The pages the write-ahead log may hold before a commit checkpoints it: SQLite's 1000
    (4 MB), or on a volume smaller than 8 times that, an eighth of the volume (at least 16):
    room kept so that the log never fills a small volume by itself, and a checkpoint (which
    needs room for the pages it adds to the database file) can always run once the operator
    frees what else filled it."""
    if not database:
        return DEFAULT_WAL_PAGES
    try:
        volume = os.statvfs(Path(database).parent)
    except OSError:
        return DEFAULT_WAL_PAGES
    pages = volume.f_blocks * volume.f_frsize // _PAGE_BYTES // 8
    return max(16, min(DEFAULT_WAL_PAGES, pages))


def _use_wal(cursor: sqlite3.Cursor, name: str | None, timeout: float) -> None:
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
