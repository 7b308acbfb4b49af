"""The SQLite store of MAGDAGDON: players, games with their action log, and High Scores."""

from magdagdon.store.errors import GameAbandonedError, GameNotFoundError, VersionConflictError
from magdagdon.store.paths import ENV_VAR, default_db_path, resolve_db_path
from magdagdon.store.records import GameMode, GameRecord, GameStatus, HighScore, Player
from magdagdon.store.schema import LATEST, MIGRATIONS, SchemaTooNewError, migrate
from magdagdon.store.store import LANGUAGES, Store

__all__ = [
    "ENV_VAR",
    "LANGUAGES",
    "LATEST",
    "MIGRATIONS",
    "GameAbandonedError",
    "GameMode",
    "GameNotFoundError",
    "GameRecord",
    "GameStatus",
    "HighScore",
    "Player",
    "SchemaTooNewError",
    "Store",
    "VersionConflictError",
    "default_db_path",
    "migrate",
    "resolve_db_path",
]
