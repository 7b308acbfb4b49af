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


@dataclass(frozen=True, slots=True)
class Player:
    token: str
    language: str


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


@dataclass(frozen=True, slots=True)
class HighScore:
    rank: int
    score: int
    date: str
    turns: int
    powers_used: int
    ruins: int
    hints_used: int
    game_id: str
    difficulty: Difficulty
