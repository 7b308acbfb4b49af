"""The request limits: body size (413), body and header deadlines (408), header size
(431), and the rate limits on games, hints and device links (429 with Retry-After). The app's
own limits run in-process; the connection's run on a real server over raw sockets."""

from __future__ import annotations

import json
import time
from typing import TYPE_CHECKING

import pytest
from fastapi.testclient import TestClient

from edge_helpers import (
    SECURITY_HEADERS,
    EdgeServers,
    error_code,
    parse_raw,
    raw_connection,
    read_until_closed,
    request,
)
from loop import run_apart
from magdagdon import cli
from magdagdon.api.app import create_app
from magdagdon.api.cookies import COOKIE
from magdagdon.settings import Settings, SettingsError

if TYPE_CHECKING:
    import socket
    from collections.abc import Iterator
    from pathlib import Path

    import httpx2
    from fastapi import FastAPI
    from starlette.types import Message

    from magdagdon.store import Store
    from server_process import ServerProcess

LIMIT = 16 * 1024
NEW_GAME = {"difficulty": "peaceful", "seed": 3}
POST_GAME = b"POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"


@pytest.fixture
def servers(tmp_path: Path) -> Iterator[EdgeServers]:
    with EdgeServers(tmp_path) as started:
        yield started


def padded_new_game(size: int) -> bytes:
    """A valid new-game body of exactly ``size`` bytes (JSON allows trailing blanks)."""
    body = json.dumps(NEW_GAME).encode()
    return body + b" " * (size - len(body))


def answer_of(sock: socket.socket) -> tuple[int, dict[str, str], bytes, float]:
    """The one answer the server sends before it closes the connection: status, headers, body,
    and when it closed (``time.monotonic()``)."""
    received, closed = read_until_closed(sock)
    sock.close()
    return (*parse_raw(received), closed)


def limited_app(db_path: Path, **settings: object) -> FastAPI:
    return create_app(db_path, settings=Settings(**settings))  # type: ignore[arg-type]


def post_json(client: TestClient, path: str, body: bytes) -> tuple[int, dict[str, str], bytes]:
    response = client.post(path, content=body, headers={"content-type": "application/json"})
    return response.status_code, dict(response.headers), response.content


# ---- body size -----------------------------------------------------------------------------


def test_a_16_kb_body_passes_and_one_byte_more_answers_413(client: TestClient) -> None:
    status, _, _ = post_json(client, "/api/games", padded_new_game(LIMIT))
    assert status == 201
    current = client.get("/api/games/current").json()
    status, headers, body = post_json(client, "/api/games", padded_new_game(LIMIT + 1))
    assert status == 413
    assert error_code(body) == "body_too_large"
    assert headers["connection"] == "close"
    assert client.get("/api/games/current").json() == current  # no game was started


def test_a_chunked_body_is_read_only_to_one_byte_past_the_limit(store: Store) -> None:
    """Driven as uvicorn drives the app (TestClient would read the whole body first): 1 KB
    chunks of a 1 MB body, counted as the app pulls them."""
    app = create_app(store)
    pulled = 0
    sent: list[Message] = []

    async def receive() -> Message:
        nonlocal pulled
        pulled += 1
        return {"type": "http.request", "body": b" " * 1024, "more_body": pulled < 1024}

    async def send(message: Message) -> None:
        sent.append(message)

    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": "/api/games",
        "raw_path": b"/api/games",
        "query_string": b"",
        "root_path": "",
        "headers": [(b"host", b"x"), (b"transfer-encoding", b"chunked")],
        "client": ("203.0.113.1", 1000),
        "server": ("x", 80),
    }
    run_apart(app(scope, receive, send))
    assert sent[0]["status"] == 413
    assert error_code(sent[1]["body"]) == "body_too_large"
    assert pulled == LIMIT // 1024 + 1  # 16 chunks fill the limit, the 17th passes it


def test_a_chunked_body_over_the_limit_answers_413_on_a_real_server(
    servers: EdgeServers,
) -> None:
    server = servers.start()
    sock = raw_connection(server)
    sock.sendall(POST_GAME + b"Transfer-Encoding: chunked\r\n\r\n")
    for _ in range(17):
        sock.sendall(b"400\r\n" + b" " * 1024 + b"\r\n")
    status, _, body, _ = answer_of(sock)
    assert status == 413
    assert error_code(body) == "body_too_large"


def test_the_body_limit_is_a_setting(db_path: Path) -> None:
    with TestClient(limited_app(db_path, max_body_bytes=64)) as client:
        assert post_json(client, "/api/games", padded_new_game(64))[0] == 201
        assert post_json(client, "/api/games", padded_new_game(65))[0] == 413


