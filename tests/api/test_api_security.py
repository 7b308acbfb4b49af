"""The security headers on every answer, the page's CSP, the cookie's
``Secure`` and https URLs behind a trusted proxy only, and the API docs off unless asked for."""

from __future__ import annotations

import base64
import hashlib
import json
from typing import TYPE_CHECKING

import pytest
from fastapi.testclient import TestClient

from edge_helpers import SECURITY_HEADERS, EdgeServers, error_code, request
from magdagdon.api.app import create_app
from magdagdon.api.edge.security import DOCS_POLICY, inline_script_sources, page_policy
from magdagdon.api.page.static import WEB_DIR
from magdagdon.settings import Settings

if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path

    import httpx2

EXPECTED = {
    "x-content-type-options": "nosniff",
    "x-frame-options": "DENY",
    "referrer-policy": "no-referrer",
    "cross-origin-opener-policy": "same-origin",
}
HSTS = "strict-transport-security"
# a request that makes the player, so that the answer sets its cookie
SETTINGS = json.dumps({"language": "fil"}).encode()
JSON = {"content-type": "application/json"}


@pytest.fixture
def servers(tmp_path: Path) -> Iterator[EdgeServers]:
    with EdgeServers(tmp_path) as started:
        yield started


def assert_secured(response: httpx2.Response, policy: str) -> None:
    for name, value in EXPECTED.items():
        assert response.headers.get_list(name) == [value], (name, response.request.url)
    assert response.headers.get_list("content-security-policy") == [policy]


def test_every_kind_of_answer_carries_the_headers(db_path: Path) -> None:
    policy = page_policy(WEB_DIR)
    app = create_app(db_path, settings=Settings(games_rate="2/minute", max_body_bytes=1024))
    with TestClient(app) as client:
        game = client.post("/api/games", json={"difficulty": "peaceful", "seed": 1}).json()
        page = client.get("/")
        answers = {
            "json": client.get("/api/player"),
            "page": page,
            "static file": client.get("/js/app/app.js"),
            "not modified": client.get("/", headers={"if-none-match": page.headers["etag"]}),
            "static 404": client.get("/js/nothing.js"),
            "api 404": client.get("/api/nothing"),
            "405": client.delete("/api/player"),
            "422": client.post("/api/games", json={"difficulty": "easy"}),
            "409": client.post(f"/api/games/{game['id']}/actions", json={"type": "confirm"}),
            "413": client.post("/api/games", content=b" " * 2000),
            "429": client.post("/api/games", json={"difficulty": "peaceful"}),
        }
    statuses = {kind: response.status_code for kind, response in answers.items()}
    assert statuses == {
        "json": 200,
        "page": 200,
        "static file": 200,
        "not modified": 304,
        "static 404": 404,
        "api 404": 404,
        "405": 405,
        "422": 422,
        "409": 409,
        "413": 413,
        "429": 429,
    }
    for response in answers.values():
        assert_secured(response, policy)
        assert HSTS not in response.headers  # plain HTTP: no HSTS


def test_an_unexpected_failure_is_a_json_500_with_the_headers(db_path: Path) -> None:
    app = create_app(db_path)

    @app.get("/api/broken")
    async def broken() -> None:
        raise RuntimeError("deliberately broken")

    with TestClient(app, raise_server_exceptions=False) as client:
        response = client.get("/api/broken")
    assert response.status_code == 500
    assert error_code(response.content) == "internal_error"
    assert_secured(response, page_policy(WEB_DIR))


def test_the_policy_allows_only_the_servers_own_files_and_no_framing() -> None:
    directives = dict(part.split(" ", 1) for part in page_policy(WEB_DIR).split("; "))
    assert directives["default-src"] == "'self'"
    assert directives["style-src"] == "'self'"
    assert directives["connect-src"] == "'self'"
    assert directives["img-src"] == "'self' data:"
    assert directives["frame-ancestors"] == "'none'"
    assert directives["object-src"] == "'none'"
    assert directives["base-uri"] == "'none'"
    script = directives["script-src"].split()
    assert script[0] == "'self'"
    assert all(source.startswith("'sha256-") for source in script[1:])
    assert "unsafe" not in page_policy(WEB_DIR)


def test_inline_scripts_are_allowed_by_their_hash_and_nothing_else() -> None:
    digest = base64.b64encode(hashlib.sha256(b"alert(1)").digest()).decode()
    assert inline_script_sources("<p>x</p><script>alert(1)</script>") == [f"'sha256-{digest}'"]
    external = '<script src="js/a.js"></script><script type="module" src="b"></script>'
    assert inline_script_sources(external) == []
    # browsers hash the text after turning CRLF into LF
    assert inline_script_sources("<script>a\r\nb</script>") == inline_script_sources(
        "<script>a\nb</script>"
    )
    two = inline_script_sources("<script>one()</script><script> two() </script>")
    assert len(set(two)) == 2


