"""The store: players, games (current state + action log) and High Scores, on SQLite or
PostgreSQL. It reads and writes rows and nothing else: the rules of a game and of its modes are
``magdagdon.games``'s, which calls :meth:`Store.write` to change several rows at once.

Durability (``connect.py``): every write is committed, and on disk, before its method returns.
SQLite's writes in this process also take a lock of their own: they would serialise on the
database's write lock anyway, and a Python lock queues them without SQLite's busy-wait polling.
"""

from __future__ import annotations

import secrets
import threading
from contextlib import contextmanager, nullcontext
from typing import TYPE_CHECKING

from magdagdon.store import migrate
from magdagdon.store import statements as sql
from magdagdon.store.connect import SNAPSHOT, WRITE, open_engine
from magdagdon.store.paths import database_url, describe
from magdagdon.store.records import HighScore, Player
from magdagdon.store.rows import LANGUAGES, Rows, game_record, is_key, now, read_actions

if TYPE_CHECKING:
    import os
    from collections.abc import Iterator

    from sqlalchemy import Connection

    from magdagdon.engine import Action, Difficulty
    from magdagdon.store.records import GameRecord


class Store:
    """The game's database (a SQLite file path or a ``postgresql://`` URL), migrated when
    opened. Thread-safe; close it when done."""

    def __init__(self, db: str | os.PathLike[str], *, synchronous: str = "FULL") -> None:
        self.db = str(db)
        self.engine = open_engine(database_url(db), synchronous=synchronous)
        self._writer = self.engine.execution_options(**{WRITE: True})  # made once: it costs
        self.dialect: str = self.engine.dialect.name
        sqlite = self.dialect == "sqlite"
        self._write_lock: threading.Lock | nullcontext[None] = (
            threading.Lock() if sqlite else nullcontext()
        )
        self._for_update = not sqlite  # SQLite's BEGIN IMMEDIATE already locks everything
        try:
            self.revision = migrate.upgrade(self.engine)
        except BaseException:
            self.engine.dispose()
            raise

    def __repr__(self) -> str:
        return f"Store({describe(self.db)!r})"

    def close(self) -> None:
        self.engine.dispose()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ----- transactions ---------------------------------------------------------------------

    @contextmanager
    def write(self) -> Iterator[Rows]:
        """One write transaction: committed when the block ends, rolled back if it raises."""
        with self._write_lock, self._writer.connect() as conn, conn.begin():
            yield Rows(conn, for_update=self._for_update)

    @contextmanager
    def snapshot(self) -> Iterator[Connection]:
        """A read of several statements that all see one state of the database (``db copy``):
        a read transaction on SQLite, REPEATABLE READ on PostgreSQL."""
        options: dict[str, object] = {SNAPSHOT: True}
        if self.dialect == "postgresql":
            options["isolation_level"] = "REPEATABLE READ"
        with self.engine.connect().execution_options(**options) as conn, conn.begin():
            yield conn

    @contextmanager
    def _read(self) -> Iterator[Connection]:
        """A connection for one read statement (atomic on its own: see ``connect.py``)."""
        with self.engine.connect() as conn:
            yield conn

    # ----- players --------------------------------------------------------------------------

    def new_player(self, language: str = "fil") -> Player:
        """A new player with a fresh random token (the cookie's value)."""
        player = Player(secrets.token_urlsafe(32), _language(language))
        with self.write() as rows:
            rows.insert_player(player, now())
        return player

    def player(self, token: str) -> Player | None:
        if not is_key(token):
            return None
        with self._read() as conn:
            row = conn.execute(sql.PLAYER, {"token": token}).first()
        return None if row is None else Player(row[0], row[1], row[2])

    def set_language(self, token: str, language: str) -> Player:
        with self.write() as rows:
            return rows.set_language(token, _language(language))

    # ----- games ----------------------------------------------------------------------------

    def game(self, game_id: str) -> GameRecord | None:
        if not is_key(game_id):
            return None
        with self._read() as conn:
            row = conn.execute(sql.GAME, {"game_id": game_id}).first()
        return None if row is None else game_record(row)

    def current_game(self, player: str) -> GameRecord | None:
        """The player's most recent unfinished game, if any; a tutorial is never current."""
        with self._read() as conn:
            row = conn.execute(sql.CURRENT_GAME, {"player": player}).first()
        return None if row is None else game_record(row)

    def actions(self, game_id: str) -> list[Action]:
        """The accepted actions of a game, in order: ``replay(difficulty, seed, actions)``."""
        with self._read() as conn:
            return read_actions(conn, game_id)

    def count_hint(self, game_id: str) -> int:
        """Count one more hint asked for in ``game_id``; answer the new count."""
        with self.write() as rows:
            return rows.count_hint(game_id)

    # ----- High Scores ----------------------------------------------------------------------

    def highscores(self, player: str, difficulty: Difficulty, limit: int = 100) -> list[HighScore]:
        """The player's High Scores of ``difficulty``, best first."""
        query = {"player": player, "difficulty": difficulty.value, "limit": limit}
        with self._read() as conn:
            rows = conn.execute(sql.HIGH_SCORES, query).all()
        return [
            HighScore(
                rank=rank,
                score=row[0],
                date=row[1],
                turns=row[2],
                powers_used=row[3],
                ruins=row[4],
                hints_used=row[5],
                game_id=row[6],
                difficulty=difficulty,
            )
            for rank, row in enumerate(rows, 1)
        ]

    def rank(self, game_id: str) -> int | None:
        """The 1-based rank of a ranked finished game among its player's High Scores of its
        difficulty; None for a game without a High Score."""
        with self._read() as conn:
            row = conn.execute(sql.RANK, {"game_id": game_id}).first()
        return None if row is None else int(row[0])

    def ranked_games(self, player: str, difficulty: Difficulty) -> int:
        """How many games the player's High Scores of ``difficulty`` hold."""
        query = {"player": player, "difficulty": difficulty.value}
        with self._read() as conn:
            return int(conn.execute(sql.RANKED_GAMES, query).scalar_one())


def _language(language: str) -> str:
    if language not in LANGUAGES:
        raise ValueError(f"a language is one of {LANGUAGES}, not {language!r}")
    return language
