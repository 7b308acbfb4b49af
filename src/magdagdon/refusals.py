"""Input that is well-formed JSON but that the server refuses to keep: 422 with a code of its
own (the API's ``{"error": {"code", "message"}}``), and nothing changed."""

from __future__ import annotations


class RefusedInputError(ValueError):
    """Refused input; ``code`` is one short snake_case word."""

    code = "malformed"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class InvalidNameError(RefusedInputError):
    code = "invalid_name"


class ImportInvalidError(RefusedInputError):
    """An export file whose games do not replay, or do not say what the replay says."""

    code = "import_invalid"


class MalformedImportError(RefusedInputError):
    """A body that is not an export document at all."""

    code = "malformed"
