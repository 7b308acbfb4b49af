"""The store: players, games (current state + action log) and High Scores, on SQLite or
PostgreSQL. It reads and writes rows and nothing else: the rules of a game and of its modes are
the services' (``magdagdon.services``). Every query goes through one of three transactions:
:meth:`Store.read` and :meth:`Store.snapshot` hand out :class:`Reads`, :meth:`Store.write`
hands out :class:`Rows` (``queries.py``: every write, an action's included) — and, on
PostgreSQL, :meth:`Store.autocommit` for the rate counters, which need none; the few methods
here are the one-query shortcuts.

Durability (``connect.py``): every write is committed, and on disk, before its method returns.
SQLite's writes in this process also take a lock of their own: they would serialise on the
database's write lock anyway, and a Python lock queues them without SQLite's busy-wait polling.

A database that cannot be used now (locked, full, read-only, damaged, unreachable: see
``failures.py``) raises :class:`StorageUnavailableError` from every method, after the
transaction was rolled back; connections that could not recover alone are made anew.
"""

from __future__ import annotations

import logging
import secrets
import threading
import time
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from magdagdon.observe import metrics
from magdagdon.store import migrate
from magdagdon.store.cleanup import Removed, remove
from magdagdon.store.connect import PATIENT, POOL_SIZE, SNAPSHOT, WRITE, Waits, open_engine
from magdagdon.store.failures import Failure, StorageUnavailableError, classify
from magdagdon.store.groupcommit import GroupCommit
from magdagdon.store.paths import database_url, describe
from magdagdon.store.prepared import Statements
from magdagdon.store.queries import Reads, Rows, checked_language
from magdagdon.store.records import HighScore, Player, now
from magdagdon.store.writegate import WriteGate

if TYPE_CHECKING:
    import os
    from collections.abc import Iterator

    from sqlalchemy import Connection

    from magdagdon.engine import Action, Difficulty
    from magdagdon.store.records import GameRecord

log = logging.getLogger("magdagdon.store")
R = TypeVar("R", bound=Reads)
_QUEUED = Failure("the database is busy: too many writes wait for it", 1, reopen=False)
_REOPEN_INTERVAL = 0.2  # seconds: a burst of failing requests reopens the pool once


