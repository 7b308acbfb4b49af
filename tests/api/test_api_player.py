"""``/api/player``: the language, remembered by cookie, across restarts of the server."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from magdagdon.api.app import create_app
from magdagdon.api.cookies import COOKIE


def test_language_defaults_to_filipino_and_is_remembered(
    client: TestClient, other_client: TestClient
) -> None:
    assert client.get("/api/player").json()["language"] == "fil"
    response = client.put("/api/player", json={"language": "en"})
    assert response.status_code == 200
    assert response.json()["language"] == "en"
    assert client.get("/api/player").json()["language"] == "en"
    assert other_client.get("/api/player").json()["language"] == "fil"
    assert client.put("/api/player", json={"language": "fil"}).json()["language"] == "fil"


@pytest.mark.parametrize(
    "body", [{}, {"language": "de"}, {"language": "EN"}, {"language": None}, ["en"], "en"]
)
def test_bad_settings_are_422(client: TestClient, body: object) -> None:
    client.put("/api/player", json={"language": "en"})
    response = client.put("/api/player", json=body)
    assert response.status_code == 422
    assert response.json()["error"]["code"] == "malformed"
    assert client.get("/api/player").json()["language"] == "en"


def test_the_player_survives_a_restart(db_url: str) -> None:
    with TestClient(create_app(db_url)) as first:
        first.put("/api/player", json={"language": "en"})
        game = first.post("/api/games", json={"difficulty": "peaceful", "seed": 4}).json()
        token = first.cookies[COOKIE]
    with TestClient(create_app(db_url)) as second:
        second.cookies.set(COOKIE, token)
        assert second.get("/api/player").json()["language"] == "en"
        assert second.get("/api/games/current").json() == game
