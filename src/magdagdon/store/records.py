"""What the store answers: plain immutable records (a database row never leaks further), and
how a record becomes a row and back."""

from __future__ import annotations

import enum
import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from magdagdon import clock
from magdagdon.engine import Difficulty, state_from_json, state_to_json

if TYPE_CHECKING:
    from collections.abc import Sequence

    from magdagdon.engine import GameState


class GameStatus(enum.Enum):
    PLAYING = "playing"
    FINISHED = "finished"
    ABANDONED = "abandoned"


class GameMode(enum.Enum):
    """docs/rules.md "Modes and records": High Scores hold finished ``normal`` and ``daily``
    games."""

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
    #: hidden by an operator (``magdagdon admin``): everyone else sees the neutral name
    name_hidden: bool = False


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


def is_key(value: str) -> bool:
    """Whether ``value`` could be a stored key. A key from outside (a cookie, a path) may hold
    NUL, which PostgreSQL's text cannot: such a key names nothing, rather than an error."""
    return "\x00" not in value


def now() -> str:
    """The current UTC time in ISO-8601, to the millisecond (the server's clock)."""
    return clock.stamp()


def to_json_text(data: Any) -> str:
    return json.dumps(data, separators=(",", ":"))


def game_record(row: Sequence[Any]) -> GameRecord:
    return GameRecord(
        id=row[0],
        player=row[1],
        difficulty=Difficulty(row[2]),
        seed=int(row[3]),
        state=state_from_json(json.loads(row[4])),
        version=int(row[5]),
        hints_used=int(row[6]),
        status=GameStatus(row[7]),
        created_at=row[8],
        updated_at=row[9],
        finished_at=row[10],
        mode=GameMode(row[11]),
        daily_date=row[12],
    )


def game_row(game: GameRecord) -> dict[str, Any]:
    """The ``games`` row of a record (``INSERT_GAME``'s values)."""
    return {
        "id": game.id,
        "player": game.player,
        "difficulty": game.difficulty.value,
        "seed": game.seed,
        "state": to_json_text(state_to_json(game.state)),
        "version": game.version,
        "hints_used": game.hints_used,
        "status": game.status.value,
        "created_at": game.created_at,
        "updated_at": game.updated_at,
        "finished_at": game.finished_at,
        "mode": game.mode.value,
        "daily_date": game.daily_date,
    }


def high_score_row(player: str, entry: HighScore) -> dict[str, Any]:
    """The ``highscores`` row of an entry (``INSERT_HIGH_SCORE``'s values)."""
    return {
        "game_id": entry.game_id,
        "player": player,
        "difficulty": entry.difficulty.value,
        "score": entry.score,
        "date": entry.date,
        "turns": entry.turns,
        "powers_used": entry.powers_used,
        "ruins": entry.ruins,
        "hints_used": entry.hints_used,
    }
