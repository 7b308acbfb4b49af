"""magdagdon.engine.host: the engine through JSON text, as the page's engine worker calls it."""

from __future__ import annotations

import json
from typing import Any

import pytest

from magdagdon.engine import Difficulty, GameState, Roll, state_to_json
from magdagdon.engine.host import act, new_game, open_game, play, view
from magdagdon.engine.view import state_view


def call(function: Any, request: Any) -> dict[str, Any]:
    answer: dict[str, Any] = json.loads(function(json.dumps(request)))
    return answer


def test_new_game_play_and_view_match_the_engine() -> None:
    game = call(new_game, {"difficulty": "survival", "seed": 7, "game_id": "g", "mode": "practice"})
    state = GameState.new(Difficulty.SURVIVAL, 7)
    assert game["state"] == state_to_json(state)
    assert game["record"] == {"version": 0, "game_id": "g", "mode": "practice"}
    assert game["view"] == state_view(state, game_id="g", version=0, mode="practice")
    rolled = call(play, {**game, "action": {"type": "roll"}})
    after = state.apply(Roll())
    assert rolled["state"] == state_to_json(after)
    assert rolled["view"] == state_view(after, game_id="g", version=1, mode="practice")
    assert call(view, {"state": rolled["state"], "record": rolled["record"]}) == rolled


def test_a_daily_game_is_opened_from_the_seed_the_page_brings() -> None:
    # the engine has no daily seed of its own: a day's is its server's, published after the day
    refused = call(
        new_game, {"difficulty": "nightmare", "game_id": "d", "daily_date": "2027-01-01"}
    )
    assert refused["error"]["code"] == "malformed"
    seed = 123456789
    game = {
        "difficulty": "survival",
        "game_id": "o1",
        "mode": "practice",
        "daily_date": "2026-12-03",
        "seed": seed,
    }
    opened = call(open_game, {**game, "actions": [{"type": "roll"}]})
    assert opened["seed"] == seed
    state = GameState.new(Difficulty.SURVIVAL, seed).apply(Roll())
    assert opened["view"] == state_view(
        state, game_id="o1", version=1, mode="practice", daily_date="2026-12-03"
    )
    assert opened["view"]["daily"] == {"date": "2026-12-03", "number": 3}
    assert call(act, {"action": {"type": "roll"}})["error"]["code"] == "not_your_turn_phase"
    seedless = {k: v for k, v in game.items() if k != "seed"}
    assert call(open_game, {**seedless, "actions": []})["error"]["code"] == "malformed"


def test_refused_action_answers_the_servers_code() -> None:
    game = call(new_game, {"difficulty": "peaceful", "seed": 1, "game_id": "g"})
    answer = call(play, {**game, "action": {"type": "confirm"}})
    assert answer["error"]["code"] == "not_your_turn_phase"
    assert set(answer) == {"error"}


@pytest.mark.parametrize(
    "request_",
    [
        {"difficulty": "easy", "seed": 1, "game_id": "g"},
        {"difficulty": "peaceful", "seed": -1, "game_id": "g"},
        {"difficulty": "peaceful", "seed": True, "game_id": "g"},
        {"difficulty": "peaceful", "seed": 1},
        {"difficulty": "peaceful", "seed": 1, "game_id": "g", "colour": "red"},
        {"difficulty": "peaceful", "seed": 1, "game_id": "g", "version": "1"},
        {"difficulty": "peaceful", "seed": 1, "game_id": "g", "mode": "ranked"},
        {"difficulty": "peaceful", "game_id": "g", "daily_date": "2027-13-01"},
        [],
    ],
)
def test_malformed_new_game(request_: Any) -> None:
    assert call(new_game, request_)["error"]["code"] == "malformed"


def test_malformed_play_and_view() -> None:
    game = call(new_game, {"difficulty": "peaceful", "seed": 1, "game_id": "g"})
    assert call(play, {**game, "action": {"type": "fly"}})["error"]["code"] == "malformed"
    assert call(play, {**game, "state": {"format": 99}})["error"]["code"] == "malformed"
    assert call(view, {"state": game["state"]})["error"]["code"] == "malformed"
    assert json.loads(play("not json"))["error"]["code"] == "malformed"
