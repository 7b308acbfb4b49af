"""docs/hosting/nginx.conf, as committed, in a real nginx with a self-signed certificate in front
of a real ``magdagdon serve --forwarded-allow-ips 127.0.0.1``; everything on 127.0.0.1.

nginx and openssl come from Debian (``make hosting``, run by ``make test``); this test installs
nothing. nginx runs from a temporary prefix, in the foreground, logging there.
"""

from __future__ import annotations

import http.client
import json
import re
import shutil
import signal
import socket
import ssl
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from edge_helpers import SECURITY_HEADERS, Answer, EdgeServers, error_code
from waits import EVENTUALLY

if TYPE_CHECKING:
    from collections.abc import Iterator, Mapping

SITE = Path(__file__).resolve().parents[2] / "docs" / "hosting" / "nginx.conf"
START_TIMEOUT = EVENTUALLY
SERIOUS = re.compile(r"\[(crit|alert|emerg)\]")
MAIN = """
daemon off;
worker_processes 1;
pid {prefix}/nginx.pid;
error_log {prefix}/error.log info;
events {{ worker_connections 128; }}
http {{
    access_log off;
    # every temporary file in the prefix, and no answer buffered to disk at all
    client_body_temp_path {prefix}/body;
    proxy_temp_path {prefix}/proxy;
    fastcgi_temp_path {prefix}/fastcgi;
    uwsgi_temp_path {prefix}/uwsgi;
    scgi_temp_path {prefix}/scgi;
    proxy_max_temp_file_size 0;
    include {prefix}/magdagdon.conf;
}}
"""


def executable(name: str) -> str:
    found = shutil.which(name) or shutil.which(name, path="/usr/sbin:/usr/bin")
    assert found, f"{name} is not installed: `make hosting` installs Debian's nginx and openssl"
    return found


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def self_signed(directory: Path) -> tuple[Path, Path]:
    cert, key = directory / "cert.pem", directory / "key.pem"
    subprocess.run(
        [
            executable("openssl"),
            "req",
            "-x509",
            "-newkey",
            "ec",
            "-pkeyopt",
            "ec_paramgen_curve:prime256v1",
            "-nodes",
            "-days",
            "2",
            "-subj",
            "/CN=localhost",
            "-addext",
            "subjectAltName=DNS:localhost,IP:127.0.0.1",
            "-keyout",
            str(key),
            "-out",
            str(cert),
        ],
        check=True,
        capture_output=True,
    )
    return cert, key


def site(app_port: int, http_port: int, https_port: int, cert: Path, key: Path) -> str:
    """The committed file with this test's ports, name and certificate; each replaced text must
    still be in it, so the file and this test cannot drift apart."""
    text = SITE.read_text(encoding="utf-8")
    replacements = {
        "server 127.0.0.1:8765;": f"server 127.0.0.1:{app_port};",
        "listen 80;": f"listen 127.0.0.1:{http_port};",
        "listen [::]:80;": "",
        "listen 443 ssl http2;": f"listen 127.0.0.1:{https_port} ssl http2;",
        "listen [::]:443 ssl http2;": "",
        "server_name magdagdon.example.org;": "server_name localhost;",
        "/etc/letsencrypt/live/magdagdon.example.org/fullchain.pem": str(cert),
        "/etc/letsencrypt/live/magdagdon.example.org/privkey.pem": str(key),
    }
    for old, new in replacements.items():
        assert old in text, f"{SITE.name} no longer has {old!r}"
        text = text.replace(old, new)
    return text


@dataclass
class Proxy:
    http_port: int
    https_port: int
    context: ssl.SSLContext

    def https(
        self,
        method: str,
        path: str,
        body: bytes | None = None,
        headers: Mapping[str, str] | None = None,
    ) -> Answer:
        conn = http.client.HTTPSConnection(
            "127.0.0.1", self.https_port, context=self.context, timeout=EVENTUALLY
        )
        return _exchange(conn, method, path, body, headers)

    def http(self, method: str, path: str) -> Answer:
        conn = http.client.HTTPConnection("127.0.0.1", self.http_port, timeout=EVENTUALLY)
        return _exchange(conn, method, path, None, None)


def _exchange(
    conn: http.client.HTTPConnection,
    method: str,
    path: str,
    body: bytes | None,
    headers: Mapping[str, str] | None,
) -> Answer:
    try:
        conn.request(method, path, body=body, headers=dict(headers or {}))
        response = conn.getresponse()
        data = response.read()
        fields = {name.lower(): value for name, value in response.getheaders()}
        return Answer(response.status, fields, data, response.headers.get_all("set-cookie") or [])
    finally:
        conn.close()


def wait_for_port(port: int, process: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise AssertionError(f"nginx exited: {log.read_text(errors='replace')}")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.05)
    raise AssertionError(f"nginx did not listen in time: {log.read_text(errors='replace')}")


