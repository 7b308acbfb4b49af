"""Request bodies: what a client may send. Anything else answers 422 before the game is touched."""

from typing import Annotated, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, WithJsonSchema

from magdagdon.engine import Difficulty

DieId = Annotated[int, Field(ge=0, le=3, strict=True, description="A die of the roll, 0–3.")]
Coordinate = Annotated[int, Field(ge=0, le=3, strict=True)]
Cell = Annotated[
    list[Coordinate],
    Field(min_length=2, max_length=2, description="A cell as [row, column], each 0–3."),
]
Version = Annotated[
    int | None,
    Field(
        strict=True,
        description="The game's version the client saw; another one answers 409 version_conflict.",
    ),
]
SEED_MAX = 2**63 - 1


def _delta(delta: int) -> int:
    if delta not in (1, -1):
        raise ValueError("delta is 1 (DAGDAG +1) or -1 (BAWAS −1)")
    return delta


# an int, not a Literal: a Literal would also take true and 1.0
Delta = Annotated[
    int,
    Field(strict=True),
    AfterValidator(_delta),
    WithJsonSchema({"type": "integer", "enum": [1, -1]}),
]


def _unique(dice: list[int]) -> list[int]:
    if len(set(dice)) != len(dice):
        raise ValueError("each die can be chosen once")
    return dice


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


class NewGame(_Body):
    difficulty: Difficulty
    seed: Annotated[int | None, Field(ge=0, le=SEED_MAX, strict=True)] = None


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
    delta: Delta
    version: Version = None


class RerollAction(_Body):
    """I-ROLL ULIT of the chosen tray dice (a Power use)."""

    type: Literal["reroll"]
    dice: Annotated[
        list[DieId],
        Field(min_length=1, max_length=4, json_schema_extra={"uniqueItems": True}),
        AfterValidator(_unique),
    ]
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
    language: Literal["fil", "en"]
