"""The store of MAGDAGDON (SQLite or PostgreSQL): players, games with their action log, and
High Scores. The rules of a game's life (start, play, abandon) are ``services.games``'s."""

from magdagdon.store.errors import SchemaTooNewError, TargetNotEmptyError
from magdagdon.store.paths import ENV_VAR, database_url, default_db_path, describe, resolve_db
from magdagdon.store.queries import LANGUAGES, Reads, Rows
from magdagdon.store.records import GameMode, GameRecord, GameStatus, HighScore, Player, now
from magdagdon.store.store import Store

__all__ = [
    "ENV_VAR",
    "LANGUAGES",
    "GameMode",
    "GameRecord",
    "GameStatus",
    "HighScore",
    "Player",
    "Reads",
    "Rows",
    "SchemaTooNewError",
    "Store",
    "TargetNotEmptyError",
    "database_url",
    "default_db_path",
    "describe",
    "now",
    "resolve_db",
]
