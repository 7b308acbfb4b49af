"""``magdagdon db backup``: a consistent copy of a SQLite database that a server may be using,
by SQLite's online backup API, without stopping play.

The copy is made in one step: one read transaction over the whole file, so it is the database
as it stood at one moment (WAL: the server's writers go on meanwhile; only a checkpoint waits
for the copy to end). A copy made in several steps would start again each time another process
writes, and on a busy server might never end. The copy is written beside the target, checked
(``quick_check``), put on disk, then renamed into place: a target that exists is a whole copy.

PostgreSQL has its own tools (``pg_dump`` / ``pg_restore``: docs/hosting.md "Backups").
"""

from __future__ import annotations

import os
import sqlite3
from dataclasses import dataclass
from pathlib import Path

from magdagdon.store.paths import is_postgresql

_BUSY_MS = 30_000  # a server's write holds the lock for milliseconds; a backup can wait


class BackupError(Exception):
    """The backup was not made; the message says why."""


@dataclass(frozen=True, slots=True)
class Copied:
    players: int
    games: int
    actions: int
    bytes: int


def backup(source: str, target: str | os.PathLike[str]) -> Copied:
    """Copy the SQLite database ``source`` to the new file ``target``."""
    if is_postgresql(source):
        raise BackupError("a PostgreSQL database is backed up with pg_dump (docs/hosting.md)")
    source_path, target_path = Path(source), Path(target)
    if not source_path.is_file():
        raise BackupError(f"{source} is not a file")
    if target_path.exists():
        raise BackupError(f"{target} exists: back up into a new file")
    part = target_path.with_name(target_path.name + ".part")
    part.unlink(missing_ok=True)
    try:
        _copy(source_path, part)
        copied = _check(part)
        _sync(part)
        os.replace(part, target_path)
        _sync(target_path.parent)
    except BaseException:
        part.unlink(missing_ok=True)
        raise
    return copied


def _copy(source: Path, part: Path) -> None:
    src = sqlite3.connect(source, timeout=_BUSY_MS / 1000)
    try:
        dst = sqlite3.connect(part)
        try:
            src.backup(dst)  # pages=-1: the whole file in one step, one read transaction
            # the copy stands alone: no write-ahead log beside it
            dst.execute("PRAGMA journal_mode = DELETE")
        finally:
            dst.close()
    except sqlite3.Error as exc:
        raise BackupError(f"the backup failed: {exc}") from exc
    finally:
        src.close()


def _check(part: Path) -> Copied:
    conn = sqlite3.connect(part)
    try:
        found = conn.execute("PRAGMA quick_check(1)").fetchone()[0]
        if found != "ok":
            raise BackupError(f"the copy is damaged ({found})")
        counts = [
            conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0]
            for table in ("players", "games", "actions")
        ]
    except sqlite3.Error as exc:
        raise BackupError(f"the copy cannot be read: {exc}") from exc
    finally:
        conn.close()
    return Copied(counts[0], counts[1], counts[2], part.stat().st_size)


def _sync(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
