"""``create_app()``: wiring only — the store, the routers, the error handlers and the page."""

from __future__ import annotations

from contextlib import asynccontextmanager
from typing import TYPE_CHECKING

from fastapi import FastAPI

from magdagdon import __version__
from magdagdon.api import (
    edge,
    errors,
    routes_daily,
    routes_games,
    routes_highscores,
    routes_hint,
    routes_player,
    routes_stats,
    routes_transfer,
)
from magdagdon.api.static import WEB_DIR, page_mount
from magdagdon.settings import Settings
from magdagdon.store import Store

if TYPE_CHECKING:
    import os
    from collections.abc import AsyncIterator
    from pathlib import Path


def create_app(
    store_or_db: Store | str | os.PathLike[str],
    *,
    web_dir: Path = WEB_DIR,
    settings: Settings | None = None,
) -> FastAPI:
    """The web app over a :class:`Store` (kept open) or a database — a SQLite file path or a
    ``postgresql://`` URL — (closed at shutdown); ``web_dir`` is the page's folder (the
    package's ``web/``); ``settings`` its limits, headers and docs (the defaults when None)."""
    settings = Settings() if settings is None else settings
    owned = not isinstance(store_or_db, Store)
    store = store_or_db if isinstance(store_or_db, Store) else Store(store_or_db)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        yield
        if owned:
            store.close()

    app = FastAPI(
        title="MAGDAGDON", version=__version__, lifespan=lifespan, **edge.docs_urls(settings)
    )
    app.state.store = store
    errors.install(app)
    app.include_router(routes_games.router)
    app.include_router(routes_highscores.router)
    app.include_router(routes_player.router)
    app.include_router(routes_hint.router)
    app.include_router(routes_daily.router)
    app.include_router(routes_stats.router)
    app.include_router(routes_transfer.router)
    app.router.routes.append(page_mount(web_dir))
    edge.install(app, settings, web_dir)
    return app
