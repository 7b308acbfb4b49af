"""Every JSON field of a sync (``POST /api/games/sync``) and of an import
(``POST /api/player/import``) given every JSON type: the answer is 422 when the value is not
what the field holds, and never a 500; nothing is stored by a refused body."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pytest
from daily_helpers import Clock

from api_helpers import whole_game
from import_helpers import document, game_entry
from magdagdon.engine import Difficulty, GameState, action_to_json

if TYPE_CHECKING:
    from pathlib import Path

    from fastapi.testclient import TestClient

#: One value of every JSON type (and a list and an object that hold a valid value, which a
#: lookup by hashing would choke on).
VALUES: list[Any] = [None, True, 0, 1.5, "x", [], ["peaceful"], {}, {"peaceful": 1}]


@pytest.fixture
def clock(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Clock:
    return Clock(tmp_path, monkeypatch, "2026-12-03")


def offline_game() -> dict[str, Any]:
    actions = whole_game(GameState.new(Difficulty.PEACEFUL, 5))
    return {
        "id": "typed-game",
        "difficulty": "peaceful",
        "seed": 5,
        "mode": "normal",
        "daily_date": None,
        "actions": [action_to_json(a) for a in actions[:4]],
    }


#: Values of :data:`VALUES` that a sync's field holds besides the good one: an id may be
#: any short word, a day may be none, a log may be empty (a game not yet rolled).
ALSO_VALID: list[tuple[str, Any]] = [("id", "x"), ("daily_date", None), ("actions", [])]


def valid(field: str, value: Any, good: Any) -> bool:
    """Whether ``value`` is one the field holds: the good one itself, or one of
    :data:`ALSO_VALID`."""
    same = value == good and type(value) is type(good)
    return same or any(f == field and v == value and type(v) is type(value) for f, v in ALSO_VALID)


@pytest.mark.parametrize("field", sorted(offline_game()))
def test_a_sync_field_of_any_other_type_is_422(client: TestClient, field: str) -> None:
    good = offline_game()
    for value in VALUES:
        answer = client.post("/api/games/sync", json={**good, field: value})
        if valid(field, value, good[field]):
            assert answer.status_code == 200, (field, value, answer.text)
            continue
        assert answer.status_code == 422, (field, value, answer.text)
        assert answer.json()["error"]["code"] in {"malformed", "sync_invalid"}
    assert client.post("/api/games/sync", json=good).status_code == 200
    assert client.get("/api/games/typed-game/log").json()["actions"] == good["actions"]


def test_a_sync_of_a_day_after_today_is_422_naming_the_field(
    client: TestClient, clock: Clock
) -> None:
    for day in ("2026-12-04", "9999-12-31"):
        body = {**offline_game(), "id": "tomorrow", "mode": "practice", "daily_date": day}
        answer = client.post("/api/games/sync", json=body)
        assert answer.status_code == 422, answer.text
        assert answer.json()["error"]["code"] == "sync_invalid"
        assert answer.json()["error"]["field"] == "daily_date"
    assert client.get("/api/games/tomorrow/log").status_code == 404


@pytest.mark.parametrize("field", sorted(game_entry()))
def test_an_import_game_field_of_any_other_type_is_422(
    client: TestClient, clock: Clock, field: str
) -> None:
    good = game_entry()
    for value in VALUES:
        entry = {**good, field: value}
        answer = client.post("/api/player/import", json=document([entry]))
        assert answer.status_code != 500, (field, value, answer.text)
        if valid(field, value, good[field]):
            continue
        assert answer.status_code == 422 or (field in ("daily_date", "score") and value is None)
    exported = client.get("/api/player/export").json()
    assert len(exported["games"]) <= 1  # only the unchanged game was ever kept


@pytest.mark.parametrize("field", ["format", "version", "player", "games"])
def test_an_import_document_field_of_any_other_type_is_422(
    client: TestClient, clock: Clock, field: str
) -> None:
    good = document([game_entry()])
    for value in VALUES:
        answer = client.post("/api/player/import", json={**good, field: value})
        assert answer.status_code != 500, (field, value, answer.text)
        if not valid(field, value, good[field]) and not (field == "games" and value == []):
            assert answer.status_code == 422, (field, value, answer.text)
    for value in VALUES:  # the time of the export is told, never checked
        answer = client.post("/api/player/import", json={**good, "exported_at": value})
        assert answer.status_code in {200, 422}, (value, answer.text)
    for key in ("language", "name"):
        for value in VALUES:
            player = {**good["player"], key: value}
            answer = client.post("/api/player/import", json={**good, "player": player})
            assert answer.status_code != 500, (key, value, answer.text)
