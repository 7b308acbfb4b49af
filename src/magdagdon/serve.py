"""Run the server on a listening socket: one process, or ``--workers N`` processes that share
the socket and the database.

With N > 1, the supervisor (:mod:`magdagdon.supervise`) starts N worker processes that accept
on the one socket, replaces one that dies (even by SIGKILL) or hangs while the others go on
serving, and answers HUP (replace them one by one), TTIN and TTOU (one more, one fewer). Each
worker builds its own app (:func:`worker_app`, named in the pickled configuration with the
database and the settings), over the database that the parent migrated once before starting
them. The ``Serving on`` line is printed once every worker accepts connections.

What each worker keeps for itself: its compute pool (hints) and its
connections. Every acknowledged action is committed before its answer, so a worker that dies
loses only the requests it had not answered.
"""

from __future__ import annotations

import functools
import logging
from typing import TYPE_CHECKING

import uvicorn

from magdagdon.api.app import create_app, serving_store
from magdagdon.api.edge.serving import GuardedConfig
from magdagdon.observe import logs, multiproc
from magdagdon.supervise import Supervisor

if TYPE_CHECKING:
    import socket
    from collections.abc import Callable

    from fastapi import FastAPI

    from magdagdon.settings import Settings
    from magdagdon.store import Store

log = logging.getLogger("magdagdon.serve")
MAX_WORKERS = 64
_UVICORN = {
    "log_level": "warning",
    "access_log": False,
    "lifespan": "on",
    "timeout_graceful_shutdown": 3,
}


def _uvicorn(settings: Settings) -> dict[str, object]:
    """uvicorn's options, with the log's format (``observe/logs.py``)."""
    log_config = logs.uvicorn_config(settings.log_format)
    return _UVICORN if log_config is None else {**_UVICORN, "log_config": log_config}


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
    # the workers' metrics add up in a folder of this run's own (observe/multiproc.py); with
    # the operator's PROMETHEUS_MULTIPROC_DIR, one process keeps its metrics there too
    metrics_dir = multiproc.prepare() if workers > 1 or multiproc.directory() else None
    try:
        if workers <= 1:
            return _single(sock, db, settings, on_ready)
        return _several(sock, db, settings, workers, on_ready)
    except KeyboardInterrupt:
        return 0
    finally:
        sock.close()
        multiproc.finish(metrics_dir)


def _single(sock: socket.socket, db: str, settings: Settings, on_ready: Callable[[], None]) -> int:
    serving = serving_store(db, settings, migrated=True)
    app = create_app(serving, settings=settings, start_compute=True)
    config = GuardedConfig(app, settings, **_uvicorn(settings))

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
    config = GuardedConfig(factory, settings, factory=True, workers=workers, **_uvicorn(settings))
    supervisor = Supervisor(config, [sock], on_ready)
    supervisor.run()
    return 0 if supervisor.started else 1
