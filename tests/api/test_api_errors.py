"""409 for every kind of action the rules refuse (state unchanged), 422 for malformed input."""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING, Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from api_helpers import find_seed, post_action
from magdagdon.api.errors import ANSWERS, described
from magdagdon.engine import (
    Difficulty,
    GameState,
    IllegalActionError,
    MalformedError,
    Phase,
    Roll,
    action_to_json,
)
from plans import plain_turn

if TYPE_CHECKING:
    from fastapi.testclient import TestClient


def refused(client: TestClient, game_id: str, body: Any, code: str) -> None:
    """POST ``body``: it must answer 409 ``code`` and leave the game exactly as it was."""
    before = client.get(f"/api/games/{game_id}").json()
    response = client.post(f"/api/games/{game_id}/actions", json=body)
    assert response.status_code == 409, response.text
    error = response.json()["error"]
    assert set(response.json()) == {"error"}
    assert error["code"] == code
    assert isinstance(error["message"], str)
    assert error["message"]
    assert client.get(f"/api/games/{game_id}").json() == before


def new_game(client: TestClient, difficulty: str, seed: int) -> str:
    response = client.post("/api/games", json={"difficulty": difficulty, "seed": seed})
    game_id: str = response.json()["id"]
    return game_id


def magdagdon_game(client: TestClient) -> tuple[str, GameState]:
    """A PEACEFUL game brought (through the API) to its first MAGDAGDON."""
    for seed in range(1, 500):
        state = GameState.new(Difficulty.PEACEFUL, seed)
        actions = []
        while not state.is_over and state.phase is not Phase.MAGDAGDON:
            for action in plain_turn(state):
                state = state.apply(action)
                actions.append(action)
                if state.phase is Phase.MAGDAGDON:
                    break
        if state.phase is Phase.MAGDAGDON:
            game_id = new_game(client, "peaceful", seed)
            for action in actions:
                post_action(client, game_id, action_to_json(action))
            return game_id, state
    raise AssertionError("no MAGDAGDON in 500 games")


def test_phase_errors(client: TestClient) -> None:
    game_id = new_game(client, "peaceful", 1)
    refused(client, game_id, {"type": "confirm"}, "not_your_turn_phase")
    refused(client, game_id, {"type": "stage", "die": 0, "cell": [0, 0]}, "not_your_turn_phase")
    refused(client, game_id, {"type": "unstage", "die": 0}, "not_your_turn_phase")
    refused(client, game_id, {"type": "adjust", "die": 0, "delta": 1}, "not_your_turn_phase")
    refused(client, game_id, {"type": "reroll", "dice": [0]}, "not_your_turn_phase")
    refused(client, game_id, {"type": "ruin", "cell": [0, 0]}, "not_your_turn_phase")
    post_action(client, game_id, {"type": "roll"})
    refused(client, game_id, {"type": "roll"}, "not_your_turn_phase")
    refused(client, game_id, {"type": "ruin", "cell": [0, 0]}, "not_your_turn_phase")


def test_placement_errors(client: TestClient) -> None:
    game_id = new_game(client, "peaceful", 1)
    post_action(client, game_id, {"type": "roll"})
    refused(client, game_id, {"type": "confirm"}, "below_minimum")
    refused(client, game_id, {"type": "unstage", "die": 1}, "die_not_staged")
    post_action(client, game_id, {"type": "stage", "die": 0, "cell": [1, 1]})
    refused(client, game_id, {"type": "stage", "die": 0, "cell": [1, 2]}, "die_staged")
    refused(client, game_id, {"type": "stage", "die": 1, "cell": [1, 1]}, "invalid_cell")
    refused(client, game_id, {"type": "stage", "die": 1, "cell": [3, 3]}, "invalid_cell")
    refused(client, game_id, {"type": "confirm"}, "below_minimum")
    refused(client, game_id, {"type": "adjust", "die": 0, "delta": 1}, "die_staged")
    refused(client, game_id, {"type": "reroll", "dice": [1, 0]}, "die_staged")


def test_power_errors(client: TestClient) -> None:
    seed = find_seed(lambda s: 1 in s.dice and 6 in s.dice, Difficulty.PEACEFUL)
    rolled = GameState.new(Difficulty.PEACEFUL, seed).apply(Roll())
    game_id = new_game(client, "peaceful", seed)
    post_action(client, game_id, {"type": "roll"})
    one, six = rolled.dice.index(1), rolled.dice.index(6)
    refused(client, game_id, {"type": "adjust", "die": one, "delta": -1}, "value_out_of_range")
    refused(client, game_id, {"type": "adjust", "die": six, "delta": 1}, "value_out_of_range")
    nightmare = new_game(client, "nightmare", seed)
    post_action(client, nightmare, {"type": "roll"})
    refused(client, nightmare, {"type": "adjust", "die": 0, "delta": 1}, "no_powers_left")
    refused(client, nightmare, {"type": "reroll", "dice": [0, 1]}, "no_powers_left")
    survival = new_game(client, "survival", seed)
    post_action(client, survival, {"type": "roll"})
    used = post_action(client, survival, {"type": "reroll", "dice": [0, 1, 2, 3]})
    assert used["powers"] == {"total": 1, "used": 1, "left": 0, "penalty": 70, "next_penalty": None}
    assert used["adjust"] == {}
    assert used["can_reroll"] is False
    refused(client, survival, {"type": "reroll", "dice": [2]}, "no_powers_left")


