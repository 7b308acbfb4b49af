"""How a server's writes take SQLite's write lock: in turn among its own processes, and waiting
for another program's lock at most ``Waits.lock`` seconds.

SQLite's own wait for a lock is a poll with growing sleeps (up to 100 ms each): two worker
processes writing all the time would starve each other in it. So the server's processes queue
on a file lock of their own (``flock`` on ``<database>.lock``, which the kernel hands to the
next waiter at once, and releases when a process dies), and each then asks SQLite for its write
lock without waiting (a busy timeout of 0 on the writing connections). If SQLite refuses, the
lock is held by another program (a backup, the ``sqlite3`` shell, a checkpoint): the process
leaves the file lock to the others and waits for SQLite's lock with the busy timeout, at most
``lock`` seconds. When that wait fails, the next writers of this process try once without
waiting for the same ``lock`` seconds, so that writers queued behind it answer at once rather
than each waiting its own second: every answer comes within about ``lock`` seconds.

Each process also queues its own writes on a Python lock (``Store.write``) before this gate, so
one thread of a process at a time is here.
"""

from __future__ import annotations

import contextlib
import logging
import sqlite3
import time
from typing import IO, TYPE_CHECKING

if TYPE_CHECKING:
    from pathlib import Path

try:
    import fcntl
except ImportError:  # Windows: SQLite's own waiting alone
    fcntl = None  # type: ignore[assignment]

log = logging.getLogger("magdagdon.store")
_BUSY = {5, 6}  # SQLITE_BUSY, SQLITE_LOCKED


class WriteGate:
    """The write lock of one SQLite database for this process (see the module)."""

    def __init__(self, database: Path, wait: float) -> None:
        self.database, self.wait = database, wait
        self._failed_at = float("-inf")
        self._held = False
        self._file: IO[bytes] | None = None
        self._opened = fcntl is None  # the lock file is opened on the first write

    def _lock_file(self) -> IO[bytes] | None:
        if not self._opened:
            self._opened = True
            try:
                self._file = open(f"{self.database}.lock", "ab")  # noqa: SIM115  (kept open)
            except OSError as exc:  # a read-only folder: SQLite's own waiting alone
                log.warning(
                    "no lock file beside %s (%s): writes poll SQLite's lock", self.database, exc
                )
        return self._file

    def begin(self, driver: sqlite3.Connection) -> None:
        """``BEGIN IMMEDIATE`` on ``driver`` (a connection whose busy timeout is 0)."""
        self._enter()
        try:
            driver.execute("BEGIN IMMEDIATE")
            return
        except sqlite3.OperationalError as exc:
            if (getattr(exc, "sqlite_errorcode", 0) or 0) & 0xFF not in _BUSY:
                self.release()
                raise
        self.release()  # another program holds SQLite's lock: wait apart from our processes
        recently = time.monotonic() - self._failed_at < self.wait
        driver.execute(f"PRAGMA busy_timeout = {0 if recently else int(self.wait * 1000):d}")
        try:
            driver.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError:
            self._failed_at = time.monotonic()
            raise
        finally:
            driver.execute("PRAGMA busy_timeout = 0")
        self._failed_at = float("-inf")

    def _enter(self) -> None:
        file = self._lock_file()
        if file is not None:
            # blocking: only this server's processes take it, each for one transaction
            fcntl.flock(file, fcntl.LOCK_EX)
            self._held = True

    def release(self) -> None:
        """After the transaction ended (committed or rolled back)."""
        if self._held and self._file is not None:
            self._held = False
            fcntl.flock(self._file, fcntl.LOCK_UN)

    def close(self) -> None:
        if self._file is not None:
            with contextlib.suppress(OSError):
                self._file.close()
            self._file = None
