"""The error answers that the edge gives before FastAPI sees a request: on the ASGI channel
(413, 408, 429) or as raw bytes on the connection itself (408, 431, where there is no request
yet). Their status, code and body are ``api/errors.py``'s, as every other answer's."""

from __future__ import annotations

import json
from http import HTTPStatus
from typing import TYPE_CHECKING

from magdagdon.api.errors import parts

if TYPE_CHECKING:
    from collections.abc import Iterable

    from starlette.types import Send

Headers = list[tuple[bytes, bytes]]

# the connection is closed after the answer: the rest of the request was not read
CLOSE: Headers = [(b"connection", b"close")]


def _encoded(refusal: Exception) -> tuple[int, bytes, Headers]:
    status, body, headers = parts(refusal)
    fields = [(name.lower().encode(), value.encode()) for name, value in headers.items()]
    return status, json.dumps(body).encode(), fields


async def send_error(
    send: Send, refusal: Exception, headers: Iterable[tuple[bytes, bytes]] = ()
) -> None:
    status, body, own = _encoded(refusal)
    start = [(b"content-type", b"application/json"), (b"content-length", b"%d" % len(body))]
    await send(
        {"type": "http.response.start", "status": status, "headers": [*start, *own, *headers]}
    )
    await send({"type": "http.response.body", "body": body})


def raw_error(refusal: Exception, headers: Iterable[tuple[bytes, bytes]]) -> bytes:
    """A whole HTTP/1.1 answer that closes the connection, for a protocol to write itself."""
    status, body, own = _encoded(refusal)
    lines = [b"HTTP/1.1 %d %s" % (status, HTTPStatus(status).phrase.encode())]
    fields = [
        *headers,
        *own,
        (b"content-type", b"application/json"),
        (b"content-length", b"%d" % len(body)),
        *CLOSE,
    ]
    lines += [name + b": " + value for name, value in fields]
    return b"\r\n".join(lines) + b"\r\n\r\n" + body