def test_a_page_without_inline_script_gets_script_src_self_alone(tmp_path: Path) -> None:
    (tmp_path / "index.html").write_text('<!doctype html><script src="js/app.js"></script>')
    assert "script-src 'self';" in page_policy(tmp_path)
    assert "script-src 'self';" in page_policy(tmp_path / "absent")


def test_hsts_and_a_secure_cookie_over_https_only(db_path: Path) -> None:
    app = create_app(db_path)
    with TestClient(app, base_url="https://testserver") as secure:
        response = secure.put("/api/player", json={"language": "fil"})
        assert response.headers[HSTS] == f"max-age={365 * 24 * 3600}"
        assert "secure" in attributes(response.headers["set-cookie"])
        assert_secured(response, page_policy(WEB_DIR))
        plain = TestClient(app).put("/api/player", json={"language": "fil"})
    assert HSTS not in plain.headers
    assert "secure" not in attributes(plain.headers["set-cookie"])
    without_hsts = create_app(db_path, settings=Settings(hsts_seconds=0))
    with TestClient(without_hsts, base_url="https://testserver") as secure:
        assert HSTS not in secure.get("/api/player").headers


def attributes(cookie: str) -> list[str]:
    return [part.strip().lower() for part in cookie.split(";")[1:]]


def test_the_api_docs_are_off_unless_asked_for(db_path: Path) -> None:
    with TestClient(create_app(db_path)) as client:
        for path in ("/docs", "/redoc", "/openapi.json", "/docs/oauth2-redirect"):
            response = client.get(path)
            assert response.status_code == 404, path
            assert error_code(response.content) == "not_found"
    with TestClient(create_app(db_path, settings=Settings(api_docs=True))) as client:
        for path in ("/docs", "/redoc"):
            response = client.get(path)
            assert response.status_code == 200
            assert response.headers["content-security-policy"] == DOCS_POLICY
        schema = client.get("/openapi.json").json()
    new_game = schema["paths"]["/api/games"]["post"]["responses"]
    assert {"413", "408", "429"} <= set(new_game)
    assert "429" in schema["paths"]["/api/games/{game_id}/hint"]["get"]["responses"]
    assert "429" not in schema["paths"]["/api/games/{game_id}/actions"]["post"]["responses"]


def test_behind_a_trusted_proxy_the_cookie_is_secure_and_urls_are_https(
    servers: EdgeServers,
) -> None:
    proxied = servers.start("--forwarded-allow-ips", "127.0.0.1", "--api-docs")
    over_https = {"x-forwarded-proto": "https", "x-forwarded-for": "203.0.113.9"}
    answer = request(proxied, "PUT", "/api/player", SETTINGS, {**JSON, **over_https})
    assert answer.status == 200
    assert "secure" in attributes(answer.cookies[0])
    assert answer.headers[HSTS].startswith("max-age=")
    redirect = request(proxied, "GET", "/api/games/current/", headers=over_https)
    assert redirect.status == 307
    assert redirect.headers["location"].startswith("https://")
    # the proxy's plain-HTTP requests stay plain
    answer = request(proxied, "PUT", "/api/player", SETTINGS, JSON)
    assert "secure" not in attributes(answer.cookies[0])
    assert HSTS not in answer.headers
    assert request(proxied, "GET", "/docs").status == 200  # --api-docs


def test_without_a_trusted_proxy_a_forged_forwarded_proto_changes_nothing(
    servers: EdgeServers,
) -> None:
    direct = servers.start(FORWARDED_ALLOW_IPS="*")  # uvicorn's own variable is not believed
    forged = {"x-forwarded-proto": "https", "x-forwarded-for": "203.0.113.9"}
    answer = request(direct, "PUT", "/api/player", SETTINGS, {**JSON, **forged})
    assert answer.status == 200
    assert "secure" not in attributes(answer.cookies[0])
    assert HSTS not in answer.headers
    assert "server" not in answer.headers  # nor does the server say what it runs
    for name in SECURITY_HEADERS:
        assert name in answer.headers
    redirect = request(direct, "GET", "/api/games/current/", headers=forged)
    assert redirect.headers["location"].startswith("http://")
    assert request(direct, "GET", "/docs").status == 404
    assert json.loads(request(direct, "GET", "/openapi.json").body)["error"]["code"] == "not_found"
