"""The floors a server's request is measured against, served exactly as ``magdagdon serve``
serves the game (the same listening socket and uvicorn configuration: ``GuardedConfig``, its
httptools protocol and options), so that a ratio to them is the game's own cost on any machine:

``bare``: an ASGI app that answers ``GET /`` with a fixed 2-byte JSON body at once;
``fastapi``: a FastAPI app with one plain ``def`` route (``GET /ping`` answers ``{"ok": true}``),
run in FastAPI's thread pool like the game's routes.

Prints ``Serving on http://HOST:PORT`` once it accepts connections, like ``magdagdon serve``.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

import uvicorn
from fastapi import FastAPI

from magdagdon.api.edge.serving import GuardedConfig
from magdagdon.cli import _bind
from magdagdon.serve import _UVICORN
from magdagdon.settings import Settings

if TYPE_CHECKING:
    import socket

    from starlette.types import ASGIApp, Receive, Scope, Send

_BODY = b"{}"
_HEADERS = [(b"content-type", b"application/json"), (b"content-length", b"2")]


async def bare(scope: Scope, receive: Receive, send: Send) -> None:
    if scope["type"] == "lifespan":
        while True:
            message = await receive()
            kind = message["type"].removeprefix("lifespan.")
            await send({"type": f"lifespan.{kind}.complete"})
            if kind == "shutdown":
                return
    await send({"type": "http.response.start", "status": 200, "headers": _HEADERS})
    await send({"type": "http.response.body", "body": _BODY})


def one_route() -> FastAPI:
    app = FastAPI()

    @app.get("/ping")
    def ping() -> dict[str, bool]:
        return {"ok": True}

    return app


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("kind", choices=["bare", "fastapi"])
    args = parser.parse_args()
    app: ASGIApp = bare if args.kind == "bare" else one_route()
    sock = _bind("127.0.0.1", 0)  # the listening socket of ``magdagdon serve``
    host, port = sock.getsockname()

    class Server(uvicorn.Server):
        async def startup(self, sockets: list[socket.socket] | None = None) -> None:
            await super().startup(sockets=sockets)
            if self.started:
                print(f"Serving on http://{host}:{port}", flush=True)

    Server(GuardedConfig(app, Settings(), **_UVICORN)).run(sockets=[sock])


if __name__ == "__main__":
    main()