def test_a_declared_length_over_the_limit_answers_before_any_byte_is_sent(
    servers: EdgeServers,
) -> None:
    server = servers.start()
    sock = raw_connection(server)
    sock.sendall(POST_GAME + b"Content-Length: 50000000\r\nExpect: 100-continue\r\n\r\n")
    answer, _ = read_until_closed(sock)  # the 50 MB never come: the server must not wait
    sock.close()
    assert not answer.startswith(b"HTTP/1.1 100")  # no invitation to send the body
    status, headers, body = parse_raw(answer)
    assert status == 413
    assert error_code(body) == "body_too_large"
    assert headers["connection"] == "close"
    assert all(name in headers for name in SECURITY_HEADERS)


# ---- deadlines and header size, on a real server -------------------------------------------


def test_a_slow_body_answers_408_at_its_deadline(servers: EdgeServers) -> None:
    server = servers.start(MAGDAGDON_BODY_TIMEOUT="1")
    sock = raw_connection(server)
    sock.sendall(POST_GAME + b'Content-Length: 100\r\n\r\n{"difficulty"')
    sent = time.monotonic()
    status, headers, body, closed = answer_of(sock)
    assert status == 408
    assert error_code(body) == "request_timeout"
    assert headers["connection"] == "close"
    assert 0.9 <= closed - sent < 5


def test_slow_headers_are_cut_off_while_other_clients_are_served(servers: EdgeServers) -> None:
    server = servers.start(MAGDAGDON_HEADER_TIMEOUT="1")
    opened = time.monotonic()
    slow = [raw_connection(server) for _ in range(20)]
    for sock in slow[:10]:
        sock.sendall(b"GET /api/pla")  # half a request line, and then nothing
    for sock in slow[10:15]:
        sock.sendall(b"GET /api/player HTTP/1.1\r\nHost: x\r\nX-Slow: a")  # half the headers
    # slow[15:] send nothing at all
    answer = request(server, "GET", "/api/player")  # meanwhile, another player is served
    assert answer.status == 200
    for sock in slow:
        status, headers, body, closed = answer_of(sock)
        assert status == 408
        assert error_code(body) == "request_timeout"
        assert headers["x-content-type-options"] == "nosniff"
        assert 0.9 <= closed - opened < 5


def test_a_kept_alive_connection_gets_the_same_deadline_for_its_next_request(
    servers: EdgeServers,
) -> None:
    server = servers.start(MAGDAGDON_HEADER_TIMEOUT="1")
    sock = raw_connection(server)
    sock.sendall(b"GET /api/player HTTP/1.1\r\nHost: x\r\n\r\n")
    first = b""
    while b'{"language"' not in first:
        first += sock.recv(65536)
    sock.sendall(b"GET /api/pl")  # the next request starts, and stalls
    started = time.monotonic()
    status, _, _, closed = answer_of(sock)
    assert status == 408
    assert 0.9 <= closed - started < 5


