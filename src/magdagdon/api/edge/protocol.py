"""uvicorn's httptools connection with the two limits uvicorn lacks: a deadline for the request
line and headers (slowloris: a client that opens connections and sends a header byte now and
then would otherwise hold each one forever), and a cap on their size.

The deadline runs from the connection's opening, and on a kept-alive connection from the next
request's first byte, to the end of its headers (uvicorn's own keep-alive timeout covers the idle
time between requests). Past it, or past the size, the connection gets a JSON 408
``request_timeout`` or 431 ``headers_too_large`` and is closed. Bytes that are not HTTP at all
still get uvicorn's own plain-text 400: no JSON answer is possible there.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from magdagdon.api.edge.answers import raw_error
from magdagdon.api.edge.security import COMMON, CSP, NO_DOCUMENT_POLICY
from magdagdon.api.errors import HeadersTooLargeError, RequestTimeoutError
from magdagdon.settings import Settings

if TYPE_CHECKING:
    import asyncio

    from uvicorn.config import Config
    from uvicorn.server import ServerState

_HEADERS = [*COMMON, (CSP, NO_DOCUMENT_POLICY.encode())]


class _HeadersTooLargeError(Exception):
    """Raised in a parser callback: httptools stops parsing and uvicorn calls
    ``send_400_response``, which answers 431 instead."""


class GuardedHttpToolsProtocol(HttpToolsProtocol):
    def __init__(
        self,
        config: Config,
        server_state: ServerState,
        app_state: dict[str, Any],
        _loop: asyncio.AbstractEventLoop | None = None,
    ) -> None:
        super().__init__(config, server_state, app_state, _loop)
        settings = getattr(config, "settings", None)
        settings = settings if isinstance(settings, Settings) else Settings()
        self.header_timeout = settings.header_timeout
        self.max_header_bytes = settings.max_header_bytes
        self._header_timer: asyncio.TimerHandle | None = None
        self._header_bytes = 0
        self._refused = False

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if not self._refused:  # the answer is written; the rest is not read
            super().data_received(data)

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._header_bytes = 0
        if self._header_timer is None:
            self._arm()

    def on_url(self, url: bytes) -> None:
        self._count(len(url))
        super().on_url(url)

    def on_header(self, name: bytes, value: bytes) -> None:
        self._count(len(name) + len(value) + 4)  # ": " and CRLF
        super().on_header(name, value)

    def on_headers_complete(self) -> None:
        self._disarm()
        super().on_headers_complete()

    def send_400_response(self, msg: str) -> None:
        if self._header_bytes > self.max_header_bytes:
            message = f"the request line and headers are larger than {self.max_header_bytes} bytes"
            self._refuse(HeadersTooLargeError(message))
        else:
            super().send_400_response(msg)

    def _count(self, size: int) -> None:
        self._header_bytes += size
        if self._header_bytes > self.max_header_bytes:
            raise _HeadersTooLargeError

    def _arm(self) -> None:
        self._header_timer = self.loop.call_later(self.header_timeout, self._headers_too_slow)

    def _disarm(self) -> None:
        if self._header_timer is not None:
            self._header_timer.cancel()
            self._header_timer = None

    def _headers_too_slow(self) -> None:
        self._header_timer = None
        if self.transport.is_closing():
            return
        if self.cycle is not None and not self.cycle.response_complete:
            # an earlier request's answer is still being written: no room for another answer
            self.transport.close()
            return
        message = f"the request headers did not arrive within {self.header_timeout:g} s"
        self._refuse(RequestTimeoutError(message))

    def _refuse(self, refusal: Exception) -> None:
        self._refused = True
        self._disarm()
        headers = [*self.server_state.default_headers, *_HEADERS]
        self.transport.write(raw_error(refusal, headers))
        self.transport.close()
