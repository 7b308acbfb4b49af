"""The statements of an action's path, prepared once per database and run on the driver's own
connection (``Reads``/``Rows`` run them through :meth:`Prepared.run`): SQLAlchemy's statement
machinery costs more than these statements take to run, and they are the most frequent ones
(the read of a game, and the writes of an action).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sqlalchemy.exc import DBAPIError
from sqlalchemy.sql.compiler import SQLCompiler

from magdagdon.store import statements as sql

if TYPE_CHECKING:
    from collections.abc import Mapping

    from sqlalchemy import Connection, Dialect
    from sqlalchemy.sql import ClauseElement

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


class Driver:
    """The driver's own cursor of one SQLAlchemy connection, inside its transaction (made when
    first used). Its errors are raised as SQLAlchemy raises them (``sqlalchemy.exc``: what
    ``failures.py`` classifies), and a connection found broken is invalidated as SQLAlchemy
    would (the pool then replaces it)."""

    def __init__(self, conn: Connection) -> None:
        self.conn = conn
        self._cursor: Any = None

    def run(self, prepared: Prepared, values: Mapping[str, object]) -> Any:
        """Execute ``prepared``: the cursor, to fetch from."""
        return self.execute(prepared.text, prepared.args(values))

    def execute(self, text: str, args: tuple[object, ...] = ()) -> Any:
        cursor = self._cursor
        try:
            if cursor is None:
                cursor = self._cursor = self.conn.connection.driver_connection.cursor()  # type: ignore[union-attr]
            cursor.execute(text, args)
        except Exception as exc:
            dialect = self.conn.dialect
            dbapi = dialect.loaded_dbapi
            if not isinstance(exc, dbapi.Error):
                raise
            driver = self.conn.connection.driver_connection
            lost = dialect.is_disconnect(exc, driver, cursor)
            if lost:
                self.conn.invalidate(exc)
            raise DBAPIError.instance(
                None, None, exc, dbapi.Error, connection_invalidated=lost, dialect=dialect
            ) from exc
        return cursor

    def close(self) -> None:
        if self._cursor is not None:
            self._cursor.close()
            self._cursor = None
