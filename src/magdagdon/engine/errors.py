"""Why an action is refused: one exception class a reason, each with a stable snake_case code."""

from __future__ import annotations


class IllegalActionError(ValueError):
    """An action the rules do not allow now. The state it was tried on is unchanged."""

    code = "illegal_action"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class WrongPhaseError(IllegalActionError):
    code = "not_your_turn_phase"


class GameOverError(IllegalActionError):
    code = "game_over"


class UnknownDieError(IllegalActionError):
    code = "unknown_die"


class DieStagedError(IllegalActionError):
    code = "die_staged"


class DieNotStagedError(IllegalActionError):
    code = "die_not_staged"


class InvalidCellError(IllegalActionError):
    code = "invalid_cell"


class BelowMinimumError(IllegalActionError):
    code = "below_minimum"


class NoPowersLeftError(IllegalActionError):
    code = "no_powers_left"


class ValueOutOfRangeError(IllegalActionError):
    code = "value_out_of_range"


class InvalidDeltaError(IllegalActionError):
    code = "invalid_delta"


class NoDiceChosenError(IllegalActionError):
    code = "no_dice_chosen"


class DuplicateDieError(IllegalActionError):
    code = "duplicate_die"


class MalformedError(ValueError):
    """Data that is not an action or a state at all (the JSON codec raises it)."""
