"""Input that is well-formed JSON but that the server refuses to keep: 422 with a code of its
own (the API's ``{"error": {"code", "message"}}``), and nothing changed."""

from __future__ import annotations

from typing import Any


class RefusedInputError(ValueError):
    """Refused input; ``code`` is one short snake_case word."""

    code = "malformed"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    def fields(self) -> dict[str, int | str | None]:
        """What the answer's ``error`` carries besides its code and message."""
        return {}


class InvalidNameError(RefusedInputError):
    code = "invalid_name"


class ImportInvalidError(RefusedInputError):
    """An export file whose games do not replay, or do not say what the replay says: ``game``
    is the game's place in the file (1 for the first), ``action`` the action's in the game's log
    when one does not replay (else None), so that the page can say which in its own words."""

    code = "import_invalid"

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

    code = "malformed"


def _rebuilt(cls: type[RefusedInputError], message: str, state: dict[str, Any]) -> Any:
    error = RefusedInputError.__new__(cls)
    RefusedInputError.__init__(error, message)
    error.__dict__.update(state)
    return error
