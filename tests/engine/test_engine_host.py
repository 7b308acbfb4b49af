"""magdagdon.engine.host: the engine through JSON text, as the page's engine worker calls it."""

from __future__ import annotations

import json
from typing import Any

import pytest

from magdagdon.engine import Difficulty, GameState, Roll, host
from magdagdon.engine.host import act, open_game
from magdagdon.engine.view import state_view


def call(function: Any, request: Any) -> dict[str, Any]:
    answer: dict[str, Any] = json.loads(function(json.dumps(request)))
    return answer


GAME = {"difficulty": "survival", "seed": 7, "game_id": "g", "mode": "practice"}


def test_open_and_act_match_the_engine() -> None:
    opened = call(open_game, {**GAME, "actions": []})
    state = GameState.new(Difficulty.SURVIVAL, 7)
    assert opened == {
        "record": {"game_id": "g", "mode": "practice", "version": 0},
        "view": state_view(state, game_id="g", version=0, mode="practice"),
        "seed": 7,
    }
    rolled = call(act, {"action": {"type": "roll"}})
    after = state.apply(Roll())
    assert rolled == {
        "record": {"game_id": "g", "mode": "practice", "version": 1},
        "view": state_view(after, game_id="g", version=1, mode="practice"),
        "action": {"type": "roll"},
    }
    assert host.kept_game() == (after, 1)
    # the same game opened from its log is where the actions left it
    assert call(open_game, {**GAME, "actions": [{"type": "roll"}]})["view"] == rolled["view"]


def test_a_daily_game_is_opened_from_the_seed_the_page_brings() -> None:
    # the engine has no daily seed of its own: a day's is its server's, published after the day
    refused = call(
        open_game,
        {"difficulty": "nightmare", "game_id": "d", "daily_date": "2027-01-01", "actions": []},
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


def test_a_refused_action_answers_the_servers_code_and_changes_nothing() -> None:
    call(open_game, {**GAME, "actions": []})
    kept = host.kept_game()
    answer = call(act, {"action": {"type": "confirm"}})
    assert set(answer) == {"error"}
    assert answer["error"]["code"] == "not_your_turn_phase"
    assert answer["error"]["status"] == 409  # as the API answers a rule's refusal
    assert host.kept_game() == kept


def test_a_log_that_does_not_replay_names_its_action_and_keeps_the_game_open() -> None:
    call(open_game, {**GAME, "actions": []})
    kept = host.kept_game()
    answer = call(open_game, {**GAME, "actions": [{"type": "roll"}, {"type": "roll"}]})
    assert answer["error"]["code"] == "not_your_turn_phase"
    assert answer["error"]["message"].startswith("action 2 does not replay")
    assert answer["error"]["status"] == 422
    assert host.kept_game() == kept


def test_an_action_before_any_game_is_not_found(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(host, "_kept", [])
    assert call(act, {"action": {"type": "roll"}})["error"] == {
        "code": "not_found",
        "message": "no game is open",
        "status": 404,
    }
    assert host.kept_game() is None


@pytest.mark.parametrize(
    "request_",
    [
        {"difficulty": "easy", "seed": 1, "game_id": "g"},
        {"difficulty": "peaceful", "seed": -1, "game_id": "g"},
        {"difficulty": "peaceful", "seed": True, "game_id": "g"},
        {"difficulty": "peaceful", "seed": 1},
        {"difficulty": "peaceful", "seed": 1, "game_id": "g", "colour": "red"},
        {"difficulty": "peaceful", "seed": 1, "game_id": "g", "version": 1},
        {"difficulty": "peaceful", "seed": 1, "game_id": "g", "hints_used": "1"},
        {"difficulty": "peaceful", "seed": 1, "game_id": "g", "mode": "ranked"},
        {"difficulty": "peaceful", "seed": 1, "game_id": "g", "actions": {"type": "roll"}},
        {"difficulty": "peaceful", "seed": 1, "game_id": "g", "actions": [{"type": "fly"}]},
        {"difficulty": "peaceful", "game_id": "g", "daily_date": "2027-13-01"},
        [],
    ],
)
def test_a_malformed_game_to_open(request_: Any) -> None:
    error = call(open_game, request_)["error"]
    assert (error["code"], error["status"]) == ("malformed", 422)


def test_a_malformed_action() -> None:
    call(open_game, {**GAME, "actions": []})
    kept = host.kept_game()
    assert call(act, {"action": {"type": "fly"}})["error"]["status"] == 422
    assert call(act, {"action": {"type": "fly"}})["error"]["code"] == "malformed"
    assert call(act, {})["error"]["code"] == "malformed"
    assert json.loads(act("not json"))["error"]["code"] == "malformed"
    assert json.loads(act("[]"))["error"]["code"] == "malformed"
    assert host.kept_game() == kept


def test_the_statuses_are_the_api_s(monkeypatch: pytest.MonkeyPatch) -> None:
    """The engine cannot read the API's error table (it sits below it): the statuses it gives
    its refusals are checked against that table here, so the two never drift apart."""
    from magdagdon.api.errors import ANSWERS
    from magdagdon.engine import IllegalActionError, MalformedError
    from magdagdon.store.errors import GameNotFoundError

    call(open_game, {**GAME, "actions": []})
    refused = call(act, {"action": {"type": "confirm"}})["error"]
    malformed = call(act, {"action": {"type": "fly"}})["error"]
    assert refused["status"] == ANSWERS[IllegalActionError].status
    assert malformed["status"] == ANSWERS[MalformedError].status
    monkeypatch.setattr(host, "_kept", [])
    missing = call(act, {"action": {"type": "roll"}})["error"]
    assert (missing["code"], missing["status"]) == (
        ANSWERS[GameNotFoundError].code,
        ANSWERS[GameNotFoundError].status,
    )
