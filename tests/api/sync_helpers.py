"""Games played offline in tests, as the page sends them to ``POST /api/games/sync``."""

from __future__ import annotations

from typing import Any

from api_helpers import whole_game
from magdagdon.engine import Difficulty, GameState, action_to_json


def offline_game(seed: int, game_id: str, upto: int | None = None) -> dict[str, Any]:
    """A plain PEACEFUL game of ``seed`` played offline, its log cut after ``upto`` actions."""
    actions = [action_to_json(a) for a in whole_game(GameState.new(Difficulty.PEACEFUL, seed))]
    return {
        "id": game_id,
        "difficulty": "peaceful",
        "seed": seed,
        "mode": "normal",
        "daily_date": None,
        "actions": actions[:upto],
    }
