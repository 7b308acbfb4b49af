"""The direct way of an action and of a game's read (``api/routes/direct.py``) answers exactly
what FastAPI's route answers: an action sent so that FastAPI must read it (another way of
writing its JSON content type) is applied and answered the same, and one without a content
type is FastAPI's 422 as before; the paths beside
them (the current game, another method) are still FastAPI's."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

import pytest

from magdagdon.engine import Difficulty, GameState, action_to_json
from plans import plain_turn

if TYPE_CHECKING:
    from fastapi.testclient import TestClient

SEED = 7


def new_game(client: TestClient) -> str:
    response = client.post("/api/games", json={"difficulty": "peaceful", "seed": SEED})
    assert response.status_code == 201
    game_id: str = response.json()["id"]
    return game_id


def turn_bodies() -> list[bytes]:
    """A first turn of the game of ``SEED``: I-ROLL, then its placements and KUMPIRMAHIN."""
    state = GameState.new(Difficulty.PEACEFUL, SEED)
    bodies = []
    for _ in range(2):
        for action in plain_turn(state):
            bodies.append(json.dumps(action_to_json(action)).encode())
            state = state.apply(action)
    return bodies


@pytest.mark.parametrize(
    "content_type", ["application/json; charset=utf-8", "application/vnd.api+json"]
)
def test_an_action_fastapi_reads_answers_as_the_direct_way(
    client: TestClient, other_client: TestClient, content_type: str
) -> None:
    direct, read = new_game(client), new_game(other_client)
    headers = {"content-type": content_type}
    for body in turn_bodies():
        mine = client.post(
            f"/api/games/{direct}/actions",
            content=body,
            headers={"content-type": "application/json"},
        )
        theirs = other_client.post(f"/api/games/{read}/actions", content=body, headers=headers)
        assert mine.status_code == theirs.status_code == 200, theirs.text
        assert mine.headers["content-type"] == theirs.headers["content-type"]
        expected, answered = mine.json(), theirs.json()
        assert expected.pop("id") == direct
        assert answered.pop("id") == read
        assert answered == expected
    for player, game_id in ((client, direct), (other_client, read)):
        assert player.get(f"/api/games/{game_id}").json()["version"] == len(turn_bodies())


def test_an_action_without_a_content_type_is_fastapis_422(client: TestClient) -> None:
    game_id = new_game(client)
    response = client.post(f"/api/games/{game_id}/actions", content=turn_bodies()[0])
    assert response.status_code == 422
    assert response.json()["error"]["code"] == "malformed"
    assert client.get(f"/api/games/{game_id}").json()["version"] == 0


def test_the_direct_way_answers_errors_as_the_app_does(client: TestClient) -> None:
    game_id = new_game(client)
    missing = client.post("/api/games/nothing-here/actions", json={"type": "roll"})
    assert missing.status_code == 404
    assert missing.json()["error"]["code"] == "not_found"
    assert missing.headers["content-security-policy"]  # the edge's headers, as on every answer
    stale = client.post(f"/api/games/{game_id}/actions", json={"type": "roll", "version": 5})
    assert stale.status_code == 409
    assert stale.json()["error"]["code"] == "version_conflict"
    refused = client.post(f"/api/games/{game_id}/actions", json={"type": "confirm"})
    assert refused.status_code == 409
    assert client.get(f"/api/games/{game_id}").json()["version"] == 0  # nothing applied
    assert client.get("/api/games/nothing-here").status_code == 404


def test_the_paths_beside_stay_fastapis(client: TestClient) -> None:
    game_id = new_game(client)
    current = client.get("/api/games/current")
    assert current.status_code == 200
    assert current.json()["id"] == game_id
    wrong = client.get(f"/api/games/{game_id}/actions")
    assert wrong.status_code == 405
    assert wrong.headers["allow"] == "POST"
