"""``GET /api/games/{id}/hint``: the best bot's move for the current state, counted in the game."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from magdagdon.engine import (
    Action,
    Difficulty,
    GameState,
    Phase,
    Stage,
    action_from_json,
    cell_of,
    replay,
)

if TYPE_CHECKING:
    from fastapi.testclient import TestClient


def _new(client: TestClient, difficulty: str, seed: int) -> dict[str, Any]:
    response = client.post("/api/games", json={"difficulty": difficulty, "seed": seed})
    assert response.status_code == 201
    game: dict[str, Any] = response.json()
    return game


def _hint(client: TestClient, game_id: str) -> dict[str, Any]:
    response = client.get(f"/api/games/{game_id}/hint")
    assert response.status_code == 200, response.text
    hint: dict[str, Any] = response.json()
    return hint


def test_following_hints_plays_a_whole_game_and_counts_them(client: TestClient) -> None:
    game = _new(client, "peaceful", 11)
    state = GameState.new(Difficulty.PEACEFUL, 11)
    actions: list[Action] = []
    hints = 0
    while not state.is_over:
        hint = _hint(client, game["id"])
        hints += state.phase is not Phase.ROLL  # a hint where I-ROLL is the only move is free
        assert hint["version"] == len(actions)
        action = action_from_json(hint["action"])
        assert action in set(state.legal_actions())
        if state.phase is Phase.PLACE and not state.order and isinstance(action, Stage):
            placement = hint["placement"]
            assert len(placement) >= state.min_required
            after = state
            for step in placement:  # the whole placement is legal in its order
                after = after.apply(Stage(step["die"], cell_of(*step["cell"])))
            assert after.can_confirm
            assert placement[0] == {"die": action.die, "cell": list(divmod(action.cell, 4))}
        assert isinstance(hint["expected_value"], float)
        response = client.post(f"/api/games/{game['id']}/actions", json=hint["action"])
        assert response.status_code == 200
        assert response.json()["hints_used"] == hints
        actions.append(action)
        state = state.apply(action)
    assert replay(Difficulty.PEACEFUL, 11, actions) == state
    over = client.get(f"/api/games/{game['id']}/hint")
    assert over.status_code == 409
    assert over.json()["error"]["code"] == "game_over"
    entries = client.get("/api/highscores", params={"difficulty": "peaceful"}).json()
    assert [(e["game_id"], e["hints_used"]) for e in entries] == [(game["id"], hints)]
    assert entries[0]["score"] == state.score().total


def test_hint_in_phase_roll_is_roll_with_an_expected_score(client: TestClient) -> None:
    game = _new(client, "nightmare", 3)
    hint = _hint(client, game["id"])
    assert hint["action"] == {"type": "roll"}
    assert hint["placement"] == []
    assert 0 < hint["expected_value"] <= 544
    # docs/rules.md "Modes and records": a hint where I-ROLL is the only move is not counted
    assert client.get(f"/api/games/{game['id']}").json()["hints_used"] == 0


def test_hint_for_a_game_that_is_not_yours_is_404(
    client: TestClient, other_client: TestClient
) -> None:
    game = _new(client, "survival", 5)
    response = other_client.get(f"/api/games/{game['id']}/hint")
    assert response.status_code == 404
    assert client.get("/api/games/nope/hint").status_code == 404
    assert client.get(f"/api/games/{game['id']}").json()["hints_used"] == 0
