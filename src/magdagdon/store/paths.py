"""Which database: ``--db``, else ``MAGDAGDON_DB``, else a SQLite file in the user's data
directory. A value is a SQLite file path (or a ``sqlite:///`` URL naming one) or a
``postgresql://`` URL."""

from __future__ import annotations

import os
import re
from pathlib import Path

import platformdirs
from sqlalchemy.engine import URL, make_url

ENV_VAR = "MAGDAGDON_DB"
FILE_NAME = "magdagdon.sqlite3"
_SQLITE_URL = re.compile(r"sqlite(\+\w+)?:")
_POSTGRESQL_SCHEMES = ("postgresql://", "postgres://", "postgresql+psycopg://")


def default_db_path() -> Path:
    """``$MAGDAGDON_DB`` when set, else ``magdagdon.sqlite3`` in the user's data directory."""
    named = os.environ.get(ENV_VAR)
    if named:
        return Path(named).expanduser()
    return Path(platformdirs.user_data_dir("magdagdon")) / FILE_NAME


def is_postgresql(db: str | os.PathLike[str]) -> bool:
    return isinstance(db, str) and db.startswith(_POSTGRESQL_SCHEMES)


class DatabaseNameError(ValueError):
    """A ``--db`` / ``MAGDAGDON_DB`` value that names no database the game can keep."""


def sqlite_file(db: str | os.PathLike[str]) -> str:
    """The file a SQLite value names: a path as given, or a ``sqlite:///path`` URL's path (as a
    path, such a URL would be a folder named ``sqlite:``)."""
    text = os.fspath(db)
    if _SQLITE_URL.match(text):
        named = make_url(text).database
        if not named or named == ":memory:":
            raise DatabaseNameError(f"{text}: a SQLite URL must name a file")
        return named
    return text


def resolve_db(db: str | os.PathLike[str] | None) -> str:
    """The database to use for an optional ``--db`` value: a URL as given, or a file path."""
    value = db or os.environ.get(ENV_VAR)
    if value and is_postgresql(value):
        return str(value)
    return str(Path(sqlite_file(value)).expanduser() if value else default_db_path())


def database_url(db: str | os.PathLike[str]) -> URL:
    """SQLAlchemy's URL for a file path or a PostgreSQL URL (always with the psycopg 3 driver:
    a plain ``postgresql://`` would pick psycopg2, which is not installed)."""
    if is_postgresql(db):
        url = make_url(str(db))
        return url.set(drivername="postgresql+psycopg")
    return URL.create("sqlite+pysqlite", database=str(Path(sqlite_file(db))))


def describe(db: str | os.PathLike[str]) -> str:
    """The database for a message: a path, or a URL without its password."""
    if is_postgresql(db):
        return make_url(str(db)).render_as_string(hide_password=True)
    return str(db)
