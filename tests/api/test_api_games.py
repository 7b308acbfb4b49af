"""``/api/games``: creating, reading, the current game, abandoning, playing, players' privacy."""

from __future__ import annotations

from typing import TYPE_CHECKING

from api_helpers import post_action, whole_game
from magdagdon.api.cookies import COOKIE, MAX_AGE
from magdagdon.engine import Difficulty, GameState, Roll, action_to_json, replay
from plans import plain_turn

if TYPE_CHECKING:
    from fastapi import FastAPI
    from fastapi.testclient import TestClient

STATE_FIELDS = {
    "id", "difficulty", "phase", "turn", "version", "board", "dice", "valid_cells",
    "min_required", "can_confirm", "stuck", "powers", "score", "adjust", "can_reroll",
    "ruinable", "hints_used", "rank", "finished_at", "abandoned", "preview", "rank_among",
    "mode", "daily",
}  # fmt: skip
EMPTY_LINE = {"sum": 0, "bonus": 0, "combo": None}


def test_new_game_answers_201_with_the_exact_fresh_state(client: TestClient) -> None:
    response = client.post("/api/games", json={"difficulty": "survival", "seed": 42})
    assert response.status_code == 201
    game = response.json()
    assert set(game) == STATE_FIELDS
    assert isinstance(game["id"], str)
    assert game["id"]
    del game["id"]
    assert game == {
        "difficulty": "survival",
        "phase": "roll",
        "turn": 0,
        "version": 0,
        "board": [[None] * 4 for _ in range(4)],
        "dice": [],
        "valid_cells": {},
        "min_required": 2,
        "can_confirm": False,
        "stuck": False,
        "powers": {"total": 1, "used": 0, "left": 1, "penalty": 0, "next_penalty": 70},
        "score": {
            "base": 0,
            "bonus": 0,
            "ruins": 0,
            "ruin_penalty": 0,
            "power_penalty": 0,
            "total": 0,
            "rows": [EMPTY_LINE] * 4,
            "columns": [EMPTY_LINE] * 4,
        },
        "adjust": {},
        "can_reroll": False,
        "ruinable": [],
        "hints_used": 0,
        "rank": None,
        "rank_among": None,
        "finished_at": None,
        "abandoned": False,
        "preview": game["score"],
        "mode": "normal",
        "daily": None,
    }


def test_the_first_request_that_makes_something_sets_an_httponly_strict_long_lived_cookie(
    client: TestClient,
) -> None:
    assert "set-cookie" not in client.get("/api/player").headers  # a read makes no player
    response = client.put("/api/player", json={"language": "fil"})
    cookie = response.headers["set-cookie"]
    attributes = [part.strip().lower() for part in cookie.split(";")]
    name, token = cookie.split(";")[0].split("=", 1)
    assert name == COOKIE
    assert len(token) >= 32
    assert "httponly" in attributes
    assert "samesite=strict" in attributes
    assert "path=/api" in attributes
    assert f"max-age={MAX_AGE}" in attributes
    assert MAX_AGE >= 365 * 24 * 3600
    # a known cookie is not set again
    assert "set-cookie" not in client.put("/api/player", json={"language": "en"}).headers
    assert "set-cookie" not in client.post("/api/games", json={"difficulty": "peaceful"}).headers


def test_an_unknown_cookie_gets_a_new_player_when_it_makes_something(client: TestClient) -> None:
    client.cookies.set(COOKIE, "forged-token")
    response = client.get("/api/player")
    assert response.status_code == 200
    assert "set-cookie" not in response.headers
    response = client.post("/api/games", json={"difficulty": "peaceful"})
    assert response.status_code == 201
    new_token = response.cookies.get(COOKIE)
    assert new_token is not None
    assert new_token != "forged-token"


