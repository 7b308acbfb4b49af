"""Game modes (docs/rules.md "Modes and records"): tutorials beside the game under way, what is
ranked,
what a new game abandons; and the state's ``preview`` and ``rank_among``."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from api_helpers import post_action, whole_game
from magdagdon.engine import Difficulty, GameState, Roll, action_to_json
from magdagdon.services import games
from magdagdon.store import GameMode, GameStatus
from plans import plain_turn

if TYPE_CHECKING:
    from fastapi.testclient import TestClient

    from magdagdon.store import Store


def new_game(client: TestClient, **body: Any) -> dict[str, Any]:
    response = client.post("/api/games", json={"difficulty": "peaceful", **body})
    assert response.status_code == 201, response.text
    game: dict[str, Any] = response.json()
    return game


def play_to_the_end(client: TestClient, game: dict[str, Any]) -> dict[str, Any]:
    difficulty = Difficulty(game["difficulty"])
    seed = client.app.state.store.game(game["id"]).seed  # type: ignore[attr-defined]
    state = game
    for action in whole_game(GameState.new(difficulty, seed)):
        state = post_action(client, game["id"], action_to_json(action))
    assert state["phase"] == "over"
    return state


def test_a_tutorial_waits_beside_the_game_under_way(client: TestClient) -> None:
    game = new_game(client, seed=3)
    post_action(client, game["id"], {"type": "roll"})
    tutorial = new_game(client, seed=5, mode="tutorial")
    assert tutorial["mode"] == "tutorial"
    assert tutorial["daily"] is None
    assert client.get(f"/api/games/{game['id']}").json()["abandoned"] is False
    assert client.get("/api/games/current").json()["id"] == game["id"]
    over = play_to_the_end(client, tutorial)
    assert over["rank"] is None
    assert over["rank_among"] is None
    assert client.get("/api/highscores", params={"difficulty": "peaceful"}).json() == []
    # the game under way goes on
    assert post_action(client, game["id"], action_to_json(_first_stage(3)))["version"] == 2


def _first_stage(seed: int) -> Any:
    return plain_turn(GameState.new(Difficulty.PEACEFUL, seed).apply(Roll()))[0]


def test_a_new_tutorial_abandons_only_the_unfinished_tutorial(client: TestClient) -> None:
    game = new_game(client, seed=3)
    first = new_game(client, seed=5, mode="tutorial")
    second = new_game(client, seed=5, mode="tutorial")
    assert client.get(f"/api/games/{first['id']}").json()["abandoned"] is True
    assert client.get(f"/api/games/{second['id']}").json()["abandoned"] is False
    assert client.get(f"/api/games/{game['id']}").json()["abandoned"] is False


def test_a_new_game_abandons_an_unfinished_tutorial(client: TestClient) -> None:
    tutorial = new_game(client, seed=5, mode="tutorial")
    game = new_game(client, seed=3)
    assert client.get(f"/api/games/{tutorial['id']}").json()["abandoned"] is True
    assert client.get("/api/games/current").json()["id"] == game["id"]


def test_only_the_tutorial_is_chosen_here_daily_games_have_their_own_route(
    client: TestClient,
) -> None:
    for mode in ("daily", "practice", "ranked", 1):
        response = client.post("/api/games", json={"difficulty": "peaceful", "mode": mode})
        assert response.status_code == 422, mode
        assert response.json()["error"]["code"] == "malformed"
    assert client.get("/api/games/current").status_code == 404  # nothing was made


def test_a_ranked_daily_attempt_is_never_abandoned(store: Store) -> None:
    player = store.new_player().token
    daily = games.start(
        store, player, Difficulty.SURVIVAL, 9, mode=GameMode.DAILY, daily_date="2026-12-01"
    )
    practice = games.start(
        store, player, Difficulty.SURVIVAL, 9, mode=GameMode.PRACTICE, daily_date="2026-12-01"
    )
    normal = games.start(store, player, Difficulty.SURVIVAL, 4)
    assert store.game(daily.id).status is GameStatus.PLAYING  # type: ignore[union-attr]
    assert store.game(practice.id).status is GameStatus.ABANDONED  # type: ignore[union-attr]
    assert store.current_game(player).id == normal.id  # type: ignore[union-attr]
    assert store.game(daily.id).daily_date == "2026-12-01"  # type: ignore[union-attr]


def test_the_state_names_the_day_of_a_daily_game(client: TestClient) -> None:
    store = client.app.state.store  # type: ignore[attr-defined]
    client.put("/api/player", json={"language": "fil"})  # the cookie's player
    token = client.cookies["magdagdon_player"]
    game = games.start(
        store, token, Difficulty.NIGHTMARE, 1, mode=GameMode.PRACTICE, daily_date="2026-12-03"
    )
    state = client.get(f"/api/games/{game.id}").json()
    assert state["mode"] == "practice"
    assert state["daily"] == {"date": "2026-12-03", "number": 3}


def test_preview_is_the_score_with_the_staged_dice(client: TestClient) -> None:
    game = new_game(client, seed=9)
    rolled = post_action(client, game["id"], {"type": "roll"})
    assert rolled["preview"] == rolled["score"]
    turn = plain_turn(GameState.new(Difficulty.PEACEFUL, 9).apply(Roll()))
    state = rolled
    for stage in turn[:-1]:  # every stage, not the KUMPIRMAHIN
        state = post_action(client, game["id"], action_to_json(stage))
    staged = [d for d in state["dice"] if d["cell"] is not None]
    assert len(staged) >= 2
    assert state["score"]["total"] == 0  # the permanent board is still empty
    preview = state["preview"]
    rows = [0] * 4
    columns = [0] * 4
    for die in staged:
        rows[die["cell"][0]] += die["value"]
        columns[die["cell"][1]] += die["value"]
    assert [line["sum"] for line in preview["rows"]] == rows
    assert [line["sum"] for line in preview["columns"]] == columns
    assert preview["base"] == 2 * sum(d["value"] for d in staged)
    confirmed = post_action(client, game["id"], {"type": "confirm"})
    assert confirmed["score"] == preview
    assert confirmed["preview"] == confirmed["score"]


def test_rank_among_counts_the_ranked_games_of_the_difficulty(client: TestClient) -> None:
    first = play_to_the_end(client, new_game(client, seed=21))
    assert (first["rank"], first["rank_among"]) == (1, 1)
    play_to_the_end(client, new_game(client, seed=5, mode="tutorial"))  # not ranked
    second = play_to_the_end(client, new_game(client, seed=22))
    assert second["rank_among"] == 2
    assert second["rank"] in (1, 2)
    assert client.get(f"/api/games/{first['id']}").json()["rank_among"] == 2
