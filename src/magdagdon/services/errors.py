"""What the server refuses besides the rules of play (the engine's ``IllegalActionError`` s):
one exception class a refusal. Each is answered by ``api/errors.py``'s one table (status and
code) as the API's ``{"error": {"code", "message"}}``, and changes nothing."""

from __future__ import annotations

from typing import Any

# the refusals the store itself makes (a game it does not have, a write over a stale version),
# answered from the same table
from magdagdon.store.errors import GameNotFoundError as GameNotFoundError
from magdagdon.store.errors import RefusedError as RefusedError
from magdagdon.store.errors import VersionConflictError as VersionConflictError

# ----- 404 ------------------------------------------------------------------------------------


_LINK_MESSAGES = {
    "unknown": "this device link is not known: check that it was copied whole, or make a "
    "new one on your other device (SETTINGS)",
    "used": "this device link was already used: a link works once; make a new one on your "
    "other device (SETTINGS)",
    "expired": "this device link has expired (a link lasts 10 minutes): make a new one on "
    "your other device (SETTINGS)",
}


class LinkInvalidError(RefusedError):
    """A code that makes no device anyone: ``reason`` is ``unknown``, ``used`` or ``expired``."""

    def __init__(self, reason: str) -> None:
        super().__init__(_LINK_MESSAGES[reason])
        self.reason = reason


# ----- 409: the game, or the day, is not in a state for this -------------------------------


class GameAbandonedError(RefusedError):
    """An action on a game that a newer game abandoned."""


class GameNotOverError(RefusedError):
    """A review or a share text is of a whole game."""


class NotDailyError(RefusedError):
    """A share text is of a daily challenge (or its practice) only."""


class DailyNotOpenError(RefusedError):
    """A day whose challenge has not begun, or one before the first."""


class SyncConflictError(RefusedError):
    """A game played offline and sent back that the server's went another way from (played on
    another device), or whose id is another player's or another game's."""


# ----- 422: input that is well-formed JSON but that the server refuses to keep ------------


class RefusedInputError(RefusedError):
    """Refused input."""


class InvalidNameError(RefusedInputError):
    pass


class ImportInvalidError(RefusedInputError):
    """An export file whose games do not replay, or do not say what the replay says: ``game``
    is the game's place in the file (1 for the first), ``action`` the action's in the game's log
    when one does not replay (else None), so that the page can say which in its own words."""

    def __init__(self, message: str, *, game: int, action: int | None = None) -> None:
        super().__init__(message)
        self.game = game
        self.action = action

    def fields(self) -> dict[str, int | str | None]:
        return {"game": self.game, "action": self.action}

    def __reduce__(self) -> tuple[Any, ...]:
        # an import is checked in a compute process: the refusal comes back pickled
        return (_rebuilt, (type(self), self.message, self.__dict__))


class ImportFieldError(ImportInvalidError):
    """A game of an export file whose field ``field`` (``created_at``, ``hints_used``,
    ``actions``, …) is out of the range a game played on a server can have."""

    def __init__(self, message: str, *, game: int, field: str) -> None:
        super().__init__(message, game=game)
        self.field = field

    def fields(self) -> dict[str, int | str | None]:
        return {**super().fields(), "field": self.field}


class MalformedImportError(RefusedInputError):
    """A body that is not an export document at all."""


class MalformedSyncError(RefusedInputError):
    """A body that is not a game played offline at all (its keys or their types)."""


class SyncInvalidError(RefusedInputError):
    """A game played offline whose log does not replay from its seed: ``action`` is the place
    (1 for the first) of the first action that does not, or None when the game itself is wrong,
    and then ``field`` names what (``seed``: a daily's seed that is not the day's;
    ``daily_date``: a day after today, or one a game of its mode does not name)."""

    def __init__(
        self, message: str, *, action: int | None = None, field: str | None = None
    ) -> None:
        super().__init__(message)
        self.action = action
        self.field = field

    def fields(self) -> dict[str, int | str | None]:
        found: dict[str, int | str | None] = {"action": self.action}
        if self.field is not None:
            found["field"] = self.field
        return found


def _rebuilt(cls: type[RefusedInputError], message: str, state: dict[str, Any]) -> Any:
    error = RefusedInputError.__new__(cls)
    RefusedInputError.__init__(error, message)
    error.__dict__.update(state)
    return error


# ----- 503 ------------------------------------------------------------------------------------


class ReviewFailedError(RefusedError):
    """Every attempt to compute the review failed (a fault, never the player's)."""
