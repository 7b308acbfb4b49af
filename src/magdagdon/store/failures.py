"""Which errors of a database mean "it cannot be used now" — locked, full, read-only, damaged,
unreachable — rather than a bug: the one place that tells them apart, for both drivers.

The store raises :class:`StorageUnavailableError` for them (the API answers 503
``storage_unavailable`` with ``Retry-After``); any other error stays what it is (a bug: 500).
A failed transaction is rolled back by the block that began it, so nothing is half-written.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass

import psycopg
from sqlalchemy import exc as sa

# SQLite's primary result codes (``sqlite_errorcode & 0xFF``) that say the database cannot be
# used now, with what an operator reads and whether this process must reopen its connections
# to get well again: a connection opened while the file was read-only stays read-only for
# good, and one that met an I/O error or a damaged file is not trusted again.
_SQLITE: dict[int, tuple[str, bool]] = {
    3: ("no permission to use the database file", True),  # SQLITE_PERM
    5: ("the database is locked by another program", False),  # SQLITE_BUSY
    6: ("the database is locked by another program", False),  # SQLITE_LOCKED
    7: ("out of memory", False),  # SQLITE_NOMEM
    8: ("the database is read-only", True),  # SQLITE_READONLY
    10: ("disk I/O error", True),  # SQLITE_IOERR
    11: ("the database file is damaged", True),  # SQLITE_CORRUPT
    13: ("the disk is full", False),  # SQLITE_FULL
    14: ("cannot open the database file", True),  # SQLITE_CANTOPEN
    15: ("the database is locked by another program", False),  # SQLITE_PROTOCOL
    26: ("the file is not a database", True),  # SQLITE_NOTADB
}
_BUSY_CODES = {5, 6, 15}
#: Seconds a client should wait before it tries again: a lock is usually gone at once; a full
#: disk, a read-only file or a stopped server need an operator.
RETRY_BUSY = 1
RETRY_DOWN = 5


@dataclass(frozen=True, slots=True)
class Failure:
    reason: str  # what the answer says: a category, no detail of the server's set-up
    retry_after: int
    reopen: bool  # this process's connections must be made anew to recover
    detail: str = ""  # the driver's own words, for the server's log only


class StorageUnavailableError(RuntimeError):
    """The database cannot be used now; nothing was changed. ``retry_after`` in seconds."""

    def __init__(self, failure: Failure) -> None:
        super().__init__(failure.reason)
        self.failure = failure

    @property
    def reason(self) -> str:
        return self.failure.reason

    @property
    def retry_after(self) -> int:
        return self.failure.retry_after


#: Every error a database driver or SQLAlchemy raises: for the callers outside the store that
#: must tell them apart from a bug (the API's handler, which asks :func:`classify` whether one
#: means 503; the command line, which says the database cannot be opened), so that no module
#: outside the store imports a driver.
DRIVER_ERRORS: tuple[type[Exception], ...] = (sa.DBAPIError, sqlite3.Error, psycopg.Error)
DATABASE_ERRORS: tuple[type[Exception], ...] = (sa.SQLAlchemyError, sqlite3.Error, psycopg.Error)


def classify(error: BaseException) -> Failure | None:
    """The :class:`Failure` that ``error`` means, or None for an error that is a bug."""
    if isinstance(error, StorageUnavailableError):
        return error.failure
    if isinstance(error, sa.TimeoutError):  # every pooled connection stayed busy too long
        return Failure("the database is busy", RETRY_BUSY, reopen=False)
    if isinstance(error, sa.DBAPIError) and error.orig is not None:
        failure = classify(error.orig)
        if failure is None and error.connection_invalidated:
            return Failure("the connection to the database was lost", RETRY_BUSY, reopen=False)
        return failure
    if isinstance(error, sqlite3.Error):
        code = getattr(error, "sqlite_errorcode", None)
        if code is None:
            return None
        known = _SQLITE.get(code & 0xFF)
        if known is None:
            return None
        reason, reopen = known
        retry = RETRY_BUSY if code & 0xFF in _BUSY_CODES else RETRY_DOWN
        return Failure(reason, retry, reopen, str(error))
    if isinstance(error, psycopg.errors.LockNotAvailable | psycopg.errors.QueryCanceled):
        return Failure("the database is locked by another program", RETRY_BUSY, reopen=False)
    if isinstance(error, psycopg.errors.ReadOnlySqlTransaction):
        return Failure("the database is read-only", RETRY_DOWN, reopen=False)
    if isinstance(error, psycopg.errors.DiskFull):
        return Failure("the database server's disk is full", RETRY_DOWN, reopen=False)
    if isinstance(error, psycopg.OperationalError | psycopg.InterfaceError):
        # connection refused or lost, the server shutting down or starting, too many clients:
        # psycopg's message names which (and the server's address: for the log only)
        detail = " ".join(str(error).split())
        return Failure("the database server cannot be reached", RETRY_DOWN, False, detail)
    return None
