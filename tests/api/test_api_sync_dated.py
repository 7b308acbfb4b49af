"""A game played offline is dated when it was played (docs/api.md ``POST /api/games/sync``,
``played_at`` and ``finished_at``): in High Scores, STATISTIKA's games and the game's record,
not on the day it reached the server. The times are the device's and checked: a wrong one is
422 naming its field, with nothing stored; none is today's behaviour (the sync's time). What
the server knows better stays the server's: a ranked daily attempt ends when the server saw it
end, an end is never before the server's last change of the game, a branch began when the
server's game began, and the game's last change is the sync's (the clean-up counts from it)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pytest
from daily_helpers import Clock, published, start_daily, state_of
from sqlalchemy import select
from sync_helpers import offline_game
from test_api_input_types import VALUES

from api_helpers import post_action, whole_game
from magdagdon.engine import Difficulty, GameState, action_from_json, action_to_json
from magdagdon.store.tables import game_results, games, highscores

if TYPE_CHECKING:
    from pathlib import Path

    from fastapi.testclient import TestClient

NOW = "2026-12-03T12:00:00.000Z"  # the server's clock
PLAYED = "2026-11-28T09:30:00.000Z"  # the device's, five days before
ENDED = "2026-11-28T09:58:12.345Z"


@pytest.fixture
def clock(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Clock:
    return Clock(tmp_path, monkeypatch, "2026-12-03")


def dated(seed: int, game_id: str, upto: int | None = None, /, **times: object) -> dict[str, Any]:
    return {**offline_game(seed, game_id, upto), **times}


def kept(client: TestClient, game_id: str) -> dict[str, Any]:
    """What the store keeps of the game's times: the game's row, its summary's end (STATISTIKA)
    and its High Score's date."""
    store = client.app.state.store  # type: ignore[attr-defined]
    with store.engine.connect() as conn:
        row = conn.execute(
            select(games.c.created_at, games.c.updated_at, games.c.finished_at).where(
                games.c.id == game_id
            )
        ).one()
        result = conn.execute(
            select(game_results.c.finished_at).where(game_results.c.game_id == game_id)
        ).scalar()
        score = conn.execute(
            select(highscores.c.date).where(highscores.c.game_id == game_id)
        ).scalar()
    return {
        "created_at": row[0],
        "updated_at": row[1],
        "finished_at": row[2],
        "result": result,
        "high_score": score,
    }


def exported(client: TestClient, game_id: str) -> dict[str, Any]:
    found: dict[str, Any] = next(
        g for g in client.get("/api/player/export").json()["games"] if g["id"] == game_id
    )
    return found


def test_a_game_played_offline_is_dated_when_it_was_played(
    client: TestClient, clock: Clock
) -> None:
    answer = client.post(
        "/api/games/sync", json=dated(7, "o-dated", played_at=PLAYED, finished_at=ENDED)
    )
    assert answer.status_code == 200, answer.text
    assert answer.json()["sync"]["outcome"] == "stored"
    assert answer.json()["finished_at"] == ENDED
    assert kept(client, "o-dated") == {
        "created_at": PLAYED,
        "updated_at": NOW,  # the server's last change: the sync
        "finished_at": ENDED,
        "result": ENDED,
        "high_score": ENDED,
    }
    [entry] = client.get("/api/highscores?difficulty=peaceful").json()
    assert (entry["game_id"], entry["date"]) == ("o-dated", ENDED)
    game = exported(client, "o-dated")
    assert (game["created_at"], game["finished_at"]) == (PLAYED, ENDED)
    assert client.get("/api/stats?difficulty=peaceful").json()["finished"] == 1
    # the same game sent again (its answer lost) changes nothing, its times included
    again = client.post("/api/games/sync", json=dated(7, "o-dated", played_at=NOW, finished_at=NOW))
    assert again.json()["sync"]["outcome"] == "same"
    assert kept(client, "o-dated")["finished_at"] == ENDED


def test_without_times_a_game_is_dated_when_it_reached_the_server(
    client: TestClient, clock: Clock
) -> None:
    for game_id, times in (("o-none", {}), ("o-nulls", {"played_at": None, "finished_at": None})):
        answer = client.post("/api/games/sync", json=dated(7, game_id, **times))
        assert answer.status_code == 200, answer.text
        assert kept(client, game_id) == dict.fromkeys(
            ("created_at", "updated_at", "finished_at", "result", "high_score"), NOW
        )
    # only the end said: the game began no later than it ended
    answer = client.post("/api/games/sync", json=dated(8, "o-end", finished_at=ENDED))
    assert answer.status_code == 200, answer.text
    assert kept(client, "o-end")["created_at"] == ENDED
    # only the beginning said: it ended when it reached the server
    answer = client.post("/api/games/sync", json=dated(9, "o-begin", played_at=PLAYED))
    assert answer.status_code == 200, answer.text
    assert (kept(client, "o-begin")["created_at"], kept(client, "o-begin")["finished_at"]) == (
        PLAYED,
        NOW,
    )


