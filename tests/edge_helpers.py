"""Real servers with edge settings (flags, ``MAGDAGDON_*`` variables) and raw-socket HTTP, for
the limits, security and hosting tests."""

from __future__ import annotations

import http.client
import json
import socket
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import pytest

from server_process import launch_server
from waits import EVENTUALLY

if TYPE_CHECKING:
    from collections.abc import Mapping
    from pathlib import Path

    from server_process import ServerProcess

# a security header every answer of the app carries
SECURITY_HEADERS = (
    "content-security-policy",
    "x-content-type-options",
    "x-frame-options",
    "referrer-policy",
)


class EdgeServers:
    """``with EdgeServers(tmp_path) as servers: servers.start(*flags, MAGDAGDON_X=value)``: real
    ``magdagdon serve`` processes with those flags and environment variables, each on a fresh
    database; all are killed at the end."""

    def __init__(self, tmp_path: Path) -> None:
        self.tmp_path = tmp_path
        self.started: list[ServerProcess] = []

    def start(self, *flags: str, **env: str) -> ServerProcess:
        with pytest.MonkeyPatch.context() as patch:
            for name, value in env.items():
                patch.setenv(name, value)
            db = self.tmp_path / f"edge-{len(self.started)}.sqlite3"
            server = launch_server(db, self.tmp_path / "logs", *flags)
        self.started.append(server)
        return server

    def __enter__(self) -> EdgeServers:
        return self

    def __exit__(self, *exc: object) -> None:
        for server in self.started:
            server.kill()


@dataclass
class Answer:
    status: int
    headers: dict[str, str]
    body: bytes
    cookies: list[str]

    def json(self) -> Any:
        return json.loads(self.body)


def request(
    server: ServerProcess,
    method: str,
    path: str,
    body: bytes | None = None,
    headers: Mapping[str, str] | None = None,
) -> Answer:
    """One request on a new connection (http.client), its whole answer."""
    conn = http.client.HTTPConnection(server.host, server.port, timeout=EVENTUALLY)
    try:
        conn.request(method, path, body=body, headers=dict(headers or {}))
        response = conn.getresponse()
        data = response.read()
        fields = {name.lower(): value for name, value in response.getheaders()}
        cookies = response.headers.get_all("set-cookie") or []
        return Answer(response.status, fields, data, cookies)
    finally:
        conn.close()


def raw_connection(server: ServerProcess, timeout: float = EVENTUALLY) -> socket.socket:
    sock = socket.create_connection((server.host, server.port), timeout=timeout)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    return sock


def read_until_closed(sock: socket.socket) -> tuple[bytes, float]:
    """Everything the server sends until it closes the connection, and when it closed it
    (``time.monotonic()``); fails if it does not close within the socket's timeout."""
    received = b""
    while True:
        try:
            chunk = sock.recv(65536)
        except ConnectionResetError:
            chunk = b""
        if not chunk:
            return received, time.monotonic()
        received += chunk


def parse_raw(answer: bytes) -> tuple[int, dict[str, str], bytes]:
    """(status, headers, body) of one raw HTTP/1.1 answer."""
    head, _, body = answer.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1])
    fields = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        fields[name.strip().lower()] = value.strip()
    return status, fields, body


def error_code(body: bytes) -> str:
    error = json.loads(body)["error"]
    assert set(error) == {"code", "message"}
    assert error["message"]
    code: str = error["code"]
    return code
