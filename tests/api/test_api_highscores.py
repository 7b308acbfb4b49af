"""``/api/highscores``: written at the end of a game, per difficulty, best first, ties in order."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pytest

from api_helpers import post_action, whole_game
from magdagdon.engine import Difficulty, GameState, action_to_json

if TYPE_CHECKING:
    from fastapi.testclient import TestClient


def play_whole_game(client: TestClient, difficulty: Difficulty, seed: int) -> dict[str, Any]:
    game = client.post("/api/games", json={"difficulty": difficulty.value, "seed": seed}).json()
    state: dict[str, Any] = game
    for action in whole_game(GameState.new(difficulty, seed)):
        state = post_action(client, game["id"], action_to_json(action))
    assert state["phase"] == "over"
    return state


def test_best_first_with_ranks_and_ties_in_finishing_order(client: TestClient) -> None:
    finals = [play_whole_game(client, Difficulty.PEACEFUL, seed) for seed in (21, 22, 23, 21)]
    listed = client.get("/api/highscores", params={"difficulty": "peaceful"}).json()
    assert [entry["rank"] for entry in listed] == [1, 2, 3, 4]
    expected = sorted(
        range(4), key=lambda i: (-finals[i]["score"]["total"], finals[i]["finished_at"])
    )
    assert [entry["game_id"] for entry in listed] == [finals[i]["id"] for i in expected]
    assert [entry["score"] for entry in listed] == [finals[i]["score"]["total"] for i in expected]
    # seed 21 twice with the same moves: a tie, the game that ended first ranks first
    tie = [entry["game_id"] for entry in listed if entry["score"] == finals[0]["score"]["total"]]
    assert tie.index(finals[0]["id"]) < tie.index(finals[3]["id"])
    for entry, i in zip(listed, expected, strict=True):
        assert client.get(f"/api/games/{finals[i]['id']}").json()["rank"] == entry["rank"]


def test_high_scores_are_per_difficulty_and_per_player(
    client: TestClient, other_client: TestClient
) -> None:
    final = play_whole_game(client, Difficulty.NIGHTMARE, 4)
    nightmare = client.get("/api/highscores", params={"difficulty": "nightmare"}).json()
    assert [entry["game_id"] for entry in nightmare] == [final["id"]]
    assert client.get("/api/highscores", params={"difficulty": "peaceful"}).json() == []
    assert other_client.get("/api/highscores", params={"difficulty": "nightmare"}).json() == []


def test_hints_counted_in_a_game_are_in_its_high_score(client: TestClient) -> None:
    game = client.post("/api/games", json={"difficulty": "survival", "seed": 8}).json()
    store = client.app.state.store  # type: ignore[attr-defined]
    assert store.count_hint(game["id"]) == 1
    assert store.count_hint(game["id"]) == 2
    assert client.get(f"/api/games/{game['id']}").json()["hints_used"] == 2
    state = game
    for action in whole_game(GameState.new(Difficulty.SURVIVAL, 8)):
        state = post_action(client, game["id"], action_to_json(action))
    assert state["hints_used"] == 2
    [entry] = client.get("/api/highscores", params={"difficulty": "survival"}).json()
    assert entry["hints_used"] == 2


def test_limit(client: TestClient) -> None:
    for seed in (31, 32):
        play_whole_game(client, Difficulty.NIGHTMARE, seed)
    assert len(client.get("/api/highscores?difficulty=nightmare&limit=1").json()) == 1


@pytest.mark.parametrize(
    "query", ["", "?difficulty=easy", "?difficulty=peaceful&limit=0", "?difficulty=x&limit=a"]
)
def test_bad_queries_are_422(client: TestClient, query: str) -> None:
    response = client.get(f"/api/highscores{query}")
    assert response.status_code == 422
    assert response.json()["error"]["code"] == "malformed"
