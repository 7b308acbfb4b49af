"""A request that creates nothing creates no player (and sets no cookie); the
first request that creates something makes the player, with what it creates."""

from __future__ import annotations

from typing import TYPE_CHECKING

from sqlalchemy import func, select

from magdagdon.api.cookies import COOKIE
from magdagdon.store.tables import players

if TYPE_CHECKING:
    from fastapi.testclient import TestClient

    from magdagdon.store import Store

READS = [
    ("GET", "/"),
    ("GET", "/api/player"),
    ("GET", "/api/games/current"),
    ("GET", "/api/games/0123456789abcdef"),
    ("GET", "/api/games/0123456789abcdef/hint"),
    ("POST", "/api/games/0123456789abcdef/actions"),
    ("GET", "/api/highscores?difficulty=peaceful"),
    ("GET", "/api/highscores?difficulty=nope"),
    ("GET", "/api/health"),
    ("GET", "/api/daily"),
    ("GET", "/api/daily/table?difficulty=peaceful"),
    ("GET", "/api/stats?difficulty=peaceful"),
    ("GET", "/api/player/export"),
    ("GET", "/api/games/0123456789abcdef/review"),
    ("GET", "/api/games/0123456789abcdef/share"),
    ("PUT", "/api/player"),
    ("GET", "/api/nothing-here"),
    ("DELETE", "/api/player"),
]


def player_count(client: TestClient) -> int:
    store: Store = client.app.state.store  # type: ignore[attr-defined]
    with store.engine.connect() as conn:
        return int(conn.execute(select(func.count()).select_from(players)).scalar_one())


def test_requests_that_create_nothing_create_no_player(client: TestClient) -> None:
    before = player_count(client)
    for cookie in (None, "forged-token-that-names-nobody"):
        for _ in range(5):
            for method, path in READS:
                if cookie:
                    client.cookies.set(COOKIE, cookie)
                body = {"type": "roll"} if method == "POST" else None
                response = client.request(method, path, json=body)
                assert response.status_code < 500, (method, path, response.text)
                assert "set-cookie" not in response.headers, (method, path)
            client.cookies.clear()
    assert player_count(client) == before
    assert client.get("/api/player").json() == {
        "language": "fil",
        "name": None,
        "tag": None,
        "name_max": 20,
        "name_hidden": False,
    }
    assert client.get("/api/highscores?difficulty=peaceful").json() == []
    assert client.get("/api/games/current").status_code == 404


def test_the_first_game_makes_the_player_and_the_next_ones_do_not(client: TestClient) -> None:
    before = player_count(client)
    first = client.post("/api/games", json={"difficulty": "peaceful"})
    assert first.status_code == 201
    assert COOKIE in first.cookies
    assert player_count(client) == before + 1
    second = client.post("/api/games", json={"difficulty": "survival"})
    assert "set-cookie" not in second.headers
    assert client.get("/api/games/current").json()["id"] == second.json()["id"]
    assert player_count(client) == before + 1


def test_a_settings_change_makes_the_player_with_that_setting(client: TestClient) -> None:
    before = player_count(client)
    response = client.put("/api/player", json={"language": "en"})
    assert response.json()["language"] == "en"
    assert COOKIE in response.cookies
    assert player_count(client) == before + 1
    assert client.get("/api/player").json() == response.json()


def test_a_refused_request_makes_no_player(client: TestClient) -> None:
    before = player_count(client)
    assert client.post("/api/games", json={"difficulty": "impossible"}).status_code == 422
    assert client.put("/api/player", json={"language": "de"}).status_code == 422
    refused = client.put("/api/player", json={"name": "M" * 21})
    assert (refused.status_code, refused.json()["error"]["code"]) == (422, "invalid_name")
    assert "set-cookie" not in refused.headers
    assert player_count(client) == before