@pytest.fixture
def proxy(tmp_path: Path) -> Iterator[Proxy]:
    prefix = tmp_path / "nginx"
    prefix.mkdir()
    cert, key = self_signed(prefix)
    with EdgeServers(tmp_path) as servers:
        app = servers.start(
            "--forwarded-allow-ips",
            "127.0.0.1",
            MAGDAGDON_GAMES_RATE="off",
            MAGDAGDON_GAMES_RATE_PER_ADDRESS="3/minute",
        )
        http_port, https_port = free_port(), free_port()
        (prefix / "magdagdon.conf").write_text(site(app.port, http_port, https_port, cert, key))
        (prefix / "nginx.conf").write_text(MAIN.format(prefix=prefix))
        log = prefix / "error.log"
        command = [executable("nginx"), "-p", str(prefix), "-c", str(prefix / "nginx.conf")]
        nginx = subprocess.Popen([*command, "-e", str(log)], stderr=subprocess.STDOUT)
        try:
            wait_for_port(https_port, nginx, log)
            context = ssl.create_default_context(cafile=str(cert))
            yield Proxy(http_port, https_port, context)
        finally:
            nginx.send_signal(signal.SIGQUIT)  # graceful: finish the answers, then stop
            try:
                nginx.wait(EVENTUALLY)
            except subprocess.TimeoutExpired:
                nginx.kill()
                nginx.wait()
    serious = [line for line in log.read_text().splitlines() if SERIOUS.search(line)]
    assert not serious, serious  # e.g. a temporary file nginx could not write


def test_over_https_the_cookie_is_secure_and_every_answer_has_the_headers(proxy: Proxy) -> None:
    assert proxy.https("GET", "/api/player").cookies == []  # a read makes no player
    settings = json.dumps({"language": "fil"}).encode()
    answer = proxy.https("PUT", "/api/player", settings, {"content-type": "application/json"})
    assert answer.status == 200
    assert answer.json()["language"] == "fil"
    cookie = [part.strip().lower() for part in answer.cookies[0].split(";")]
    assert "secure" in cookie
    assert "httponly" in cookie
    assert answer.headers["strict-transport-security"].startswith("max-age=")
    assert answer.headers["server"] == "nginx"  # no version; the game adds no Server header
    page = proxy.https("GET", "/")
    assert page.status == 200
    assert page.headers["content-type"].startswith("text/html")
    missing = proxy.https("GET", "/api/nothing")
    assert missing.status == 404
    for response in (answer, page, missing):
        for name in SECURITY_HEADERS:
            assert name in response.headers, name


def test_bodies_over_16_kb_answer_413_json_from_the_game_and_far_over_from_nginx(
    proxy: Proxy,
) -> None:
    json_type = {"content-type": "application/json"}
    over = proxy.https("POST", "/api/games", b" " * (17 * 1024), json_type)
    assert over.status == 413
    assert error_code(over.body) == "body_too_large"
    for name in SECURITY_HEADERS:
        assert name in over.headers, name
    far_over = proxy.https("POST", "/api/games", b" " * (1024 * 1024), json_type)
    assert far_over.status == 413
    assert far_over.headers["content-type"] == "application/json"
    assert error_code(far_over.body) == "body_too_large"
    assert far_over.headers["x-content-type-options"] == "nosniff"


def test_a_game_plays_through_the_proxy_and_a_forged_address_does_not_escape_the_limits(
    proxy: Proxy,
) -> None:
    body = json.dumps({"difficulty": "peaceful", "seed": 2}).encode()
    statuses = []
    for n in range(4):  # each with another forged X-Forwarded-For: nginx replaces it
        headers = {"content-type": "application/json", "x-forwarded-for": f"203.0.113.{n}"}
        answer = proxy.https("POST", "/api/games", body, headers)
        statuses.append(answer.status)
        if answer.status == 201:
            game, cookie = answer.json(), answer.cookies[0].split(";")[0]
    assert statuses == [201, 201, 201, 429]
    roll = json.dumps({"type": "roll"}).encode()
    headers = {"content-type": "application/json", "cookie": cookie}
    played = proxy.https("POST", f"/api/games/{game['id']}/actions", roll, headers)
    assert played.status == 200
    assert played.json()["phase"] == "place"


def test_plain_http_is_sent_to_https(proxy: Proxy) -> None:
    answer = proxy.http("GET", "/api/player")
    assert answer.status == 301
    assert answer.headers["location"] == "https://127.0.0.1/api/player"


def test_requests_from_other_sites_are_refused_and_the_sites_own_pass(proxy: Proxy) -> None:
    """The origin the game compares with is the one the browser reached: https (the proxy's
    X-Forwarded-Proto) and the Host the browser sent, port included (``Host $http_host``)."""
    own = f"https://127.0.0.1:{proxy.https_port}"
    refused = [
        ("sec-fetch-site", "cross-site"),
        ("origin", "https://evil.example"),
        ("origin", "https://127.0.0.1"),  # another port
        ("origin", f"http://127.0.0.1:{proxy.https_port}"),  # plain http is another origin
    ]
    for name, value in refused:
        answer = proxy.https("POST", "/api/player/leave", None, {name: value})
        assert answer.status == 403, (name, value)
        assert error_code(answer.body) == "cross_site"
        assert answer.cookies == []
        for header in SECURITY_HEADERS:
            assert header in answer.headers, header
    for headers in ({"origin": own}, {"sec-fetch-site": "same-origin", "origin": own}, {}):
        assert proxy.https("POST", "/api/player/leave", None, headers).status == 204, headers
