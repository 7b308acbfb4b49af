"""What the store answers: plain immutable records (a database row never leaks further)."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from magdagdon.engine import Difficulty, GameState


class GameStatus(enum.Enum):
    PLAYING = "playing"
    FINISHED = "finished"
    ABANDONED = "abandoned"


class GameMode(enum.Enum):
    """SPEC "Modes and records": High Scores hold finished ``normal`` and ``daily`` games."""

    NORMAL = "normal"
    DAILY = "daily"  # the first attempt of a day's challenge: ranked
    PRACTICE = "practice"  # a past day's challenge, or another attempt at today's
    TUTORIAL = "tutorial"

    @property
    def ranked(self) -> bool:
        return self in (GameMode.NORMAL, GameMode.DAILY)


@dataclass(frozen=True, slots=True)
class Player:
    token: str
    language: str
    name: str | None = None


@dataclass(frozen=True, slots=True)
class GameRecord:
    id: str
    player: str
    difficulty: Difficulty
    seed: int
    state: GameState
    version: int
    hints_used: int
    status: GameStatus
    created_at: str
    updated_at: str
    finished_at: str | None
    mode: GameMode = GameMode.NORMAL
    daily_date: str | None = None  # YYYY-MM-DD, for a daily or practice game


@dataclass(frozen=True, slots=True)
class HighScore:
    """A finished ranked game's entry; ``rank`` is 1-based among the player's of its difficulty
    (0 for an entry about to be written)."""

    rank: int
    score: int
    date: str
    turns: int
    powers_used: int
    ruins: int
    hints_used: int
    game_id: str
    difficulty: Difficulty
