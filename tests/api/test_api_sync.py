"""Games played offline in the page's engine and sent back (docs/api.md ``POST
/api/games/sync``): replayed by the server's engine, stored once however often they are sent,
a game under way on the server goes on from where the offline play left it, and a log that
does not replay is refused with nothing changed."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
from daily_helpers import Clock, play_out, published, start_daily
from sqlalchemy import select
from sync_helpers import offline_game

from api_helpers import post_action
from magdagdon.store.tables import games

if TYPE_CHECKING:
    from pathlib import Path

    from fastapi.testclient import TestClient


@pytest.fixture
def clock(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Clock:
    return Clock(tmp_path, monkeypatch, "2026-12-03")


def scores(client: TestClient) -> list[str]:
    return [e["game_id"] for e in client.get("/api/highscores?difficulty=peaceful").json()]


def test_a_game_played_offline_is_stored_once_with_its_log(client: TestClient) -> None:
    game = offline_game(7, "o-1f2e3d4c5b6a7980")
    answer = client.post("/api/games/sync", json=game)
    assert answer.status_code == 200, answer.text
    assert answer.json()["phase"] == "over"
    assert answer.json()["version"] == len(game["actions"])
    assert answer.json()["sync"] == {
        "outcome": "stored",
        "game_id": game["id"],
        "sent_id": game["id"],
    }
    again = client.post("/api/games/sync", json=game)
    assert again.status_code == 200
    assert again.json() == {**answer.json(), "sync": {**answer.json()["sync"], "outcome": "same"}}
    assert scores(client) == [game["id"]]
    log = client.get(f"/api/games/{game['id']}/log").json()
    assert log["actions"] == game["actions"]
    assert (log["seed"], log["version"]) == (7, len(game["actions"]))
    assert client.get("/api/stats?difficulty=peaceful").json()["finished"] == 1


def test_a_game_sent_in_parts_is_brought_up_to_the_last_log(client: TestClient) -> None:
    first = client.post("/api/games/sync", json=offline_game(8, "o-part", upto=5))
    assert first.json()["phase"] != "over"
    assert client.get("/api/games/current").json()["id"] == "o-part"  # the game under way
    assert first.json()["sync"]["outcome"] == "stored"
    whole = client.post("/api/games/sync", json=offline_game(8, "o-part"))
    assert whole.json()["phase"] == "over"
    assert whole.json()["sync"] == {"outcome": "extended", "game_id": "o-part", "sent_id": "o-part"}
    assert scores(client) == ["o-part"]
    # a device that kept only the start: the server's game has it all
    behind = client.post("/api/games/sync", json=offline_game(8, "o-part", upto=5))
    assert behind.status_code == 200
    assert behind.json()["sync"]["outcome"] == "same"
    assert behind.json()["phase"] == "over"


def test_a_server_game_goes_on_from_where_offline_play_left_it(client: TestClient) -> None:
    game = client.post("/api/games", json={"difficulty": "peaceful", "seed": 9}).json()
    post_action(client, game["id"], {"type": "roll", "version": 0})
    log = client.get(f"/api/games/{game['id']}/log").json()
    assert log["actions"] == [{"type": "roll"}]
    sent = offline_game(9, game["id"])
    answer = client.post("/api/games/sync", json=sent)
    assert answer.status_code == 200, answer.text
    assert answer.json()["phase"] == "over"
    assert client.get(f"/api/games/{game['id']}/log").json()["actions"] == sent["actions"]
    assert scores(client) == [game["id"]]


def test_a_log_that_does_not_replay_is_refused_and_changes_nothing(client: TestClient) -> None:
    game = offline_game(10, "o-bad")
    game["actions"] = [game["actions"][0], {"type": "roll"}]
    answer = client.post("/api/games/sync", json=game)
    assert answer.status_code == 422
    assert answer.json()["error"]["code"] == "sync_invalid"
    assert answer.json()["error"]["action"] == 2
    assert client.get("/api/games/o-bad/log").status_code == 404


def test_another_way_than_the_server_game_is_kept_as_a_practice_game(client: TestClient) -> None:
    game = client.post("/api/games", json={"difficulty": "peaceful", "seed": 11}).json()
    rolled = post_action(client, game["id"], {"type": "roll", "version": 0})
    die, cells = next((d, c) for d, c in rolled["valid_cells"].items() if len(c) > 1)
    stage = {"type": "stage", "die": int(die), "cell": cells[0]}
    post_action(client, game["id"], {**stage, "version": 1})
    sent = {
        **offline_game(11, game["id"]),
        "actions": [{"type": "roll"}, {**stage, "cell": cells[1]}],
    }
    answer = client.post("/api/games/sync", json=sent)
    assert answer.status_code == 200, answer.text
    kept = answer.json()
    assert kept["sync"]["outcome"] == "branch"
    assert kept["sync"]["sent_id"] == game["id"]
    assert kept["sync"]["game_id"] == kept["id"] != game["id"]
    assert (kept["mode"], kept["version"]) == ("practice", 2)
    assert imported(client, kept["id"])
    assert client.get(f"/api/games/{game['id']}/log").json()["actions"] == [{"type": "roll"}, stage]
    assert client.get(f"/api/games/{kept['id']}/log").json()["actions"] == sent["actions"]
    assert client.get(f"/api/games/{game['id']}").json()["abandoned"] is False
    again = client.post("/api/games/sync", json=sent)  # its answer lost, sent again: kept once
    assert again.json()["sync"] == kept["sync"]
    assert again.json()["version"] == 2


def test_another_players_game_id_is_refused(client: TestClient, other_client: TestClient) -> None:
    assert client.post("/api/games/sync", json=offline_game(13, "o-mine", 3)).status_code == 200
    answer = other_client.post("/api/games/sync", json=offline_game(13, "o-mine", 3))
    assert answer.status_code == 409
    assert other_client.get("/api/games/o-mine/log").status_code == 404


def imported(client: TestClient, game_id: str) -> bool:
    """The game's ``games.imported`` flag, as the store keeps it."""
    store = client.app.state.store  # type: ignore[attr-defined]
    with store.engine.connect() as conn:
        flag = conn.execute(select(games.c.imported).where(games.c.id == game_id)).scalar_one()
    return bool(flag)


