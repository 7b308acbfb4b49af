"""The server's game state is the engine's state view, byte for byte: what the page's engine
worker answers (``magdagdon.engine.view``) is what the API sends (``api.view.view_json``)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from magdagdon.api.game_state import view_json
from magdagdon.api.schemas.responses import GameView
from magdagdon.engine import Difficulty, GameState
from magdagdon.engine.view import state_view

RECORDS: list[dict[str, Any]] = [
    {"mode": "normal"},
    {"mode": "daily", "daily_date": "2026-12-05", "hints_used": 2, "rank": 1, "rank_among": 4},
    {"mode": "practice", "daily_date": "2027-01-02", "abandoned": True},
    {"mode": "tutorial", "finished_at": "2026-12-05T10:00:00Z"},
]


@pytest.mark.parametrize("difficulty", list(Difficulty), ids=lambda d: d.value)
def test_view_is_the_servers_json(difficulty: Difficulty) -> None:
    """Random games through every phase: the API model keeps every key, value and order."""
    seen = set()
    for seed in range(6):
        rng = random.Random(seed)
        state = GameState.new(difficulty, seed)
        version = 0
        while True:
            record = RECORDS[version % len(RECORDS)]
            view = state_view(state, game_id=f"g{seed}", version=version, **record)
            sent = GameView.model_validate(view).model_dump_json()
            assert sent == json.dumps(view, separators=(",", ":"), ensure_ascii=False)
            assert view_json(view) == sent.encode()  # what the server sends
            seen.add(view["phase"])
            if state.is_over:
                break
            state = state.apply(rng.choice(state.legal_actions()))
            version += 1
    assert seen >= {"roll", "place", "over"}
