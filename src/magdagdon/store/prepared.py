"""The most frequent requests' statements, run on the database driver's own connection: an
action's transaction (:class:`MoveRows`, from ``Store.move()``) and the read of one game.

They are ``statements.py``'s statements, compiled once per database into the driver's SQL text
(:class:`Prepared`), and run by the driver (``sqlite3``, ``psycopg``) straight away: SQLAlchemy's
work for each statement (the execution context, its events, the result's rows) cost four times
what SQLite takes to run it, and an action runs four statements. The connection still comes from
SQLAlchemy's pool, and :func:`transaction` keeps the store's rules: one transaction, committed
when the block ends and rolled back if it raises (``BEGIN IMMEDIATE`` through the write gate on
SQLite), and a connection found broken invalidates the pool as SQLAlchemy would, so the pool
heals itself once the database is back.
"""

from __future__ import annotations

import json
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from sqlalchemy.exc import DBAPIError
from sqlalchemy.sql.compiler import SQLCompiler

from magdagdon.engine import action_from_json, action_to_json
from magdagdon.services.errors import VersionConflictError
from magdagdon.store import statements as sql
from magdagdon.store.records import game_record, high_score_row, is_key, to_json_text
from magdagdon.store.results import INSERT_RESULT, result_row
from magdagdon.store.rows import move_values

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator, Mapping

    from sqlalchemy import Dialect, Engine
    from sqlalchemy.sql import ClauseElement

    from magdagdon.engine import Action
    from magdagdon.store.records import GameRecord, HighScore
    from magdagdon.store.results import GameResult

#: The columns an action's entry in the log is given.
_INSERT_ACTION_KEYS = ("game_id", "seq", "action", "created_at")


class Prepared:
    """A statement compiled for one database: the driver's SQL text, and the names of its
    parameters in the order the driver takes them (SQLite's ``?``, psycopg's ``%s``: positional
    parameters cost psycopg less than named ones)."""

    def __init__(
        self, statement: ClauseElement, dialect: Dialect, keys: tuple[str, ...] | None = None
    ) -> None:
        compiled = statement.compile(dialect=dialect, column_keys=list(keys) if keys else None)
        assert isinstance(compiled, SQLCompiler)
        assert dialect.positional
        self.text = compiled.string
        self.names = tuple(compiled.positiontup or ())

    def args(self, values: Mapping[str, object]) -> tuple[object, ...]:
        return tuple(values[name] for name in self.names)


def positional(dialect: Dialect) -> Dialect:
    """``dialect``, or the same database's with positional parameters (psycopg's ``%s``)."""
    if dialect.positional:
        return dialect
    kind: Any = type(dialect)
    made: Dialect = kind(paramstyle="format")
    return made


class Statements:
    """The prepared statements of one database (made once per store)."""

    def __init__(self, dialect: Dialect) -> None:
        self.dialect = dialect = positional(dialect)
        postgresql = dialect.name == "postgresql"
        self.game = Prepared(sql.GAME, dialect)
        # SQLite: BEGIN IMMEDIATE already holds the whole database
        self.game_for_update = Prepared(sql.GAME_FOR_UPDATE if postgresql else sql.GAME, dialect)
        self.action = Prepared(sql.ACTION, dialect)
        self.save_move = Prepared(sql.SAVE_MOVE, dialect)
        self.insert_action = Prepared(sql.INSERT_ACTION, dialect, _INSERT_ACTION_KEYS)
        # PostgreSQL: the update and the log's entry in one statement (one round trip fewer);
        # SQLite's WITH takes no UPDATE
        self.save_move_and_action = (
            Prepared(sql.SAVE_MOVE_AND_ACTION, dialect) if postgresql else None
        )
        self._inserts: dict[tuple[int, tuple[str, ...]], Prepared] = {}

    def insert(self, statement: ClauseElement, keys: tuple[str, ...]) -> Prepared:
        """An INSERT of the columns ``keys`` (prepared at its first use: a game's end)."""
        key = (id(statement), keys)
        found = self._inserts.get(key)
        if found is None:
            found = self._inserts[key] = Prepared(statement, self.dialect, keys)
        return found


def run(cursor: Any, prepared: Prepared, values: Mapping[str, object]) -> Any:
    """Execute ``prepared`` on a cursor of the driver: the cursor."""
    cursor.execute(prepared.text, prepared.args(values))
    return cursor


