"""What the store refuses: a game it does not have, a write over a version the game is no
longer at (the base of every refusal, :class:`RefusedError`, is here, below the services'
own refusals in ``magdagdon.services.errors``), and what its tools refuse."""

from __future__ import annotations


class SchemaTooNewError(RuntimeError):
    """The database was written by a newer MAGDAGDON than this one."""


class TargetNotEmptyError(RuntimeError):
    """``magdagdon db copy`` refuses a target that already holds players or games."""


class RefusedError(Exception):
    """A refused request; ``message`` says why, in words a player can act on."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    def fields(self) -> dict[str, int | str | None]:
        """What the answer's ``error`` carries besides its code and message."""
        return {}


class GameNotFoundError(RefusedError):
    """No such game, or another player's (which is as unknown as a missing one)."""

    def __init__(self, game_id: str) -> None:
        super().__init__(f"no such game: {game_id}")
        self.game_id = game_id


class VersionConflictError(RefusedError):
    """The request named a version the game is no longer at."""
