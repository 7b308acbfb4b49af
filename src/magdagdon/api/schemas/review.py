"""The review's answers (``GET /api/games/{id}/review``; docs/api.md and docs/rules.md "Modes and
records" (Review)), for the
API's documentation: the route sends the stored review as it is."""

from typing import Any, Literal

from pydantic import BaseModel, Field

from magdagdon.api.schemas.responses import BoardCell

Label = Literal["inaccuracy", "mistake", "blunder"]


class ReviewStep(BaseModel):
    """A chance event (``luck``, ``dice``, ``rolled``) or a decision (``played``, ``suggested``,
    ``best``, ``given_up``, ``label``, ``roll``, ``min_required``)."""

    turn: int
    kind: Literal["chance", "decision"]
    type: Literal["roll", "reroll", "place", "adjust", "ruin"] = Field(
        description="A chance event's roll or reroll outcome; a decision's placement (at "
        "KUMPIRMAHIN), BAWAS −1 / DAGDAG +1, choice of dice to I-ROLL ULIT, or RUIN."
    )
    before: float = Field(description="V before the step: the expected final score.")
    after: float = Field(description="V after it.")
    board: list[list[BoardCell]] = Field(description="The permanent board before the step.")
    powers_used: int
    luck: float | None = Field(None, description="A chance event's after − before.")
    dice: list[int] | None = Field(None, description="The dice values after the event, by id.")
    rolled: list[int] | None = Field(None, description="The ids of the dice that were rolled.")
    played: list[dict[str, Any]] | None = Field(None, description="The player's actions.")
    suggested: list[dict[str, Any]] | None = Field(None, description="The computer's choice.")
    best: float | None = Field(None, description="V of the computer's choice (= before).")
    given_up: float | None = Field(None, description="A decision's before − after.")
    label: Label | None = None
    roll: list[int] | None = Field(None, description="A decision's dice values, by id.")
    min_required: int | None = None


class Review(BaseModel):
    status: Literal["done"]
    format: int
    difficulty: Literal["peaceful", "survival", "nightmare"]
    start: float = Field(description="V of the new game.")
    final: int = Field(description="The final score: start + luck − given_up.")
    luck: float
    given_up: float
    labels: dict[Label, int] = Field(description="How many decisions have each label.")
    turns: int
    values: list[float] = Field(description="V at the start, then after each step (the chart).")
    final_board: list[list[BoardCell]]
    steps: list[ReviewStep]


class ReviewPending(BaseModel):
    status: Literal["pending"]
    progress: float = Field(ge=0, le=1)
