"""Requests from other sites change nothing: every route that can change something (found in
the app's own routes, so a new one cannot be missed) answers 403 ``cross_site`` to a request
that ``Sec-Fetch-Site`` or ``Origin`` says came from another site, before its body, its rate or
the app; the player's games, settings and cookie stay as they were, and no answer sets a cookie.
The same requests from the game's own origin work."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import pytest
from fastapi.testclient import TestClient

from edge_helpers import EdgeServers, error_code, request
from magdagdon.api.app import create_app
from magdagdon.api.cookies import COOKIE
from magdagdon.api.edge.cross_site import SAFE_METHODS, parse_origin
from magdagdon.settings import Settings

if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path

    import httpx2
    from fastapi import FastAPI

OWN = "http://testserver"  # the TestClient's origin
HOSTILE = {
    "Sec-Fetch-Site: cross-site": {"sec-fetch-site": "cross-site"},
    "Sec-Fetch-Site: same-site": {"sec-fetch-site": "same-site", "origin": "http://testserver:81"},
    "Origin: https://evil.example": {"origin": "https://evil.example"},
    "Origin: null": {"origin": "null"},
    "Origin: another port": {"origin": "http://testserver:8080"},
    "Origin: another scheme": {"origin": "https://testserver"},
    "cross-site, with our own Origin": {"sec-fetch-site": "cross-site", "origin": OWN},
}
FRIENDLY = {
    "Sec-Fetch-Site: same-origin": {"sec-fetch-site": "same-origin", "origin": OWN},
    "Sec-Fetch-Site: none": {"sec-fetch-site": "none"},
    "Origin alone, our own": {"origin": OWN},
    "neither header": {},
}


class Scene:
    """A visitor with a game under way and settings of their own, and another player's export
    and device link: everything another site's page could want to change."""

    def __init__(self, visitor: TestClient, other: TestClient) -> None:
        self.visitor = visitor
        game = visitor.post("/api/games", json={"difficulty": "peaceful", "seed": 3}).json()
        assert visitor.put("/api/player", json={"language": "en"}).status_code == 200
        self.game_id: str = game["id"]
        other.post("/api/games", json={"difficulty": "survival", "seed": 4})
        self.other_export = other.get("/api/player/export").json()
        self.code: str = other.post("/api/player/link").json()["code"]

    def path_and_body(self, path: str) -> tuple[str, Any]:
        """A request of each state-changing route that, from the page, would change something."""
        bodies = self.bodies()
        assert path in bodies, f"{path} changes something: give it a request here"
        return path.format(game_id=self.game_id, code=self.code), bodies[path]

    def bodies(self) -> dict[str, Any]:
        """Each state-changing route's body, in an order that the page could send them in."""
        return {
            "/api/games/{game_id}/actions": {"type": "roll"},
            "/api/player": {"language": "fil"},
            "/api/player/import": self.other_export,
            # a game played offline: a new one, stored and made the game under way
            "/api/games/sync": {
                "id": "o-cross-site",
                "difficulty": "peaceful",
                "seed": 5,
                "mode": "normal",
                "daily_date": None,
                "actions": [{"type": "roll"}],
            },
            "/api/daily": {"difficulty": "peaceful"},
            "/api/games": {"difficulty": "nightmare"},  # abandons the game under way
            "/api/player/link": None,
            "/api/player/link/{code}": None,  # the other player's code: the visitor becomes them
            "/api/player/leave": None,
        }

    def in_order(self, routes: list[tuple[str, str]]) -> list[tuple[str, str]]:
        order = list(self.bodies())
        return sorted(routes, key=lambda route: order.index(route[1]) if route[1] in order else -1)

    def snapshot(self) -> dict[str, Any]:
        """The visitor's whole player as the API tells it (the export has every game)."""
        export = self.visitor.get("/api/player/export").json()
        current = self.visitor.get("/api/games/current").json()
        return {
            "cookie": self.visitor.cookies.get(COOKIE),
            "player": export["player"],
            "games": export["games"],
            "current": current,
        }


def state_changing(app: FastAPI) -> list[tuple[str, str]]:
    """(method, path) of every operation of the app that can change something."""
    paths = app.openapi()["paths"]
    found = [
        (method.upper(), path)
        for path, operations in paths.items()
        for method in operations
        if method.upper() not in SAFE_METHODS
    ]
    return sorted(found)


@pytest.fixture
def scene(client: TestClient, other_client: TestClient) -> Scene:
    return Scene(client, other_client)


def send(client: TestClient, method: str, path: str, body: Any, headers: dict[str, str]) -> Any:
    return client.request(method, path, json=body, headers=headers)


def assert_refused(response: httpx2.Response) -> None:
    assert response.status_code == 403, response.text
    assert error_code(response.content) == "cross_site"
    assert "set-cookie" not in response.headers