def test_the_seed_fixes_the_dice(client: TestClient) -> None:
    game = client.post("/api/games", json={"difficulty": "peaceful", "seed": 7}).json()
    rolled = post_action(client, game["id"], {"type": "roll"})
    expected = GameState.new(Difficulty.PEACEFUL, 7).apply(Roll())
    assert [d["value"] for d in rolled["dice"]] == list(expected.dice)
    assert [d["id"] for d in rolled["dice"]] == [0, 1, 2, 3]
    assert all(d["cell"] is None for d in rolled["dice"])
    assert rolled["phase"] == "place"
    assert rolled["turn"] == 1
    assert rolled["version"] == 1
    assert rolled["valid_cells"] == {
        str(die): [[c // 4, c % 4] for c in cells] for die, cells in expected.valid_cells().items()
    }


def test_a_game_without_seed_gets_a_random_one(app: FastAPI, client: TestClient) -> None:
    seeds = []
    for _ in range(3):
        game_id = client.post("/api/games", json={"difficulty": "peaceful"}).json()["id"]
        seeds.append(app.state.store.game(game_id).seed)
    assert len(set(seeds)) == 3
    assert all(0 <= seed < 2**53 for seed in seeds)


def test_get_answers_the_same_state(client: TestClient) -> None:
    game = client.post("/api/games", json={"difficulty": "nightmare", "seed": 3}).json()
    rolled = post_action(client, game["id"], {"type": "roll"})
    response = client.get(f"/api/games/{game['id']}")
    assert response.status_code == 200
    assert response.json() == rolled


def test_unknown_game_is_404_with_the_error_shape(client: TestClient) -> None:
    for path in ("/api/games/nope", "/api/games/0123456789abcdef"):
        response = client.get(path)
        assert response.status_code == 404
        assert response.json() == {"error": {"code": "not_found", "message": "no such game"}}
    response = client.post("/api/games/nope/actions", json={"type": "roll"})
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "not_found"


def test_another_players_game_is_404(client: TestClient, other_client: TestClient) -> None:
    game = client.post("/api/games", json={"difficulty": "peaceful", "seed": 1}).json()
    assert other_client.get(f"/api/games/{game['id']}").status_code == 404
    response = other_client.post(f"/api/games/{game['id']}/actions", json={"type": "roll"})
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "not_found"
    assert other_client.get("/api/games/current").status_code == 404
    # the owner's game is untouched
    assert client.get(f"/api/games/{game['id']}").json()["version"] == 0


def test_current_game(client: TestClient) -> None:
    response = client.get("/api/games/current")
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "not_found"
    game = client.post("/api/games", json={"difficulty": "peaceful", "seed": 5}).json()
    post_action(client, game["id"], {"type": "roll"})
    current = client.get("/api/games/current")
    assert current.status_code == 200
    assert current.json() == client.get(f"/api/games/{game['id']}").json()


def test_a_new_game_abandons_the_unfinished_one(client: TestClient) -> None:
    first = client.post("/api/games", json={"difficulty": "peaceful", "seed": 5}).json()
    post_action(client, first["id"], {"type": "roll"})
    second = client.post("/api/games", json={"difficulty": "survival", "seed": 6}).json()
    assert client.get("/api/games/current").json()["id"] == second["id"]
    old = client.get(f"/api/games/{first['id']}").json()
    assert old["abandoned"] is True
    assert old["version"] == 1
    response = client.post(f"/api/games/{first['id']}/actions", json={"type": "confirm"})
    assert response.status_code == 409
    assert response.json()["error"]["code"] == "game_abandoned"
    assert client.get(f"/api/games/{first['id']}").json() == old


def test_a_whole_game_matches_the_engine_and_writes_its_high_score(client: TestClient) -> None:
    seed = 11
    game = client.post("/api/games", json={"difficulty": "peaceful", "seed": seed}).json()
    actions = whole_game(GameState.new(Difficulty.PEACEFUL, seed))
    state = game
    for action in actions:
        state = post_action(client, game["id"], action_to_json(action))
    final = replay(Difficulty.PEACEFUL, seed, actions)
    assert state["phase"] == "over"
    assert state["version"] == len(actions)
    assert state["turn"] == final.turn
    assert state["score"]["total"] == final.score().total
    assert state["dice"] == []
    assert state["valid_cells"] == {}
    assert state["rank"] == 1
    assert state["rank_among"] == 1
    assert isinstance(state["finished_at"], str)
    assert state["finished_at"].endswith("Z")
    assert client.get("/api/games/current").status_code == 404
    again = client.post(f"/api/games/{game['id']}/actions", json={"type": "roll"})
    assert again.status_code == 409
    assert again.json()["error"]["code"] == "game_over"
    scores = client.get("/api/highscores", params={"difficulty": "peaceful"}).json()
    assert scores == [
        {
            "rank": 1,
            "score": final.score().total,
            "date": state["finished_at"],
            "turns": final.turn,
            "powers_used": 0,
            "ruins": final.score().ruins,
            "hints_used": 0,
            "game_id": game["id"],
        }
    ]


def test_version_must_be_current_when_given(client: TestClient) -> None:
    game = client.post("/api/games", json={"difficulty": "peaceful", "seed": 2}).json()
    stale = client.post(f"/api/games/{game['id']}/actions", json={"type": "roll", "version": 1})
    assert stale.status_code == 409
    assert stale.json()["error"]["code"] == "version_conflict"
    assert client.get(f"/api/games/{game['id']}").json() == game
    fresh = post_action(client, game["id"], {"type": "roll", "version": 0})
    assert fresh["version"] == 1
    # docs/api.md: the very action applied at that version, sent again (its answer was lost), is a
    # retry: 200 with the game as it is, nothing applied
    retried = post_action(client, game["id"], {"type": "roll", "version": 0})
    assert retried == fresh
    stage = action_to_json(plain_turn(GameState.new(Difficulty.PEACEFUL, 2).apply(Roll()))[0])
    other = client.post(f"/api/games/{game['id']}/actions", json={**stage, "version": 0})
    assert other.status_code == 409
    assert other.json()["error"]["code"] == "version_conflict"
    assert client.get(f"/api/games/{game['id']}").json() == fresh


def test_staged_dice_show_their_cells(client: TestClient) -> None:
    game = client.post("/api/games", json={"difficulty": "peaceful", "seed": 9}).json()
    engine_state = GameState.new(Difficulty.PEACEFUL, 9).apply(Roll())
    post_action(client, game["id"], {"type": "roll"})
    first_stage = plain_turn(engine_state)[0]
    state = post_action(client, game["id"], action_to_json(first_stage))
    engine_state = engine_state.apply(first_stage)
    die = state["dice"][engine_state.order[0]]
    assert die["cell"] == [engine_state.staged[die["id"]] // 4, engine_state.staged[die["id"]] % 4]
    assert str(die["id"]) not in state["valid_cells"]
    assert state["board"] == [[None] * 4 for _ in range(4)]  # permanent cells only
