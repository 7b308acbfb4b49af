"""The hint of the page's engine worker (``bots/offline.py``) answers as every request of the
worker's engine does (``engine/host.py``): the server's hint for the game asked about or the game
kept open, and a refusal as ``{"error": {"code", "message"}}`` with the server's codes."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from magdagdon.bots import hints, offline
from magdagdon.bots.base import make_bot
from magdagdon.engine import Difficulty, GameState, Roll, host, state_to_json


def asked(request: Any) -> dict[str, Any]:
    answer: dict[str, Any] = json.loads(offline.hint(json.dumps(request)))
    return answer


def test_the_kept_game_s_hint_is_the_server_s_with_its_version() -> None:
    host.open_game(json.dumps({"difficulty": "peaceful", "seed": 7, "game_id": "g7"}))
    host.act(json.dumps({"action": {"type": "roll"}}))
    state = GameState.new(Difficulty.PEACEFUL, seed=7).apply(Roll())
    action, placement, value = hints.best(state)
    assert asked({}) == {
        "action": action,
        "placement": [{"die": die, "cell": list(cell)} for die, cell in placement],
        "expected_value": value,
        "version": 1,
    }


def test_a_game_sent_is_hinted_without_a_version() -> None:
    state = GameState.new(Difficulty.SURVIVAL, seed=3)
    answer = asked({"state": state_to_json(state)})
    assert answer["action"] == {"type": "roll"}
    assert "version" not in answer


@pytest.mark.parametrize(
    ("request_", "code"),
    [
        ([], "malformed"),
        ("state", "malformed"),
        ({"state": 5}, "malformed"),
        ({"state": {"format": "no such"}}, "malformed"),
    ],
)
def test_a_request_not_understood_is_malformed(request_: Any, code: str) -> None:
    assert set(asked(request_)) == {"error"}
    assert asked(request_)["error"]["code"] == code


def test_a_finished_game_has_no_hint() -> None:
    state = GameState.new(Difficulty.SURVIVAL, seed=11)
    bot, rng = make_bot("greedy"), random.Random(11)
    while not state.is_over:
        state = state.apply(bot.choose(state, rng))
    assert asked({"state": state_to_json(state)})["error"]["code"] == "game_over"