def test_a_device_clock_a_little_fast_is_taken_as_now(client: TestClient, clock: Clock) -> None:
    times = {"played_at": "2026-12-03T12:05:00Z", "finished_at": "2026-12-03T12:10:00.000Z"}
    answer = client.post("/api/games/sync", json=dated(7, "o-fast", **times))
    assert answer.status_code == 200, answer.text
    assert kept(client, "o-fast")["created_at"] == NOW
    assert kept(client, "o-fast")["finished_at"] == NOW
    # an offset is a time like any: 13:00 at +01:00 is noon UTC
    answer = client.post(
        "/api/games/sync", json=dated(8, "o-zone", played_at="2026-11-28T10:30:00+01:00")
    )
    assert answer.status_code == 200, answer.text
    assert kept(client, "o-zone")["created_at"] == PLAYED


WRONG: list[tuple[str, dict[str, Any], str]] = [
    ("played in the future", {"played_at": "2026-12-03T12:10:00.001Z"}, "played_at"),
    ("ended in the future", {"finished_at": "2026-12-04T00:00:00Z"}, "finished_at"),
    (
        "ended before it began",
        {"played_at": PLAYED, "finished_at": "2026-11-28T09:29:59Z"},
        "finished_at",
    ),
    ("before any MAGDAGDON game", {"played_at": "2019-12-31T23:59:59Z"}, "played_at"),
]


@pytest.mark.parametrize(("what", "times", "field"), WRONG, ids=[w[0] for w in WRONG])
def test_a_wrong_time_is_422_naming_the_field_and_stores_nothing(
    client: TestClient, clock: Clock, what: str, times: dict[str, Any], field: str
) -> None:
    answer = client.post("/api/games/sync", json=dated(7, "o-wrong", **times))
    assert answer.status_code == 422, (what, answer.text)
    error = answer.json()["error"]
    assert (error["code"], error["field"], error["action"]) == ("sync_invalid", field, None)
    assert field in error["message"]
    assert client.get("/api/games/o-wrong/log").status_code == 404


def test_an_end_for_a_log_that_does_not_end_the_game_is_422(
    client: TestClient, clock: Clock
) -> None:
    answer = client.post("/api/games/sync", json=dated(7, "o-part", 5, finished_at=ENDED))
    assert answer.status_code == 422, answer.text
    assert answer.json()["error"]["field"] == "finished_at"
    assert client.get("/api/games/o-part/log").status_code == 404
    # the game under way is dated when it began, and ends when the device says, later
    answer = client.post("/api/games/sync", json=dated(7, "o-part", 5, played_at=PLAYED))
    assert answer.status_code == 200, answer.text
    whole = client.post(
        "/api/games/sync", json=dated(7, "o-part", played_at=PLAYED, finished_at=ENDED)
    )
    assert whole.json()["sync"]["outcome"] == "extended"
    # never before the server's last change of it (the first sync): a device clock behind
    assert kept(client, "o-part")["finished_at"] == NOW


def test_a_past_days_challenge_begun_before_its_day_is_422(
    client: TestClient, clock: Clock
) -> None:
    day = "2026-12-02"
    seed = published(client, day, "peaceful")["seed"]
    game = {**dated(seed, "o-day"), "mode": "practice", "daily_date": day}
    early = client.post("/api/games/sync", json={**game, "played_at": "2026-12-01T23:59:59Z"})
    assert early.status_code == 422, early.text
    assert early.json()["error"]["field"] == "played_at"
    answer = client.post("/api/games/sync", json={**game, "played_at": "2026-12-02T23:00:00Z"})
    assert answer.status_code == 200, answer.text
    assert kept(client, "o-day")["created_at"] == "2026-12-02T23:00:00.000Z"


