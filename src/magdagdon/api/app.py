"""``create_app()``: wiring only — the store, the routers, the error handlers and the page."""

from __future__ import annotations

import asyncio
import contextlib
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING

import anyio.to_thread

from magdagdon import __version__
from magdagdon.api import errors
from magdagdon.api import metrics as metrics_route
from magdagdon.api.edge import stack as edge
from magdagdon.api.edge.lean import LeanFastAPI
from magdagdon.api.edge.sharedrates import SharedCounters
from magdagdon.api.page import service_worker
from magdagdon.api.page.static import (
    ENGINE_RUNTIME_DIR,
    WEB_DIR,
    engine_runtime_mount,
    page_mount,
)
from magdagdon.api.routes import (
    daily,
    games,
    health,
    highscores,
    hint,
    link,
    player,
    review,
    server,
    share,
    stats,
    sync,
    transfer,
)
from magdagdon.api.routes.direct import DirectRoutes
from magdagdon.bots import hints
from magdagdon.compute import Compute, Limits
from magdagdon.observe import metrics
from magdagdon.services import cleanup
from magdagdon.settings import Settings
from magdagdon.store import Store
from magdagdon.store.connect import SERVING
from magdagdon.store.counters import Counters

if TYPE_CHECKING:
    import os
    from collections.abc import AsyncIterator
    from pathlib import Path

    from fastapi import FastAPI


def create_app(
    store_or_db: Store | str | os.PathLike[str],
    *,
    web_dir: Path = WEB_DIR,
    settings: Settings | None = None,
    start_compute: bool = False,
    shared_rates: bool | None = None,
) -> FastAPI:
    """The web app over a :class:`Store` (kept open) or a database — a SQLite file path or a
    ``postgresql://`` URL — (closed at shutdown); ``web_dir`` is the page's folder (the
    package's ``web/``); ``settings`` its limits, headers and docs (the defaults when None);
    ``start_compute``: start the hints' processes with the app (``magdagdon serve``) rather
    than with the first hint (tests, which mostly ask none); ``shared_rates``: count the rate
    limits in the database, which every process and host shares (``api/edge/sharedrates.py``)
    rather than in this process's memory (None: on PostgreSQL, which several hosts may share;
    ``magdagdon serve --workers N`` asks for it on SQLite too)."""
    settings = Settings() if settings is None else settings
    # counting is one switch for the whole process (the hooks in the store and the services)
    if settings.metrics:
        metrics.enable()
    else:
        metrics.disable()
    owned = not isinstance(store_or_db, Store)
    store = store_or_db if isinstance(store_or_db, Store) else serving_store(store_or_db, settings)
    prober = health.Prober()
    compute = Compute(compute_limits(settings), warm=hints.warm)
    if shared_rates is None:
        shared_rates = store.dialect == "postgresql"
    counting = SharedCounters(Counters(store.db)) if shared_rates and settings.rate_limits else None

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        # FastAPI runs each request in this thread pool (anyio's, 40 by default): no more at once
        # than the store keeps connections for, and fewer threads for the one GIL to switch
        anyio.to_thread.current_default_thread_limiter().total_tokens = settings.threads
        if start_compute:
            compute.start()
        cleaning = asyncio.create_task(cleanup.every_day(store, settings.unfinished_days))
        try:
            yield
        finally:
            cleaning.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await cleaning
            prober.close()
            compute.close()
            if counting is not None:
                counting.close()
            if owned:
                store.close()

    app = LeanFastAPI(
        title="MAGDAGDON", version=__version__, lifespan=lifespan, **edge.docs_urls(settings)
    )
    app.state.store = store
    app.state.prober = prober
    app.state.compute = compute
    app.state.settings = settings
    errors.install(app)
    app.include_router(sync.router)  # before games': /api/games/sync is no game id
    app.include_router(games.router)
    app.include_router(highscores.router)
    app.include_router(player.router)
    app.include_router(hint.router)
    app.include_router(health.router)
    app.include_router(link.router)
    app.include_router(server.router)
    app.router.routes.append(service_worker.route(web_dir, ENGINE_RUNTIME_DIR))
    app.include_router(review.router)
    app.include_router(daily.router)
    app.include_router(share.router)
    app.include_router(stats.router)
    app.include_router(transfer.router)
    if settings.metrics:
        app.include_router(metrics_route.router)
    app.router.routes.append(engine_runtime_mount())
    app.router.routes.append(page_mount(web_dir))
    # the innermost: inside every edge layer
    app.add_middleware(DirectRoutes)
    app.add_middleware(health.FreshHealth, store=store)
    edge.install(app, settings, web_dir, rate_counting=counting)
    return app


def serving_store(
    db: str | os.PathLike[str], settings: Settings, *, migrated: bool = False
) -> Store:
    """The store of a server: it gives up on the database in time (``SERVING``) and keeps a
    connection open for each request thread."""
    return Store(db, waits=SERVING, migrated=migrated, connections=settings.threads)


def compute_limits(settings: Settings) -> Limits:
    return Limits(
        processes=settings.compute_processes,
        queue=settings.compute_queue,
        timeout=settings.hint_timeout,
        background_processes=settings.background_processes,
        background_timeout=settings.background_timeout,
    )
