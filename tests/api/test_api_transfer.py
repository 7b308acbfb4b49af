"""Export and import: an export imported into a new player gives the same High
Scores and Statistics; every imported game is replayed, and a file that does not replay, or
that claims what its replay does not say, is refused whole (422) and changes nothing."""

from __future__ import annotations

import copy
import json
import random
from typing import TYPE_CHECKING, Any

import pytest
from daily_helpers import Clock, first_roll, play_out, start_daily
from fastapi.testclient import TestClient

from magdagdon.api.app import create_app
from magdagdon.engine import Difficulty
from magdagdon.settings import Settings

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path

    from fastapi import FastAPI

DIFFICULTIES = ("peaceful", "survival", "nightmare")


@pytest.fixture
def clock(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Clock:
    return Clock(tmp_path, monkeypatch, "2026-12-03")


def records(client: TestClient) -> dict[str, Any]:
    """What the player sees of their records: High Scores, Statistics, the streak."""
    found: dict[str, Any] = {"daily": client.get("/api/daily").json()}
    for challenge in found["daily"]["challenges"]:  # each server's own dice, not the player's
        del challenge["commitment"]
    for difficulty in DIFFICULTIES:
        found[f"highscores-{difficulty}"] = client.get(
            "/api/highscores", params={"difficulty": difficulty}
        ).json()
        found[f"stats-{difficulty}"] = client.get(
            "/api/stats", params={"difficulty": difficulty}
        ).json()
    return found


def unstreaked(found: dict[str, Any]) -> dict[str, Any]:
    """The records with the streak left out, having checked that it is nothing: an imported
    daily attempt never makes a streak (docs/rules.md "Modes and records" (Where a rank comes
    from))."""
    found = copy.deepcopy(found)
    for key, value in found.items():
        if key == "daily" or key.startswith("stats"):
            assert value.pop("streak") == {"current": 0, "best": 0}, key
    return found


def streak_left_out(found: dict[str, Any]) -> dict[str, Any]:
    found = copy.deepcopy(found)
    for key, value in found.items():
        if key == "daily" or key.startswith("stats"):
            value.pop("streak")
    return found


def without_ids(found: dict[str, Any]) -> dict[str, Any]:
    """The records with the game ids left out (an import under new ids)."""
    text = json.dumps(found)
    for game_id in {e["game_id"] for k, v in found.items() if k.startswith("high") for e in v}:
        text = text.replace(game_id, "ID")
    for challenge in found["daily"]["challenges"]:
        if challenge["game_id"]:
            text = text.replace(challenge["game_id"], "ID")
    for key, value in found.items():  # the best game may be a practice one, in neither above
        if key.startswith("stats") and value["best_game_id"]:
            text = text.replace(value["best_game_id"], "ID")
    result: dict[str, Any] = json.loads(text)
    return result


def export(client: TestClient) -> dict[str, Any]:
    response = client.get("/api/player/export")
    assert response.status_code == 200
    assert response.headers["content-disposition"].startswith("attachment;")
    document: dict[str, Any] = response.json()
    return document


def importing(client: TestClient, document: Any) -> Any:
    return client.post("/api/player/import", json=document)


@pytest.fixture
def history(clock: Clock, client: TestClient) -> dict[str, Any]:
    """A player with games of every mode over three days, finished and not, and a name;
    answer the export."""
    rng = random.Random(11)
    client.put("/api/player", json={"name": "Majda"})
    for day in ("2026-12-01", "2026-12-02", "2026-12-03"):
        clock.set(day, "08:00:00")
        play_out(client, start_daily(client, "nightmare"), rng)
        clock.set(day, "09:00:00")
        play_out(client, start_daily(client, "nightmare"), rng)  # practice
    for index, difficulty in enumerate(DIFFICULTIES * 2):
        clock.set("2026-12-03", f"10:{index:02d}:00")
        game = client.post("/api/games", json={"difficulty": difficulty}).json()
        play_out(client, game, rng)
    tutorial = client.post("/api/games", json={"difficulty": "peaceful", "mode": "tutorial"})
    play_out(client, tutorial.json())
    first_roll(client, client.post("/api/games", json={"difficulty": "survival"}).json())
    first_roll(client, start_daily(client, "peaceful"))  # a ranked attempt under way
    # the export holds the games of a day's challenge once the day is over (their seed is the
    # server's secret till then: tests/api/test_api_daily_fair.py)
    clock.set("2026-12-04", "00:30:00")
    return export(client)


def test_an_export_holds_every_game_and_setting(history: dict[str, Any]) -> None:
    assert history["format"] == "magdagdon-export"
    assert history["version"] == 1
    assert history["player"] == {"language": "fil", "name": "Majda"}
    assert len(history["games"]) == 3 * 2 + 6 + 1 + 2
    modes = [g["mode"] for g in history["games"]]
    assert modes.count("daily") == 4
    assert modes.count("practice") == 3
    assert modes.count("tutorial") == 1
    for game in history["games"]:
        assert set(game) == {
            "id", "difficulty", "seed", "mode", "daily_date", "status", "created_at",
            "finished_at", "hints_used", "actions", "score",
        }  # fmt: skip
        assert (game["score"] is None) == (game["status"] != "finished")
        assert all(isinstance(a, dict) and "type" in a for a in game["actions"])


def test_an_import_into_a_new_player_gives_the_same_records(
    history: dict[str, Any], client: TestClient, other_client: TestClient
) -> None:
    before = records(client)
    answer = importing(other_client, history)
    assert answer.status_code == 200, answer.text
    assert answer.json() == {"imported": len(history["games"]), "skipped": 0}
    after = records(other_client)
    # the same records, except the streak: imported attempts never make one
    assert without_ids(unstreaked(after)) == without_ids(streak_left_out(before))
    assert after["stats-nightmare"]["finished"] == 3 * 2 + 2
    assert before["daily"]["streak"] == {"current": 3, "best": 3}
    # the same file again adds nothing; nor does the owner's own export
    everything = {"imported": 0, "skipped": len(history["games"])}
    assert importing(other_client, history).json() == everything
    assert importing(client, history).json() == everything
    assert records(other_client) == after
    assert records(client) == before
    assert other_client.get("/api/player").json()["name"] == "Majda"  # it had none


def test_an_import_into_another_server_gives_the_very_same_records(
    history: dict[str, Any], client: TestClient, new_db: Callable[..., str]
) -> None:
    before = records(client)
    with TestClient(create_app(new_db(), settings=Settings(rate_limits=False))) as elsewhere:
        assert importing(elsewhere, history).status_code == 200
        assert unstreaked(records(elsewhere)) == streak_left_out(before)  # the same ids too
        assert export(elsewhere)["games"] == [
            game if game["status"] != "playing" or game["mode"] == "daily"
            else {**game, "status": "abandoned"}
            for game in history["games"]
        ]  # fmt: skip


def _finished(document: dict[str, Any], mode: str = "normal") -> tuple[int, dict[str, Any]]:
    for index, game in enumerate(document["games"]):
        if game["mode"] == mode and game["status"] == "finished":
            return index, game
    raise AssertionError("no such game")


def _tampered(document: dict[str, Any], how: str) -> dict[str, Any]:
    forged = copy.deepcopy(document)
    index, game = _finished(forged)
    if how == "changed roll":  # another seed: other dice from the first roll on
        game["seed"] += 1
    elif how == "illegal action":
        stage = next(i for i, a in enumerate(game["actions"]) if a["type"] == "stage")
        game["actions"][stage] = {"type": "confirm"}
    elif how == "forged score":
        game["score"] += 1
    elif how == "forged status":
        game["actions"] = game["actions"][:-1]  # one action short of its end
    elif how == "unknown action":
        game["actions"][0] = {"type": "jump"}
    elif how == "daily from the future":
        _, daily = _finished(forged, "daily")
        daily["daily_date"] = "2026-12-05"
    _ = index
    return forged


#: the action each forgery names, None where the file's actions all replay ("changed roll" makes
#: other dice: which action breaks first depends on them; "illegal action" is the game's first
#: stage, after the Powers its random player used first: ``N`` in its words)
REPLAYED_ACTION = {
    "unknown action": 1,
    "forged score": None,
    "forged status": None,
    "daily from the future": None,
}


@pytest.mark.parametrize(
    ("how", "names"),
    [
        ("changed roll", "action"),
        ("illegal action", 'action N {"type": "confirm"}'),
        ("forged score", "claims the score"),
        ("forged status", "it says finished"),
        ("unknown action", 'action 1 {"type": "jump"}'),
        ("daily from the future", "no challenge of 2026-12-05"),
    ],
)
def test_a_tampered_file_is_refused_and_changes_nothing(
    history: dict[str, Any], other_client: TestClient, how: str, names: str
) -> None:
    first = importing(other_client, {**history, "games": history["games"][:1]})
    assert first.status_code == 200  # the player has something to lose
    before = records(other_client)
    mine = export(other_client)["games"]
    forged = _tampered(history, how)
    answer = importing(other_client, forged)
    assert answer.status_code == 422, answer.text
    error = answer.json()["error"]
    assert error["code"] == "import_invalid"
    position = next(
        i for i, (a, b) in enumerate(zip(forged["games"], history["games"], strict=True)) if a != b
    )
    game = forged["games"][position]
    assert f"game {position + 1} (id {game['id']})" in error["message"]
    if how == "illegal action":
        sent = zip(game["actions"], history["games"][position]["actions"], strict=True)
        first = next(i for i, (a, b) in enumerate(sent) if a != b) + 1
        names = names.replace("action N", f"action {first}")
        assert error["action"] == first
    assert names in error["message"]
    # the same place, as numbers for the page to say in its language
    assert error["game"] == position + 1
    if how in REPLAYED_ACTION:
        assert error["action"] == REPLAYED_ACTION[how]
    if error["action"] is None:
        assert "does not replay" not in error["message"]
    else:
        assert f"action {error['action']} " in error["message"]
    assert records(other_client) == before
    assert export(other_client)["games"] == mine


@pytest.mark.parametrize(
    "body",
    [
        [],
        "magdagdon",
        {"format": "magdagdon-export", "version": 1},
        {"format": "other", "version": 1, "exported_at": "", "player": {}, "games": []},
        "version 2",
        "a game without its seed",
        "a seed as text",
        "two games with one id",
        "an id with a slash",
        "a daily_date that is not a date",
        "extra key",
        "a bad name",
    ],
)
def test_a_malformed_body_is_422_and_changes_nothing(
    history: dict[str, Any], other_client: TestClient, body: Any
) -> None:
    document = copy.deepcopy(history)
    game = document["games"][0]
    if body == "version 2":
        document["version"] = 2
    elif body == "a game without its seed":
        del game["seed"]
    elif body == "a seed as text":
        game["seed"] = str(game["seed"])
    elif body == "two games with one id":
        document["games"][1]["id"] = game["id"]
    elif body == "an id with a slash":
        game["id"] = "../x"
    elif body == "a daily_date that is not a date":
        game["daily_date"] = "2026-13-01"
    elif body == "extra key":
        game["review"] = {}
    elif body == "a bad name":
        document["player"]["name"] = "x" * 30
    else:
        document = body
    answer = importing(other_client, document)
    assert answer.status_code == 422, answer.text
    assert answer.json()["error"]["code"] in ("malformed", "import_invalid")
    assert export(other_client)["games"] == []
    assert other_client.get("/api/player").json()["name"] is None


def test_a_body_that_is_not_json_is_422(client: TestClient) -> None:
    answer = client.post(
        "/api/player/import", content=b"{not json", headers={"content-type": "application/json"}
    )
    assert answer.status_code == 422
    assert answer.json()["error"]["code"] == "malformed"


def test_a_ranked_attempt_imported_where_one_exists_becomes_practice(
    history: dict[str, Any], other_client: TestClient, clock: Clock
) -> None:
    clock.set("2026-12-03", "23:00:00")
    own = play_out(other_client, start_daily(other_client, "nightmare"))
    answer = importing(other_client, history)
    assert answer.status_code == 200
    after = records(other_client)
    nightmare = next(c for c in after["daily"]["challenges"] if c["difficulty"] == "nightmare")
    assert nightmare["game_id"] == own["id"]  # the ranked attempt of 3 December is still its own
    clock.set("2026-12-04", "00:30:00")  # the day's games are in the export once it is over
    modes = {g["id"]: g["mode"] for g in export(other_client)["games"]}
    imported_dailies = [
        g for g in history["games"] if g["mode"] == "daily" and g["daily_date"] == "2026-12-03"
        and g["difficulty"] == "nightmare"
    ]  # fmt: skip
    assert [modes[_new_id(other_client, g)] for g in imported_dailies] == ["practice"]
    table = other_client.get(
        "/api/daily/table", params={"difficulty": "nightmare", "date": "2026-12-03"}
    ).json()
    assert [row["game_id"] for row in table if row["game_id"]] == [own["id"]]


def _new_id(client: TestClient, game: dict[str, Any]) -> str:
    """The id ``game`` got in ``client``'s import (the same seed, log and start time)."""
    for mine in export(client)["games"]:
        if (mine["seed"], mine["actions"], mine["created_at"]) == (
            game["seed"], game["actions"], game["created_at"]
        ):  # fmt: skip
            return str(mine["id"])
    raise AssertionError("not imported")


@pytest.fixture
def small_cap_app(db_url: str) -> FastAPI:
    return create_app(db_url, settings=Settings(rate_limits=False, max_import_bytes=64 * 1024))


def test_the_import_has_its_own_larger_body_cap(
    history: dict[str, Any], small_cap_app: FastAPI
) -> None:
    # Written out one value a line, as a saved export may be: about 29 KB. Packed it is 16–17 KB
    # by the seeds the server draws for its games, and at times under 16 KB.
    body = json.dumps(history, indent=1).encode()
    assert 16 * 1024 < len(body) < 64 * 1024  # over every other request's cap, under this one
    with TestClient(small_cap_app) as client:
        answer = client.post(
            "/api/player/import", content=body, headers={"content-type": "application/json"}
        )
        assert answer.status_code == 200, answer.text
        too_big = client.post(
            "/api/player/import",
            content=b" " * (64 * 1024 + 1),
            headers={"content-type": "application/json"},
        )
        assert too_big.status_code == 413
        assert too_big.json()["error"]["code"] == "body_too_large"
        games_body = client.post(
            "/api/games", content=body, headers={"content-type": "application/json"}
        )
        assert games_body.status_code == 413  # the other routes keep 16 KB


def test_an_unfinished_game_is_imported_abandoned_but_a_ranked_attempt_waits(
    history: dict[str, Any], other_client: TestClient
) -> None:
    importing(other_client, history)
    assert other_client.get("/api/games/current").json()["mode"] == "daily"
    statuses = {(g["mode"], g["status"]) for g in export(other_client)["games"]}
    assert ("normal", "playing") not in statuses
    assert ("normal", "abandoned") in statuses
    assert ("daily", "playing") in statuses


def test_a_game_keeps_being_playable_after_its_import(
    history: dict[str, Any], other_client: TestClient
) -> None:
    importing(other_client, history)
    current = other_client.get("/api/games/current").json()
    assert current["phase"] == "place"
    play_out(other_client, current)
    assert Difficulty(current["difficulty"]) is Difficulty.PEACEFUL