@pytest.mark.parametrize("hostile", list(HOSTILE))
def test_every_state_changing_route_refuses_another_site_and_changes_nothing(
    app: FastAPI, scene: Scene, hostile: str
) -> None:
    routes = state_changing(app)
    assert ("POST", "/api/player/leave") in routes
    before = scene.snapshot()
    for method, template in routes:
        path, body = scene.path_and_body(template)
        assert_refused(send(scene.visitor, method, path, body, HOSTILE[hostile]))
    assert scene.snapshot() == before
    # the other player's link was not spent: it still makes a device that player
    assert scene.visitor.post(f"/api/player/link/{scene.code}").status_code == 200


@pytest.mark.parametrize("friendly", list(FRIENDLY))
def test_the_same_requests_from_the_game_itself_work(
    app: FastAPI, scene: Scene, friendly: str
) -> None:
    for method, template in scene.in_order(state_changing(app)):
        path, body = scene.path_and_body(template)
        response = send(scene.visitor, method, path, body, FRIENDLY[friendly])
        assert response.status_code in (200, 201, 204), (method, path, response.text)
    assert COOKIE not in scene.visitor.cookies  # the last one, leave, cleared it


def test_reads_from_another_site_are_answered(scene: Scene) -> None:
    """GET changes nothing, so another site may send one (the browser keeps the answer from it)."""
    cross = HOSTILE["Origin: https://evil.example"]
    assert scene.visitor.get("/api/games/current", headers=cross).status_code == 200
    assert scene.visitor.get("/", headers=cross).status_code == 200


def test_a_refusal_comes_before_the_body_limit_and_spends_no_rate(db_path: Path) -> None:
    settings = Settings(
        links_rate="1/minute", links_rate_per_address="1/minute", max_body_bytes=1024
    )
    cross = HOSTILE["Sec-Fetch-Site: cross-site"]
    with TestClient(create_app(db_path, settings=settings)) as client:
        over = client.post("/api/games", content=b" " * 4096, headers=cross)
        assert_refused(over)
        assert over.headers["connection"] == "close"  # its body was never read
        for _ in range(3):
            assert_refused(client.post("/api/player/link", headers=cross))
        assert client.post("/api/player/link").status_code == 201


def test_the_refusal_is_in_the_api_documents(db_path: Path) -> None:
    app = create_app(db_path, settings=Settings(api_docs=True))
    paths = app.openapi()["paths"]
    assert "403" in paths["/api/player/leave"]["post"]["responses"]
    assert "403" in paths["/api/player"]["put"]["responses"]
    assert "403" not in paths["/api/player"]["get"]["responses"]


@pytest.mark.parametrize(
    ("text", "parsed"),
    [
        ("http://127.0.0.1:8765", ("http", "127.0.0.1", 8765)),
        ("https://Play.Example.org", ("https", "play.example.org", 443)),
        ("http://[::1]:8000", ("http", "::1", 8000)),
        ("null", None),
        ("http://", None),
        ("http://host:port", None),
        ("http://host/path", None),
        ("chrome-extension://abc", None),
    ],
)
def test_origins_are_parsed_with_their_default_ports(
    text: str, parsed: tuple[str, str, int] | None
) -> None:
    assert parse_origin(text) == parsed


@pytest.fixture
def servers(tmp_path: Path) -> Iterator[EdgeServers]:
    with EdgeServers(tmp_path) as started:
        yield started


def leave(server: Any, headers: dict[str, str]) -> int:
    answer = request(server, "POST", "/api/player/leave", None, headers)
    if answer.status == 403:
        assert error_code(answer.body) == "cross_site"
        assert answer.cookies == []
    return answer.status


def test_behind_a_trusted_proxy_the_forwarded_origin_is_compared(servers: EdgeServers) -> None:
    """The scheme the proxy forwards (X-Forwarded-Proto) and the Host it passes on make the
    origin; a forged X-Forwarded-Proto from anyone else does not."""
    proxied = servers.start("--forwarded-allow-ips", "127.0.0.1")
    https = {"x-forwarded-proto": "https", "x-forwarded-for": "203.0.113.9"}
    direct = f"http://127.0.0.1:{proxied.port}"
    assert leave(proxied, {**https, "origin": f"https://127.0.0.1:{proxied.port}"}) == 204
    assert leave(proxied, {**https, "origin": direct}) == 403  # http is another origin
    named = {**https, "host": "play.example.org"}
    assert leave(proxied, {**named, "origin": "https://play.example.org"}) == 204
    assert leave(proxied, {**named, "origin": "https://play.example.org:8443"}) == 403
    assert leave(proxied, {**named, "origin": "https://evil.example"}) == 403
    plain = servers.start()
    forged = {**https, "origin": f"https://127.0.0.1:{plain.port}"}
    assert leave(plain, forged) == 403
    assert leave(plain, {**https, "origin": f"http://127.0.0.1:{plain.port}"}) == 204


def test_a_refused_import_body_is_not_read(servers: EdgeServers) -> None:
    server = servers.start()
    body = json.dumps({"format": "magdagdon-export"}).encode() * 1000
    answer = request(
        server,
        "POST",
        "/api/player/import",
        body,
        {"content-type": "application/json", "sec-fetch-site": "cross-site"},
    )
    assert answer.status == 403
    assert answer.headers["connection"] == "close"
    assert answer.headers["x-content-type-options"] == "nosniff"  # the edge's headers too