class Store:
    """The game's database (a SQLite file path or a ``postgresql://`` URL), migrated when
    opened. Thread-safe; close it when done."""

    def __init__(
        self,
        db: str | os.PathLike[str],
        *,
        synchronous: str = "FULL",
        waits: Waits = PATIENT,
        migrated: bool = False,
        connections: int = POOL_SIZE,
    ) -> None:
        """``waits``: how long to wait on the database (``connect.SERVING`` for a server);
        ``migrated``: the caller already brought the database to this code's schema (a
        server's workers, after their parent did), so opening touches nothing;
        ``connections``: how many it keeps open (a server: one per request thread)."""
        self.db = str(db)
        self.waits = waits
        url = database_url(db)
        self.engine = open_engine(
            url, synchronous=synchronous, waits=waits, connections=connections
        )
        self.dialect: str = self.engine.dialect.name
        sqlite = self.dialect == "sqlite"
        self._write_lock = threading.Lock() if sqlite else None
        self._gate: WriteGate | None = None
        self._write_engine = self.engine
        if sqlite:
            self._gate = WriteGate(Path(str(url.database)), waits.lock)
            self._write_engine = open_engine(url, synchronous=synchronous, waits=waits, writer=True)
        # made once: it costs
        self._writer = self._write_engine.execution_options(**{WRITE: self._gate or True})
        self._statements = Statements(self.engine.dialect)
        self._reopened = 0.0
        #: SQLite's actions committed together by one writer thread (``groupcommit.py``);
        #: None on PostgreSQL, whose writers lock only their own rows and run side by side
        self.group = GroupCommit(self) if sqlite else None
        if migrated:
            self.revision = migrate.head()
            return
        try:
            self.revision = migrate.upgrade(self.engine)
        except BaseException:
            self.close()
            raise

    def __repr__(self) -> str:
        return f"Store({describe(self.db)!r})"

    def close(self) -> None:
        if self.group is not None:
            self.group.close()
        self.engine.dispose()
        self._write_engine.dispose()
        if self._gate is not None:
            self._gate.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ----- transactions ---------------------------------------------------------------------

    @contextmanager
    def write(self) -> Iterator[Rows]:
        """One write transaction: committed when the block ends, rolled back if it raises.
        Every write goes through here: an action (on SQLite in a group, ``groupcommit.py``),
        a sync, an import, every other route."""
        with self._failures():
            if self._write_lock is None:
                with self._writer.connect() as conn, conn.begin(), self._rows(Rows, conn) as rows:
                    yield rows
                return
            with self._sqlite_write() as conn, self._rows(Rows, conn) as rows:
                yield rows

    @contextmanager
    def _rows(self, kind: type[R], conn: Connection) -> Iterator[R]:
        """``kind`` over ``conn``; its prepared statements' cursor closed after the block."""
        made = kind(conn, self._statements)
        try:
            yield made
        finally:
            made.driver.close()

    @contextmanager
    def _sqlite_write(self) -> Iterator[Connection]:
        """This process's write queue, then the gate to SQLite's write lock (``writegate.py``,
        which waits for a lock held elsewhere at most ``waits.lock`` seconds)."""
        assert self._write_lock is not None
        assert self._gate is not None
        if not self._write_lock.acquire(timeout=self.waits.queue):
            raise StorageUnavailableError(_QUEUED)
        try:
            with self._writer.connect() as conn:
                try:
                    with conn.begin():
                        yield conn
                finally:
                    self._gate.release()  # after COMMIT or ROLLBACK
        finally:
            self._write_lock.release()

    @contextmanager
    def autocommit(self) -> Iterator[Rows]:
        """PostgreSQL: writes that need no transaction, each statement committed on its own
        (one round trip, no BEGIN nor COMMIT): the rate counters (``counters.py``)."""
        with (
            self._failures(),
            self.engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn,
            self._rows(Rows, conn) as rows,
        ):
            yield rows

    @contextmanager
    def snapshot(self) -> Iterator[Reads]:
        """A read of several statements that all see one state of the database (``db copy``):
        a read transaction on SQLite, REPEATABLE READ on PostgreSQL."""
        options: dict[str, object] = {SNAPSHOT: True}
        if self.dialect == "postgresql":
            options["isolation_level"] = "REPEATABLE READ"
        with (
            self._failures(),
            self.engine.connect().execution_options(**options) as conn,
            conn.begin(),
            self._rows(Reads, conn) as reads,
        ):
            yield reads

    @contextmanager
    def read(self) -> Iterator[Reads]:
        """Reads each atomic on its own, without a transaction (one statement, or several that
        need not agree: see ``connect.py``); :meth:`snapshot` when they must agree."""
        with self._failures(), self.engine.connect() as conn, self._rows(Reads, conn) as reads:
            yield reads

    @contextmanager
    def _failures(self) -> Iterator[None]:
        """Turn the database's "cannot be used now" errors into StorageUnavailableError (the
        transaction inside has already rolled back)."""
        try:
            yield
        except Exception as exc:
            failure = classify(exc)
            if failure is None:
                raise
            metrics.database_failed(failure)
            self._recover(failure)
            if isinstance(exc, StorageUnavailableError):
                raise
            raise StorageUnavailableError(failure) from exc

    def _recover(self, failure: Failure) -> None:
        log.warning("database unavailable: %s (%s)", failure.reason, failure.detail)
        now = time.monotonic()
        if failure.reopen and now - self._reopened > _REOPEN_INTERVAL:
            # a new pool: the connections in use are closed when they come back
            self._reopened = now
            self.engine.dispose(close=True)
            self._write_engine.dispose(close=True)

    # ----- one-query shortcuts --------------------------------------------------------------

    def new_player(self, language: str = "fil") -> Player:
        """A new player with a fresh random token (the cookie's value)."""
        player = Player(secrets.token_urlsafe(32), checked_language(language))
        with self.write() as rows:
            rows.insert_player(player, now())
        return player

    def player(self, token: str) -> Player | None:
        with self.read() as reads:
            return reads.player(token)

    def set_language(self, token: str, language: str) -> Player:
        with self.write() as rows:
            return rows.set_language(token, language)

    def game(self, game_id: str) -> GameRecord | None:
        with self.read() as reads:
            return reads.game(game_id)

    def current_game(self, player: str) -> GameRecord | None:
        """The player's most recent unfinished game, if any; a tutorial is never current."""
        with self.read() as reads:
            return reads.current_game(player)

    def actions(self, game_id: str) -> list[Action]:
        """The accepted actions of a game, in order: ``replay(difficulty, seed, actions)``."""
        with self.read() as reads:
            return reads.actions(game_id)

    def count_hint(self, game_id: str) -> int:
        """Count one more hint asked for in ``game_id``; answer the new count."""
        with self.write() as rows:
            return rows.count_hint(game_id)

    def highscores(self, player: str, difficulty: Difficulty, limit: int = 100) -> list[HighScore]:
        """The player's High Scores of ``difficulty``, best first."""
        with self.read() as reads:
            return reads.highscores(player, difficulty, limit)

    def rank(self, game_id: str) -> int | None:
        """The 1-based rank of a ranked finished game among its player's High Scores of its
        difficulty; None for a game without a High Score."""
        with self.read() as reads:
            return reads.rank(game_id)

    def ranked_games(self, player: str, difficulty: Difficulty) -> int:
        """How many games the player's High Scores of ``difficulty`` hold."""
        with self.read() as reads:
            return reads.ranked_games(player, difficulty)

    def remove_unfinished(self, cutoff: str) -> Removed:
        """Remove the unfinished games untouched since ``cutoff`` (an ISO-8601 stamp), then the
        players left with nothing, in small batches (``cleanup.py``)."""
        return remove(self, cutoff)
