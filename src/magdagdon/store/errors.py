"""What the store refuses. Its 409 cases are ``IllegalActionError`` s, like the engine's, so the
API answers them the same way."""

from __future__ import annotations

from magdagdon.engine import IllegalActionError


class GameNotFoundError(LookupError):
    """No such game (or not this player's)."""


class VersionConflictError(IllegalActionError):
    code = "version_conflict"


class GameAbandonedError(IllegalActionError):
    code = "game_abandoned"


class SchemaTooNewError(RuntimeError):
    """The database was written by a newer MAGDAGDON than this one."""


class TargetNotEmptyError(RuntimeError):
    """``magdagdon db copy`` refuses a target that already holds players or games."""