def read_game(cursor: Any, statements: Statements, game_id: str) -> GameRecord | None:
    """The game ``game_id`` (``Reads.game``)."""
    if not is_key(game_id):
        return None
    row = run(cursor, statements.game, {"game_id": game_id}).fetchone()
    return None if row is None else game_record(row)


class MoveRows:
    """What an action's transaction does (the statements of ``Rows`` that ``services.games.play``
    uses), on the driver's connection. Made by ``Store.move()`` only."""

    def __init__(self, cursor: Any, statements: Statements) -> None:
        self.cursor, self.statements = cursor, statements  # one for every statement

    def game(self, game_id: str) -> GameRecord | None:
        """The game, locked against other writers until the transaction ends (``Rows.game``)."""
        if not is_key(game_id):
            return None
        found = run(self.cursor, self.statements.game_for_update, {"game_id": game_id})
        row = found.fetchone()
        return None if row is None else game_record(row)

    def action(self, game_id: str, seq: int) -> Action | None:
        """The ``seq``-th accepted action of the game (1-based), if there is one."""
        row = run(self.cursor, self.statements.action, {"game_id": game_id, "seq": seq}).fetchone()
        return None if row is None else action_from_json(json.loads(row[0]))

    def save_move(self, game: GameRecord, action: Action) -> None:
        """``Rows.save_move``: only over the version before, else ``VersionConflictError``."""
        values = move_values(game)
        action_text = to_json_text(action_to_json(action))
        both = self.statements.save_move_and_action
        if both is not None:
            values["b_action"] = action_text
            if run(self.cursor, both, values).rowcount != 1:
                raise VersionConflictError("the game changed meanwhile; reload it")
            return
        if run(self.cursor, self.statements.save_move, values).rowcount != 1:
            raise VersionConflictError("the game changed meanwhile; reload it")
        entry = {
            "game_id": game.id,
            "seq": game.version,
            "action": action_text,
            "created_at": game.updated_at,
        }
        run(self.cursor, self.statements.insert_action, entry)

    def insert_result(self, game: GameRecord, result: GameResult) -> None:
        """``ResultWrites.insert_result``."""
        self._insert(INSERT_RESULT, result_row(game, result))

    def insert_high_score(self, player: str, entry: HighScore) -> None:
        """``Rows.insert_high_score``."""
        self._insert(sql.INSERT_HIGH_SCORE, high_score_row(player, entry))

    def _insert(self, statement: ClauseElement, row: dict[str, object]) -> None:
        run(self.cursor, self.statements.insert(statement, tuple(row)), row)


@contextmanager
def transaction(engine: Engine, begin: Callable[[Any], None] | None = None) -> Iterator[Any]:
    """A transaction on the driver's connection of one of ``engine``'s pooled connections (a
    cursor of it, for the block's statements):
    begun by ``begin`` (SQLite's ``BEGIN IMMEDIATE``; psycopg begins one by itself), committed
    when the block ends, rolled back if it raises. The driver's errors are raised as SQLAlchemy
    raises them (``sqlalchemy.exc``: what ``failures.py`` classifies). A connection that broke
    (the server went away) is not put back: like SQLAlchemy, every connection of the pool opened
    before now is then replaced when next taken."""
    pooled = engine.raw_connection()
    driver: Any = pooled.driver_connection
    try:
        if begin is not None:
            begin(driver)
        cursor = driver.cursor()
        try:
            yield cursor
        finally:
            cursor.close()
        driver.commit()
    except BaseException as exc:
        dbapi = engine.dialect.loaded_dbapi
        lost = isinstance(exc, dbapi.Error) and engine.dialect.is_disconnect(exc, driver, None)
        if lost:
            engine.pool._invalidate(pooled, exc)  # SQLAlchemy's own remedy
        else:
            try:
                driver.rollback()
            except dbapi.Error as again:  # the connection broke meanwhile
                pooled.invalidate(again)
        if isinstance(exc, dbapi.Error):  # as SQLAlchemy raises it, for every caller alike
            raise DBAPIError.instance(
                None, None, exc, dbapi.Error, connection_invalidated=lost, dialect=engine.dialect
            ) from exc
        raise
    finally:
        pooled.close()
