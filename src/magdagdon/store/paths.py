"""Where the database lives: ``--db``, else ``MAGDAGDON_DB``, else the user's data directory."""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs

ENV_VAR = "MAGDAGDON_DB"
FILE_NAME = "magdagdon.sqlite3"


def default_db_path() -> Path:
    """``$MAGDAGDON_DB`` when set, else ``magdagdon.sqlite3`` in the user's data directory."""
    named = os.environ.get(ENV_VAR)
    if named:
        return Path(named).expanduser()
    return Path(platformdirs.user_data_dir("magdagdon")) / FILE_NAME


def resolve_db_path(db: str | os.PathLike[str] | None) -> Path:
    """The database to use for an optional ``--db`` value."""
    return Path(db).expanduser() if db else default_db_path()
