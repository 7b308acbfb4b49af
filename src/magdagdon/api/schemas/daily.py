"""The daily challenge's answers: today's challenges and the streak, the day's table, a
daily game's share text."""

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field


class StreakOut(BaseModel):
    current: int = Field(description="Days in a row with a finished ranked attempt, to today.")
    best: int


class ChallengeOut(BaseModel):
    difficulty: Literal["peaceful", "survival", "nightmare"]
    status: Literal["new", "playing", "over"] = Field(description="Of the ranked attempt.")
    game_id: str | None
    score: int | None


class DailyOut(BaseModel):
    date: str
    number: int
    streak: StreakOut
    challenges: list[ChallengeOut]


class TableRowOut(BaseModel):
    # read off services.daily.TableEntry, field by name
    model_config = ConfigDict(from_attributes=True)

    rank: int
    name: str = Field(description="The player's name, or a neutral one; show it as text.")
    named: bool = Field(description="Whether the player set the name (else the neutral one).")
    tag: str = Field(description="Four digits telling unnamed players apart (Manlalaro 4F2A).")
    score: int
    turns: int
    game_id: str | None = Field(None, description="Only on the asking player's own row.")


class ShareOut(BaseModel):
    game_id: str
    number: int
    date: str
    difficulty: Literal["peaceful", "survival", "nightmare"]
    mode: Literal["daily", "practice"]
    score: int
    grid: list[list[Literal["straight", "four_of_a_kind", "two_pairs", "number", "ruin"]]]
    text: dict[str, str] = Field(description="The share text in each language (fil, en).")
