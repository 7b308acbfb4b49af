"""Request bodies: what a client may send. A body that is not an action at all (a wrong type,
a missing or unknown field, a cell off the board) answers 422 before the game is touched;
whether an action is allowed — which die, which delta, which dice to reroll — is the engine's
to say (409 with its code), so no rule is checked here."""

from typing import Annotated, Literal, Self

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    WithJsonSchema,
    field_validator,
    model_validator,
)

from magdagdon.api.days import Day
from magdagdon.engine import SEED_LIMIT, Difficulty


def _whole(value: object) -> object:
    """JSON has one number type: 2 and 2.0 are the same integer; true and "2" are not numbers."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


# a whole JSON number: strict (no bool, no string), but 2.0 counts as 2 as JSON Schema says
Whole = Annotated[int, BeforeValidator(_whole), Field(strict=True)]
DieId = Annotated[Whole, Field(description="A die of the roll, 0–3.")]
# (the constraints before the validator: so they reach the JSON schema as minimum/maximum)
Coordinate = Annotated[int, Field(strict=True, ge=0, le=3), BeforeValidator(_whole)]
Cell = Annotated[
    list[Coordinate],
    Field(min_length=2, max_length=2, description="A cell as [row, column], each 0–3."),
]
Version = Annotated[
    Whole | None,
    Field(
        description="The game's version the client saw; another one answers 409 version_conflict.",
    ),
]
SEED_MAX = SEED_LIMIT - 1


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


class NewGame(_Body):
    difficulty: Difficulty
    #: A daily challenge (mode daily or practice) is started with ``POST /api/daily``.
    mode: Literal["normal", "tutorial"] = "normal"
    seed: Annotated[int, Field(strict=True, ge=0, le=SEED_MAX), BeforeValidator(_whole)] | None = (
        None
    )


class RollAction(_Body):
    """I-ROLL: start a turn."""

    type: Literal["roll"]
    version: Version = None


class StageAction(_Body):
    """Put a tray die on a valid cell."""

    type: Literal["stage"]
    die: DieId
    cell: Cell
    version: Version = None


class UnstageAction(_Body):
    """Return a staged die to the tray (with the cascade)."""

    type: Literal["unstage"]
    die: DieId
    version: Version = None


class ConfirmAction(_Body):
    """KUMPIRMAHIN."""

    type: Literal["confirm"]
    version: Version = None


class AdjustAction(_Body):
    """DAGDAG +1 / BAWAS −1 on a tray die (a Power use)."""

    type: Literal["adjust"]
    die: DieId
    delta: Annotated[Whole, Field(description="1 (DAGDAG +1) or -1 (BAWAS −1).")]
    version: Version = None


class RerollAction(_Body):
    """I-ROLL ULIT of the chosen tray dice (a Power use)."""

    type: Literal["reroll"]
    dice: Annotated[list[DieId], Field(description="Tray dice, each once.")]
    version: Version = None


class RuinAction(_Body):
    """Accept MAGDAGDON: this empty cell becomes a RUIN."""

    type: Literal["ruin"]
    cell: Cell
    version: Version = None


ActionBody = Annotated[
    RollAction
    | StageAction
    | UnstageAction
    | ConfirmAction
    | AdjustAction
    | RerollAction
    | RuinAction,
    Field(discriminator="type"),
]


class PlayerSettingsIn(_Body):
    """Any of the settings; at least one. ``name`` null clears the name (the neutral one is
    shown again); whether a name may be kept is ``magdagdon.services.players``'s to say (422
    ``invalid_name``)."""

    model_config = ConfigDict(extra="forbid", json_schema_extra={"minProperties": 1})

    # (None is the default only: the schema, and the validator, refuse a language of null)
    language: Annotated[
        Literal["fil", "en"] | None, WithJsonSchema({"type": "string", "enum": ["fil", "en"]})
    ] = None
    name: Annotated[
        str | None,
        Field(strict=True, description="1–20 characters once trimmed; null clears the name."),
    ] = None

    @field_validator("language", mode="before")
    @classmethod
    def _language_given(cls, value: object) -> object:
        if value is None:
            raise ValueError("the language is 'fil' or 'en'")
        return value

    @model_validator(mode="after")
    def _something_to_set(self) -> Self:
        if not self.model_fields_set:
            raise ValueError("give the language, the name, or both")
        return self


class DailyStart(BaseModel):
    model_config = ConfigDict(extra="forbid")
    difficulty: Difficulty
    date: Day | None = None  # today (UTC) when left out
