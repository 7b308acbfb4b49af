"""Request bodies: at most ``max_bytes`` (413 ``body_too_large``), all of it within ``timeout``
seconds (408 ``request_timeout``). A path of ``larger`` has its own cap instead (the import of a
player's export file, which holds every game).

The middleware reads the body itself, before the app: a declared ``Content-Length`` over the limit
answers at once, without reading a byte (nor sending ``100 Continue``); a chunked body is read
until it passes the limit by one byte, never further. The body that passes is handed to the app
as one message. A request without a body (no ``Content-Length``, no ``Transfer-Encoding``) goes
straight through, untouched.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from magdagdon.api.edge.answers import CLOSE, send_error
from magdagdon.api.errors import BodyTooLargeError, RequestTimeoutError

if TYPE_CHECKING:
    from collections.abc import Mapping

    from starlette.types import ASGIApp, Message, Receive, Scope, Send


def _too_large_error(cap: int) -> BodyTooLargeError:
    return BodyTooLargeError(f"the request body is larger than {cap} bytes")


class BodyLimit:
    def __init__(
        self,
        app: ASGIApp,
        *,
        max_bytes: int,
        timeout: float,
        larger: Mapping[str, int] | None = None,
    ) -> None:
        self.app = app
        self.max_bytes = max_bytes
        self.timeout = timeout
        self.larger = dict(larger or {})

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared, has_body = _declared_length(scope)
        if not has_body:
            await self.app(scope, receive, send)
            return
        cap = self.larger.get(scope["path"], self.max_bytes)
        if declared is not None and declared > cap:
            await send_error(send, _too_large_error(cap), CLOSE)
            return
        try:
            async with asyncio.timeout(self.timeout):
                body = await self._read(receive, cap)
        except BodyTooLargeError as too_large:
            await send_error(send, too_large, CLOSE)
            return
        except TimeoutError:
            message = f"the request body did not arrive within {self.timeout:g} s"
            await send_error(send, RequestTimeoutError(message), CLOSE)
            return
        if body is None:  # the client left: nobody to answer
            return
        await self.app(scope, replay_body(body, receive), send)

    async def _read(self, receive: Receive, cap: int) -> bytes | None:
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return None
            chunk: bytes = message.get("body", b"")
            size += len(chunk)
            if size > cap:
                raise _too_large_error(cap)
            chunks.append(chunk)
            if not message.get("more_body", False):
                return b"".join(chunks)


def _declared_length(scope: Scope) -> tuple[int | None, bool]:
    """(the ``Content-Length``, or None when there is none or it is not a number; whether the
    request has a body at all)."""
    length: int | None = None
    has_body = False
    for name, value in scope["headers"]:
        if name == b"content-length":
            has_body = has_body or value.strip() not in (b"", b"0")
            length = int(value) if value.strip().isdigit() else None
        elif name == b"transfer-encoding":
            has_body = True
    return length, has_body


def replay_body(body: bytes, receive: Receive) -> Receive:
    """The app's ``receive``: the whole body once, then the connection's own messages (so a
    disconnect is still seen)."""
    given = False

    async def replay() -> Message:
        nonlocal given
        if given:
            return await receive()
        given = True
        return {"type": "http.request", "body": body, "more_body": False}

    return replay
