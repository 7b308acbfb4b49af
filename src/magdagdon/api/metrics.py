"""``GET /metrics``: the server's Prometheus metrics (``observe/``), for the operator's
Prometheus only, never for players (docs/hosting.md, "Metrics and logs").

Answered to a request that either carries ``Authorization: Bearer TOKEN`` with the token of
``MAGDAGDON_METRICS_TOKEN``, or comes straight from an address of ``MAGDAGDON_METRICS_NETWORKS``
(default: this machine only) and not through a proxy (no ``X-Forwarded-For``: behind nginx on
the same machine every player would come from 127.0.0.1). Anyone else gets the 404 of a path
that does not exist.
"""

from __future__ import annotations

import hmac
import ipaddress
from typing import TYPE_CHECKING

import anyio.to_thread
from fastapi import APIRouter, Request
from fastapi.responses import Response
from starlette.exceptions import HTTPException

from magdagdon import clock
from magdagdon.engine import Difficulty
from magdagdon.observe import exposition
from magdagdon.settings import networks
from magdagdon.store.failures import StorageUnavailableError

if TYPE_CHECKING:
    from magdagdon.api.routes.health import Prober
    from magdagdon.settings import Settings
    from magdagdon.store import Store

PATH = "/metrics"
router = APIRouter()


def allowed(request: Request, settings: Settings) -> bool:
    token = settings.metrics_token
    if token:
        given = request.headers.get("authorization", "")
        if hmac.compare_digest(given.encode(), f"Bearer {token}".encode()):
            return True
    if request.client is None or "x-forwarded-for" in request.headers:
        return False
    try:
        address = ipaddress.ip_address(request.client.host)
    except ValueError:
        return False
    return any(address in network for network in networks(settings.metrics_networks))


def daily_players(store: Store) -> dict[str, int] | None:
    """Today's players on each difficulty's table; None when the database cannot tell."""
    today = clock.today().isoformat()
    try:
        with store.read() as reads:
            return {d.value: reads.day_attempts(today, d) for d in Difficulty}
    except StorageUnavailableError:
        return None


@router.get(PATH, include_in_schema=False)
async def scrape(request: Request) -> Response:
    settings: Settings = request.app.state.settings
    if not allowed(request, settings):
        raise HTTPException(404, "Not Found")
    store: Store = request.app.state.store
    prober: Prober = request.app.state.prober
    up = await prober.check(store) is None
    players = await anyio.to_thread.run_sync(daily_players, store) if up else None
    text = await anyio.to_thread.run_sync(exposition.render, up, players)
    return Response(text, media_type=exposition.CONTENT_TYPE)
