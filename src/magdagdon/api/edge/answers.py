"""The JSON error answers (API.md's ``{"error": {"code", "message"}}``) that the edge gives before
FastAPI sees a request: on the ASGI channel (413, 408, 429) or as raw bytes on the connection
itself (408, 431, where there is no request yet)."""

from __future__ import annotations

import json
from http import HTTPStatus
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Iterable

    from starlette.types import Send

Headers = list[tuple[bytes, bytes]]

# the connection is closed after the answer: the rest of the request was not read
CLOSE: Headers = [(b"connection", b"close")]


def error_body(code: str, message: str) -> bytes:
    return json.dumps({"error": {"code": code, "message": message}}).encode()


async def send_error(
    send: Send, status: int, code: str, message: str, headers: Iterable[tuple[bytes, bytes]] = ()
) -> None:
    body = error_body(code, message)
    start = [(b"content-type", b"application/json"), (b"content-length", b"%d" % len(body))]
    await send({"type": "http.response.start", "status": status, "headers": [*start, *headers]})
    await send({"type": "http.response.body", "body": body})


def raw_error(
    status: int, code: str, message: str, headers: Iterable[tuple[bytes, bytes]]
) -> bytes:
    """A whole HTTP/1.1 answer that closes the connection, for a protocol to write itself."""
    body = error_body(code, message)
    lines = [b"HTTP/1.1 %d %s" % (status, HTTPStatus(status).phrase.encode())]
    fields = [
        *headers,
        (b"content-type", b"application/json"),
        (b"content-length", b"%d" % len(body)),
        *CLOSE,
    ]
    lines += [name + b": " + value for name, value in fields]
    return b"\r\n".join(lines) + b"\r\n\r\n" + body