@pytest.mark.parametrize("field", ["played_at", "finished_at"])
def test_a_time_of_any_other_json_type_or_form_is_422(
    client: TestClient, clock: Clock, field: str
) -> None:
    forms = ["2026-11-28", "2026-11-28T09:30:00", "2026-11-28 09:30:00Z", "2026-13-01T00:00:00Z"]
    for value in [*VALUES, *forms, "yesterday", "2026-11-31T09:30:00Z"]:
        answer = client.post("/api/games/sync", json=dated(7, "o-typed", **{field: value}))
        if value is None:
            assert answer.status_code == 200, (value, answer.text)
            continue
        assert answer.status_code == 422, (value, answer.text)
        assert answer.json()["error"]["code"] == "malformed"
        assert field in answer.json()["error"]["message"]
        assert client.get("/api/games/o-typed/log").status_code in (200, 404)
    answer = client.post("/api/games/sync", json=dated(8, "o-good", **{field: ENDED}))
    assert answer.status_code == 200, answer.text
    assert client.post("/api/games/sync", json=dated(9, "o-more", extra=PLAYED)).status_code == 422


def test_a_ranked_daily_attempt_ends_when_the_server_saw_it_end(
    client: TestClient, clock: Clock
) -> None:
    ranked = start_daily(client, "peaceful")  # on the server, 2026-12-03: ranked
    actions = [action_to_json(a) for a in whole_game(state_of(client, ranked))]
    for action in actions[:-1]:
        post_action(client, ranked["id"], action)
    clock.set("2026-12-04", "08:00:00")  # the day is over: its seed is published
    log = client.get(f"/api/games/{ranked['id']}/log").json()
    sent = {
        "id": ranked["id"],
        "difficulty": "peaceful",
        "seed": log["seed"],
        "mode": "daily",
        "daily_date": "2026-12-03",
        "actions": actions,
        "played_at": "2026-12-03T11:00:00Z",
        "finished_at": "2026-12-03T23:59:00Z",  # the device says: on its day
    }
    answer = client.post("/api/games/sync", json=sent)
    assert answer.status_code == 200, answer.text
    assert (answer.json()["sync"]["outcome"], answer.json()["mode"]) == ("extended", "daily")
    assert kept(client, ranked["id"])["finished_at"] == "2026-12-04T08:00:00.000Z"
    assert kept(client, ranked["id"])["created_at"] == NOW
    # ended after its day: not on the day's table, no streak
    assert client.get("/api/daily/table?difficulty=peaceful&date=2026-12-03").json() == []
    assert client.get("/api/daily").json()["streak"]["current"] == 0


def test_a_server_game_finished_offline_ends_when_the_device_ended_it(
    client: TestClient, clock: Clock
) -> None:
    game = client.post("/api/games", json={"difficulty": "peaceful", "seed": 9}).json()
    post_action(client, game["id"], {"type": "roll", "version": 0})
    clock.set("2026-12-05")
    sent = {**dated(9, game["id"]), "played_at": PLAYED, "finished_at": "2026-12-03T18:00:00Z"}
    answer = client.post("/api/games/sync", json=sent)
    assert answer.json()["sync"]["outcome"] == "extended", answer.text
    times = kept(client, game["id"])
    assert times["created_at"] == NOW  # begun here: the server knows when
    assert times["finished_at"] == times["high_score"] == "2026-12-03T18:00:00.000Z"
    assert times["updated_at"] == "2026-12-05T12:00:00.000Z"


def test_a_branch_began_when_the_servers_game_did(client: TestClient, clock: Clock) -> None:
    game = client.post("/api/games", json={"difficulty": "peaceful", "seed": 11}).json()
    rolled = post_action(client, game["id"], {"type": "roll", "version": 0})
    die, cells = next((d, c) for d, c in rolled["valid_cells"].items() if len(c) > 1)
    post_action(
        client, game["id"], {"type": "stage", "die": int(die), "cell": cells[0], "version": 1}
    )
    # the device staged that die elsewhere, and played the game to its end
    start = [{"type": "roll"}, {"type": "stage", "die": int(die), "cell": cells[1]}]
    branch = GameState.new(Difficulty.PEACEFUL, 11)
    for action in start:
        branch = branch.apply(action_from_json(action))
    rest = [action_to_json(a) for a in whole_game(branch)]
    clock.set("2026-12-06")
    sent = {**dated(11, game["id"]), "actions": start + rest}
    sent |= {"played_at": PLAYED, "finished_at": "2026-12-04T10:00:00Z"}
    answer = client.post("/api/games/sync", json=sent)
    assert answer.json()["sync"]["outcome"] == "branch", answer.text
    times = kept(client, answer.json()["id"])
    assert times["created_at"] == NOW  # the server's game's beginning
    assert times["finished_at"] == "2026-12-04T10:00:00.000Z"
    assert times["updated_at"] == "2026-12-06T12:00:00.000Z"
