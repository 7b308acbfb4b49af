"""A real server (uvicorn, the app of ``magdagdon serve``) in a thread of the test, over a page
folder the test may change between two starts on the same port: a new version of the page."""

from __future__ import annotations

import asyncio
import socket
import threading
import time
from typing import TYPE_CHECKING

import uvicorn

from magdagdon.api.app import create_app
from magdagdon.settings import Settings
from waits import EVENTUALLY

if TYPE_CHECKING:
    from pathlib import Path


class PageServer:
    def __init__(
        self, db: Path | str, web_dir: Path, port: int = 0, settings: Settings | None = None
    ) -> None:
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(("127.0.0.1", port))
        self.port: int = sock.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        settings = Settings(rate_limits=False) if settings is None else settings
        self.app = create_app(db, web_dir=web_dir, settings=settings)
        config = uvicorn.Config(self.app, log_level="warning", lifespan="on")
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(
            target=lambda: asyncio.run(self._server.serve([sock])), daemon=True
        )
        self._thread.start()
        deadline = time.monotonic() + EVENTUALLY
        while not self._server.started:
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.02)
        self._sock = sock

    def stop(self) -> None:
        self._server.should_exit = True
        self._thread.join(EVENTUALLY)
        self._sock.close()
