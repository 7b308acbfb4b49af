"""What the store refuses; its 409 cases are ``IllegalActionError`` s, like the engine's."""

from __future__ import annotations

from magdagdon.engine import IllegalActionError


class GameNotFoundError(LookupError):
    """No such game (or not this player's)."""


class VersionConflictError(IllegalActionError):
    code = "version_conflict"


class GameAbandonedError(IllegalActionError):
    code = "game_abandoned"