def test_headers_over_the_size_answer_431_and_bytes_that_are_not_http_get_uvicorns_400(
    servers: EdgeServers,
) -> None:
    server = servers.start()
    sock = raw_connection(server)
    sock.sendall(b"GET /api/player HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 20_000 + b"\r\n\r\n")
    status, headers, body, _ = answer_of(sock)
    assert status == 431
    assert error_code(body) == "headers_too_large"
    assert headers["content-type"] == "application/json"
    sock = raw_connection(server)
    sock.sendall(b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03 not http\r\n\r\n")
    status, headers, body, _ = answer_of(sock)
    assert status == 400
    assert headers["content-type"] == "text/plain; charset=utf-8"
    assert body == b"Invalid HTTP request received."
    assert request(server, "GET", "/api/player").status == 200  # the server is fine


# ---- rate limits -----------------------------------------------------------------------------


def assert_rate_limited(response: httpx2.Response, window: int = 60) -> None:
    assert response.status_code == 429, response.text
    assert error_code(response.content) == "rate_limited"
    assert 1 <= int(response.headers["retry-after"]) <= window
    assert "set-cookie" not in response.headers  # no player was made for it


def test_game_creation_is_limited_per_player_from_any_address(db_path: Path) -> None:
    app = limited_app(db_path, games_rate="3/minute", games_rate_per_address="off")
    with TestClient(app, client=("203.0.113.1", 1000)) as first:
        first.put("/api/player", json={"language": "fil"})  # the player, before its games
        for _ in range(3):
            assert first.post("/api/games", json=NEW_GAME).status_code == 201
        current = first.get("/api/games/current").json()
        token = first.cookies[COOKIE]
        elsewhere = TestClient(app, client=("198.51.100.7", 1000), cookies={COOKIE: token})
        assert_rate_limited(elsewhere.post("/api/games", json=NEW_GAME))
        assert_rate_limited(first.post("/api/games", json=NEW_GAME))
        assert first.get("/api/games/current").json() == current  # nothing was abandoned
        assert TestClient(app).post("/api/games", json=NEW_GAME).status_code == 201  # others can


def test_game_creation_is_limited_per_address_for_any_cookie(db_path: Path) -> None:
    app = limited_app(db_path, games_rate="off", games_rate_per_address="3/minute")
    with TestClient(app, client=("203.0.113.1", 1000)):
        for _ in range(3):  # three browsers without a cookie behind one address
            fresh = TestClient(app, client=("203.0.113.1", 2000))
            assert fresh.post("/api/games", json=NEW_GAME).status_code == 201
        assert_rate_limited(TestClient(app, client=("203.0.113.1", 3000)).post("/api/games"))
        forged = TestClient(app, client=("203.0.113.1", 3000), cookies={COOKIE: "x" * 43})
        assert_rate_limited(forged.post("/api/games", json=NEW_GAME))
        other = TestClient(app, client=("203.0.113.2", 1000))
        assert other.post("/api/games", json=NEW_GAME).status_code == 201


def test_ipv6_clients_count_by_their_64_and_mapped_ipv4_by_the_ipv4(db_path: Path) -> None:
    app = limited_app(db_path, games_rate="off", games_rate_per_address="1/minute")
    with TestClient(app, client=("2001:db8:1:2::1", 1000)) as first:
        assert first.post("/api/games", json=NEW_GAME).status_code == 201
        same_64 = TestClient(app, client=("2001:db8:1:2:ffff::9", 1000))
        assert_rate_limited(same_64.post("/api/games", json=NEW_GAME))
        other_64 = TestClient(app, client=("2001:db8:1:3::1", 1000))
        assert other_64.post("/api/games", json=NEW_GAME).status_code == 201
        # an IPv4 client of a dual-stack socket is its IPv4 address (not one /64 for them all)
        mapped = TestClient(app, client=("::ffff:192.0.2.1", 1000))
        assert mapped.post("/api/games", json=NEW_GAME).status_code == 201
        assert_rate_limited(TestClient(app, client=("192.0.2.1", 1)).post("/api/games"))
        other_ipv4 = TestClient(app, client=("::ffff:192.0.2.2", 1000))
        assert other_ipv4.post("/api/games", json=NEW_GAME).status_code == 201


def test_daily_challenges_and_imports_count_as_starting_games(db_path: Path) -> None:
    app = limited_app(db_path, games_rate="2/minute", games_rate_per_address="off")
    with TestClient(app) as client:
        client.put("/api/player", json={"language": "fil"})
        assert client.post("/api/games", json=NEW_GAME).status_code == 201
        assert client.post("/api/daily", json={"difficulty": "peaceful"}).status_code != 429
        assert_rate_limited(client.post("/api/player/import", json={}))
        assert_rate_limited(client.post("/api/games", json=NEW_GAME))


def test_a_sync_counts_as_starting_a_game(db_path: Path) -> None:
    app = limited_app(db_path, games_rate="2/minute", games_rate_per_address="off")
    sent = {
        "id": "synced-1",
        "difficulty": "peaceful",
        "seed": 1,
        "mode": "normal",
        "daily_date": None,
        "actions": [],
    }
    with TestClient(app) as client:
        client.put("/api/player", json={"language": "fil"})
        assert client.post("/api/games/sync", json=sent).status_code == 200
        assert client.post("/api/games", json=NEW_GAME).status_code == 201
        assert_rate_limited(client.post("/api/games/sync", json={**sent, "id": "synced-2"}))
        assert client.get("/api/games/synced-2/log").status_code == 404  # nothing was made


def test_hints_are_limited_but_playing_is_not(db_path: Path) -> None:
    app = limited_app(db_path, hints_rate="3/minute", hints_rate_per_address="off")
    with TestClient(app) as client:
        game = client.post("/api/games", json=NEW_GAME).json()
        client.post(f"/api/games/{game['id']}/actions", json={"type": "roll"})
        hint = f"/api/games/{game['id']}/hint"
        for _ in range(3):
            assert client.get(hint).status_code == 200
        assert_rate_limited(client.get(hint))
        # playing is never limited
        actions = f"/api/games/{game['id']}/actions"
        for _ in range(20):
            assert client.post(actions, json={"type": "roll"}).status_code == 409


def test_device_links_are_limited_per_address(db_path: Path) -> None:
    app = limited_app(db_path, links_rate="off", links_rate_per_address="2/minute")
    with TestClient(app) as client:
        assert client.post("/api/player/link").status_code == 201
        assert client.post("/api/player/link/GUESS1").status_code == 404  # link_invalid
        assert_rate_limited(TestClient(app).post("/api/player/link/GUESS2"))
        assert client.get("/api/player").status_code == 200  # other routes are not limited


def test_retry_after_tells_when_the_window_opens_again(db_path: Path) -> None:
    app = limited_app(db_path, games_rate="off", games_rate_per_address="2/second")
    with TestClient(app) as client:
        assert client.post("/api/games", json=NEW_GAME).status_code == 201
        assert client.post("/api/games", json=NEW_GAME).status_code == 201
        refused = client.post("/api/games", json=NEW_GAME)
        assert_rate_limited(refused, window=1)
        time.sleep(float(refused.headers["retry-after"]) + 0.1)
        assert client.post("/api/games", json=NEW_GAME).status_code == 201


def test_rate_limits_can_be_turned_off(db_path: Path) -> None:
    app = limited_app(db_path, rate_limits=False, games_rate="1/minute")
    with TestClient(app) as client:
        for _ in range(5):
            assert client.post("/api/games", json=NEW_GAME).status_code == 201


def test_a_forwarded_address_counts_only_from_a_trusted_proxy(servers: EdgeServers) -> None:
    env = {"MAGDAGDON_GAMES_RATE": "off", "MAGDAGDON_GAMES_RATE_PER_ADDRESS": "2/minute"}
    body = json.dumps(NEW_GAME).encode()
    json_type = {"content-type": "application/json"}

    def start_game(server: ServerProcess, client_address: str) -> int:
        headers = {**json_type, "x-forwarded-for": client_address}
        return request(server, "POST", "/api/games", body, headers).status

    proxied = servers.start("--forwarded-allow-ips", "127.0.0.1", **env)
    assert [start_game(proxied, "203.0.113.1") for _ in range(3)] == [201, 201, 429]
    assert start_game(proxied, "203.0.113.2") == 201  # another client behind the proxy
    # without the flag, the header is anyone's to forge: it changes nothing (nor does
    # uvicorn's own FORWARDED_ALLOW_IPS variable)
    direct = servers.start(FORWARDED_ALLOW_IPS="*", **env)
    statuses = [start_game(direct, f"203.0.113.{n}") for n in range(1, 4)]
    assert statuses == [201, 201, 429]


# ---- settings --------------------------------------------------------------------------------


def test_settings_come_from_the_environment_and_bad_ones_are_named() -> None:
    settings = Settings.from_env(
        {
            "MAGDAGDON_MAX_BODY_BYTES": "2048",
            "MAGDAGDON_HEADER_TIMEOUT": "2.5",
            "MAGDAGDON_RATE_LIMITS": "off",
            "MAGDAGDON_HINTS_RATE": "5/minute;50/hour",
            "MAGDAGDON_API_DOCS": "yes",
            "MAGDAGDON_THREADS": "12",
            "OTHER": "ignored",
        },
        forwarded_allow_ips="10.0.0.1",
        api_docs=None,  # a flag not given leaves the variable's value
    )
    assert settings == Settings(
        max_body_bytes=2048,
        header_timeout=2.5,
        rate_limits=False,
        hints_rate="5/minute;50/hour",
        api_docs=True,
        threads=12,
        forwarded_allow_ips="10.0.0.1",
    )
    bad = {
        "MAGDAGDON_BODY_TIMEOUT": "soon",
        "MAGDAGDON_HEADER_TIMEOUT": "0",
        "MAGDAGDON_MAX_BODY_BYTES": "-1",
        "MAGDAGDON_GAMES_RATE": "lots",
        "MAGDAGDON_API_DOCS": "maybe",
        "MAGDAGDON_THREADS": "0",
    }
    for name, value in bad.items():
        with pytest.raises(SettingsError, match=name):
            Settings.from_env({name: value})


def test_serve_refuses_a_bad_setting_before_listening(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("MAGDAGDON_LINKS_RATE", "10 a minute")
    assert cli.main(["serve", "--port", "0", "--no-browser"]) == 2
    assert "MAGDAGDON_LINKS_RATE" in capsys.readouterr().err
