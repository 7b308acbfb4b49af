"""Run the server on a listening socket: one process, or ``--workers N`` processes that share
the socket and the database.

With N > 1, uvicorn's supervisor (``uvicorn.supervisors.Multiprocess``) starts N worker
processes (spawned: each imports the code afresh) that accept on the one socket, pings them,
and replaces one that dies (even by SIGKILL) while the others go on serving. Each worker
builds its own app (:func:`worker_app`, named in the pickled configuration with the database
and the settings), over the database that the parent migrated once before starting them. The
``Serving on`` line is printed once every worker accepts connections.

What each worker keeps for itself: its compute pool (hints) and its
connections. Every acknowledged action is committed before its answer, so a worker that dies
loses only the requests it had not answered.
"""

from __future__ import annotations

import functools
import logging
from typing import TYPE_CHECKING

import uvicorn
from uvicorn.supervisors.multiprocess import Multiprocess

from magdagdon.api.app import create_app, serving_store
from magdagdon.api.edge.serving import GuardedConfig

if TYPE_CHECKING:
    import socket
    from collections.abc import Callable

    from fastapi import FastAPI

    from magdagdon.settings import Settings
    from magdagdon.store import Store

log = logging.getLogger("magdagdon.serve")
WORKER_START_TIMEOUT = 60.0  # seconds for a spawned worker to import everything and listen
MAX_WORKERS = 64
_UVICORN = {
    "log_level": "warning",
    "access_log": False,
    "lifespan": "on",
    "timeout_graceful_shutdown": 3,
}


def worker_app(db: str, settings: Settings) -> FastAPI:
    """The app of one worker process (its parent already migrated the database); its rate
    limits count in the database, with the other workers'."""
    store = serving_store(db, settings, migrated=True)
    return create_app(store, settings=settings, start_compute=True, shared_rates=True)


def run(
    sock: socket.socket,
    store: Store,
    settings: Settings,
    *,
    workers: int = 1,
    on_ready: Callable[[], None],
) -> int:
    """Serve on ``sock`` until Ctrl-C or SIGTERM; answer the exit status. ``store`` is the
    migrated database (closed here: the server opens its own connections); ``on_ready``
    runs once every process accepts connections."""
    db = store.db
    store.close()
    try:
        if workers <= 1:
            return _single(sock, db, settings, on_ready)
        return _several(sock, db, settings, workers, on_ready)
    except KeyboardInterrupt:
        return 0
    finally:
        sock.close()


def _single(sock: socket.socket, db: str, settings: Settings, on_ready: Callable[[], None]) -> int:
    serving = serving_store(db, settings, migrated=True)
    app = create_app(serving, settings=settings, start_compute=True)
    config = GuardedConfig(app, settings, **_UVICORN)

    class Server(uvicorn.Server):
        async def startup(self, sockets: list[socket.socket] | None = None) -> None:
            await super().startup(sockets=sockets)
            if self.started:
                on_ready()

    try:
        Server(config).run(sockets=[sock])
    finally:
        serving.close()
    return 0


def _several(
    sock: socket.socket,
    db: str,
    settings: Settings,
    workers: int,
    on_ready: Callable[[], None],
) -> int:
    factory = functools.partial(worker_app, db, settings)
    config = GuardedConfig(factory, settings, factory=True, workers=workers, **_UVICORN)
    supervisor = Supervisor(config, [sock], on_ready)
    supervisor.run()
    return 0 if supervisor.started else 1


class Supervisor(Multiprocess):
    """uvicorn's supervisor that also tells when every worker first accepts connections."""

    def __init__(
        self, config: uvicorn.Config, sockets: list[socket.socket], on_ready: Callable[[], None]
    ) -> None:
        super().__init__(config, sockets)
        self.on_ready = on_ready
        self.started = False

    def init_processes(self) -> None:
        super().init_processes()
        for process in self.processes:
            if not process.wait_until_ready(WORKER_START_TIMEOUT, self.should_exit):
                if not self.should_exit.is_set():
                    log.error("a worker process did not start; stopping")
                    self.should_exit.set()
                return
        self.started = True
        self.on_ready()
