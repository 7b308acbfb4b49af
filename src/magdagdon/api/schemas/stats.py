"""The Statistics sheet's answer (``GET /api/stats``)."""

from pydantic import BaseModel, Field

from magdagdon.api.schemas.daily import StreakOut


class BinOut(BaseModel):
    from_: int = Field(alias="from", description="The lowest score of the bin.")
    to: int = Field(description="The highest score of the bin (included).")
    count: int


class CombosOut(BaseModel):
    straight: int = Field(description="Lines (rows and columns) made into a STRAIGHT.")
    four_of_a_kind: int
    two_pairs: int


class StatsOut(BaseModel):
    difficulty: str
    games: int = Field(description="normal, daily and practice games started.")
    finished: int
    mean: float | None
    median: float | None
    best: int | None
    best_game_id: str | None = Field(description="The best game (to review it); null when none.")
    histogram: list[BinOut]
    streak: StreakOut
    ruins_per_game: float | None
    powers_per_game: float | None
    combos: CombosOut
    computer_mean: float = Field(
        description="The computer player's mean on this difficulty (6,000 measured games)."
    )
