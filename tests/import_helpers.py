"""Export files made in tests: games played by the engine alone, dated as the test says."""

from __future__ import annotations

import secrets
from typing import Any

from api_helpers import whole_game
from magdagdon.engine import Difficulty, GameState, action_to_json


def game_entry(
    difficulty: str = "peaceful",
    seed: int = 7,
    *,
    mode: str = "normal",
    day: str | None = None,
    created_at: str = "2026-12-03T08:00:00.000Z",
    finished_at: str | None = "2026-12-03T08:05:00.000Z",
    hints_used: int = 0,
) -> dict[str, Any]:
    """One finished game of an export file, played plainly to its end (a daily or practice
    game of ``day`` on ``seed``: the seed of another server's day is as good as this one's)."""
    level = Difficulty(difficulty)
    state = GameState.new(level, seed)
    actions = []
    for action in whole_game(state):
        actions.append(action_to_json(action))
        state = state.apply(action)
    return {
        "id": secrets.token_hex(8),
        "difficulty": difficulty,
        "seed": seed,
        "mode": mode,
        "daily_date": day,
        "status": "finished",
        "created_at": created_at,
        "finished_at": finished_at,
        "hints_used": hints_used,
        "actions": actions,
        "score": state.score().total,
    }


def document(games: list[dict[str, Any]], name: str | None = None) -> dict[str, Any]:
    return {
        "format": "magdagdon-export",
        "version": 1,
        "exported_at": "2026-12-03T12:00:00.000Z",
        "player": {"language": "fil", "name": name},
        "games": games,
    }