def test_magdagdon_errors_and_ruin(client: TestClient) -> None:
    game_id, state = magdagdon_game(client)
    shown = client.get(f"/api/games/{game_id}").json()
    assert shown["phase"] == "magdagdon"
    assert shown["ruinable"] == [[c // 4, c % 4] for c in state.empty_cells()]
    assert shown["valid_cells"] == {}
    assert shown["can_confirm"] is False
    full = [c for c in range(16) if c not in state.empty_cells()]
    refused(client, game_id, {"type": "ruin", "cell": [full[0] // 4, full[0] % 4]}, "invalid_cell")
    refused(client, game_id, {"type": "stage", "die": 0, "cell": [0, 0]}, "not_your_turn_phase")
    refused(client, game_id, {"type": "confirm"}, "not_your_turn_phase")
    cell = state.empty_cells()[0]
    after = post_action(client, game_id, {"type": "ruin", "cell": [cell // 4, cell % 4]})
    assert after["board"][cell // 4][cell % 4] == "ruin"
    assert after["score"]["ruins"] == 1
    assert after["score"]["ruin_penalty"] == 15
    assert after["phase"] in ("roll", "over")


def test_every_rule_is_the_engines_to_refuse(client: TestClient) -> None:
    """A die, a delta or a choice of dice that the rules refuse is a 409 with the engine's code:
    the API checks only that the body is an action (its types and fields)."""
    game_id = new_game(client, "peaceful", 1)
    post_action(client, game_id, {"type": "roll"})
    refused(client, game_id, {"type": "stage", "die": 4, "cell": [0, 0]}, "unknown_die")
    refused(client, game_id, {"type": "stage", "die": -1, "cell": [0, 0]}, "unknown_die")
    refused(client, game_id, {"type": "unstage", "die": 9}, "unknown_die")
    refused(client, game_id, {"type": "adjust", "die": 0, "delta": 2}, "invalid_delta")
    refused(client, game_id, {"type": "adjust", "die": 0, "delta": 0}, "invalid_delta")
    refused(client, game_id, {"type": "adjust", "die": 7, "delta": 1}, "unknown_die")
    refused(client, game_id, {"type": "reroll", "dice": []}, "no_dice_chosen")
    refused(client, game_id, {"type": "reroll", "dice": [0, 0]}, "duplicate_die")
    refused(client, game_id, {"type": "reroll", "dice": [0, 1, 2, 3, 0]}, "duplicate_die")
    refused(client, game_id, {"type": "reroll", "dice": [5]}, "unknown_die")


MALFORMED_ACTIONS: list[Any] = [
    {},
    [],
    "roll",
    None,
    {"type": "dance"},
    {"type": "ROLL"},
    {"type": "roll", "extra": 1},
    {"type": "roll", "version": "3"},
    {"type": "roll", "version": 1.5},
    {"type": "stage", "die": 0},
    {"type": "stage", "cell": [0, 0]},
    {"type": "stage", "die": "1", "cell": [0, 0]},
    {"type": "stage", "die": True, "cell": [0, 0]},
    {"type": "stage", "die": 1.5, "cell": [0, 0]},
    {"type": "stage", "die": 0, "cell": [0, 0.5]},
    {"type": "stage", "die": 0, "cell": [0, True]},
    {"type": "stage", "die": 0, "cell": [4, 0]},
    {"type": "stage", "die": 0, "cell": [0, -1]},
    {"type": "stage", "die": 0, "cell": [0]},
    {"type": "stage", "die": 0, "cell": [0, 0, 0]},
    {"type": "stage", "die": 0, "cell": 5},
    {"type": "stage", "die": 0, "cell": {"row": 0, "col": 0}},
    {"type": "unstage"},
    {"type": "adjust", "die": 0},
    {"type": "adjust", "die": 0, "delta": True},
    {"type": "adjust", "die": 0, "delta": 1.5},
    {"type": "adjust", "die": 0, "delta": None},
    {"type": "adjust", "die": 0, "delta": "+1"},
    {"type": "reroll"},
    {"type": "reroll", "dice": 0},
    {"type": "ruin"},
    {"type": "ruin", "cell": [9, 9]},
]


@pytest.mark.parametrize("body", MALFORMED_ACTIONS, ids=repr)
def test_malformed_actions_are_422(client: TestClient, body: Any) -> None:
    game_id = new_game(client, "peaceful", 1)
    before = client.get(f"/api/games/{game_id}").json()
    response = client.post(f"/api/games/{game_id}/actions", json=body)
    assert response.status_code == 422, response.text
    assert response.json()["error"]["code"] == "malformed"
    assert client.get(f"/api/games/{game_id}").json() == before


def test_a_body_that_is_not_json_is_422(client: TestClient) -> None:
    game_id = new_game(client, "peaceful", 1)
    response = client.post(
        f"/api/games/{game_id}/actions",
        content=b"{not json",
        headers={"content-type": "application/json"},
    )
    assert response.status_code == 422
    assert response.json()["error"]["code"] == "malformed"


@pytest.mark.parametrize(
    "body",
    [
        {},
        {"difficulty": "easy"},
        {"difficulty": "PEACEFUL"},
        {"difficulty": "peaceful", "seed": -1},
        {"difficulty": "peaceful", "seed": 2**53},
        {"difficulty": "peaceful", "seed": True},
        {"difficulty": "peaceful", "seed": "7"},
        {"difficulty": "peaceful", "seed": 1.5},
        {"difficulty": "peaceful", "colour": "red"},
        [],
    ],
    ids=repr,
)
def test_malformed_new_game_is_422(client: TestClient, body: Any) -> None:
    response = client.post("/api/games", json=body)
    assert response.status_code == 422, response.text
    assert response.json()["error"]["code"] == "malformed"
    assert client.get("/api/games/current").status_code == 404


def test_unknown_paths_and_methods_keep_the_error_shape(client: TestClient) -> None:
    missing = client.get("/api/nothing-here")
    assert missing.status_code == 404
    assert missing.json()["error"]["code"] == "not_found"
    wrong_method = client.delete("/api/games")
    assert wrong_method.status_code == 405
    assert wrong_method.json()["error"]["code"] == "method_not_allowed"


def test_wrong_method_names_every_allowed_method(client: TestClient) -> None:
    response = client.delete("/api/player")
    assert response.status_code == 405
    assert set(response.headers["allow"].split(", ")) == {"GET", "PUT"}


JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner),
    max_leaves=8,
)
ACTIONLIKE = st.fixed_dictionaries(
    {"type": st.sampled_from(["roll", "stage", "unstage", "confirm", "adjust", "reroll", "ruin"])},
    optional={"die": JSON, "cell": JSON, "delta": JSON, "dice": JSON, "version": JSON},
)


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(body=JSON | ACTIONLIKE)
def test_no_body_ever_answers_500(client: TestClient, body: Any) -> None:
    """The guard: whatever JSON arrives, the answer is 200, 409 or 422 — never a 500."""
    game = client.get("/api/games/current")
    if game.status_code == 404:
        game = client.post("/api/games", json={"difficulty": "peaceful", "seed": 3})
    response = client.post(f"/api/games/{game.json()['id']}/actions", json=body)
    assert response.status_code in (200, 409, 422), response.text


@pytest.mark.parametrize("game_id", ["a%00b", "%00", "x" * 500, "..%2F..", "é"])
def test_a_game_id_that_names_nothing_is_404(client: TestClient, game_id: str) -> None:
    """Also one that PostgreSQL could not even hold (a NUL): a 404, never a 500."""
    for response in (
        client.get(f"/api/games/{game_id}"),
        client.post(f"/api/games/{game_id}/actions", json={"type": "roll"}),
        client.get(f"/api/games/{game_id}/hint"),
    ):
        assert response.status_code == 404, response.text
        assert response.json()["error"]["code"] == "not_found"


def test_every_documented_error_is_described_by_the_one_table(client: TestClient) -> None:
    """Each error status an operation documents lists codes the server answers, each with the
    meaning ``api/errors.py`` gives it: no route describes an error in words of its own."""
    abouts = {answer.about for answer in ANSWERS.values()}
    codes = {described(kind)[1].partition(": ")[0] for kind in ANSWERS}
    codes |= {kind.code for kind in rule_errors(IllegalActionError)}
    documented = 0
    for path, operations in client.app.openapi()["paths"].items():  # type: ignore[attr-defined]
        for method, operation in operations.items():
            for status, answer in operation["responses"].items():
                if int(status) < 400 or path == "/api/health":  # health: a status, not an error
                    continue
                documented += 1
                for meaning in answer["description"].split("\n"):
                    code, _, about = meaning.partition(": ")
                    assert code in codes, (path, method, status, meaning)
                    assert re.sub(r" \(\d+ bytes here\)$", "", about) in abouts, (path, meaning)
    assert documented > 40


def test_no_operation_documents_fastapis_own_validation_error(client: TestClient) -> None:
    """FastAPI's 422 entry (its ``HTTPValidationError`` model) is replaced by the server's own
    answer, found by that model, whatever words FastAPI gives the entry."""
    paths = client.app.openapi()["paths"]  # type: ignore[attr-defined]
    assert "HTTPValidationError" not in json.dumps(paths)
    answers = [op["responses"].get("422") for ops in paths.values() for op in ops.values()]
    swapped = [answer for answer in answers if answer and "$ref" not in str(answer)]
    assert len(swapped) >= 5
    assert {answer["description"] for answer in swapped} == {described(MalformedError)[1]}


def rule_errors(kind: type[IllegalActionError]) -> list[type[IllegalActionError]]:
    return [kind, *(sub for child in kind.__subclasses__() for sub in rule_errors(child))]