def test_a_game_begun_offline_is_marked_imported(client: TestClient) -> None:
    assert client.post("/api/games/sync", json=offline_game(14, "o-new")).status_code == 200
    assert imported(client, "o-new")
    assert scores(client) == ["o-new"]  # its history is kept all the same
    server = client.post("/api/games", json={"difficulty": "peaceful", "seed": 15}).json()
    assert not imported(client, server["id"])


def test_a_daily_challenge_begun_offline_is_practice(client: TestClient, clock: Clock) -> None:
    day = "2026-12-02"  # a past day: its seed is published, so the page can play it
    seed = published(client, day, "peaceful")["seed"]
    game = {**offline_game(seed, "o-daily"), "mode": "daily", "daily_date": day}
    answer = client.post("/api/games/sync", json=game)
    assert answer.status_code == 200, answer.text
    assert answer.json()["mode"] == "practice"
    assert imported(client, "o-daily")
    assert scores(client) == []  # practice enters no High Score
    assert client.get(f"/api/daily/table?difficulty=peaceful&date={day}").json() == []
    assert client.get("/api/daily").json()["streak"] == {"current": 0, "best": 0}
    stats = client.get("/api/stats", params={"difficulty": "peaceful"}).json()
    assert stats["streak"] == {"current": 0, "best": 0}
    assert stats["finished"] == 1  # STATISTIKA counts it
    # today's attempt is played here, and that one ranks
    ranked = start_daily(client, "peaceful")
    assert ranked["mode"] == "daily"
    play_out(client, ranked)
    table = client.get("/api/daily/table?difficulty=peaceful&date=2026-12-03").json()
    assert [row["game_id"] for row in table] == [ranked["id"]]
    wrong = client.post("/api/games/sync", json={**game, "id": "o-daily2", "seed": seed + 1})
    assert wrong.status_code == 422


def test_todays_challenge_cannot_be_played_offline(client: TestClient, clock: Clock) -> None:
    # its seed is the server's secret till the day is over: the page's log has none, and a
    # log sent with any seed (the true one included) is refused, changing nothing
    ranked = start_daily(client, "peaceful")
    post_action(client, ranked["id"], {"type": "roll", "version": 0})
    assert client.get(f"/api/games/{ranked['id']}/log").json()["seed"] is None
    with client.app.state.store.read() as reads:  # type: ignore[attr-defined]
        seed = reads.day_seed("2026-12-03", "peaceful")
    for game_id in (ranked["id"], "o-today"):
        sent = {**offline_game(seed, game_id), "mode": "daily", "daily_date": "2026-12-03"}
        answer = client.post("/api/games/sync", json=sent)
        assert answer.status_code == 422, answer.text
    assert client.get(f"/api/games/{ranked['id']}").json()["version"] == 1
    assert client.get("/api/games/o-today").status_code == 404
