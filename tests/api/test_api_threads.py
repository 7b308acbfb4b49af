"""A server works on ``Settings.threads`` requests at once and keeps a database connection open
for each: many players at once open no connection per request (on PostgreSQL each one is a
new server process, which cost two workers on two cores a third of their actions per second).
"""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any, cast

import httpx
from sqlalchemy import event

from api_helpers import whole_game
from device.inprocess import PageServer
from magdagdon.api.page.static import WEB_DIR
from magdagdon.engine import Difficulty, GameState, action_to_json
from magdagdon.settings import Settings

if TYPE_CHECKING:
    from sqlalchemy import Engine
    from sqlalchemy.pool import QueuePool

PLAYERS = 12
ACTIONS = 15


class Watch:
    """Connections opened, and the most checked out at once, over the store's engines."""

    def __init__(self, engines: list[Engine]) -> None:
        self.engines = engines
        self.lock = threading.Lock()
        self.opened = self.most_out = 0
        for engine in engines:
            event.listen(engine, "connect", self.on_connect)
            event.listen(engine, "checkout", self.on_checkout)

    def on_connect(self, *_: Any) -> None:
        with self.lock:
            self.opened += 1

    def on_checkout(self, *_: Any) -> None:
        out = sum(cast("QueuePool", engine.pool).checkedout() for engine in self.engines)
        with self.lock:
            self.most_out = max(self.most_out, out)


def play(url: str, seed: int) -> int:
    """One player: a seeded game and its first ``ACTIONS`` plain actions, as fast as the
    answers come; answers how many were accepted."""
    played = 0
    with httpx.Client(base_url=url, timeout=30) as client:
        game = client.post("/api/games", json={"difficulty": "peaceful", "seed": seed}).json()
        for action in whole_game(GameState.new(Difficulty.PEACEFUL, seed))[:ACTIONS]:
            answer = client.post(f"/api/games/{game['id']}/actions", json=action_to_json(action))
            assert answer.status_code == 200, answer.text
            played += 1
    return played


def test_many_players_at_once_open_no_connection_per_request(db_url: str) -> None:
    settings = Settings(rate_limits=False, threads=4)
    server = PageServer(db_url, WEB_DIR, settings=settings)
    try:
        store = server.app.state.store
        engines = list({id(e): e for e in (store.engine, store._write_engine)}.values())
        assert store.engine.pool.size() == settings.threads
        watch = Watch(engines)
        with ThreadPoolExecutor(PLAYERS) as pool:
            played = sum(pool.map(lambda i: play(server.url, i), range(PLAYERS)))
    finally:
        server.stop()
    assert played == PLAYERS * ACTIONS
    # no more requests at once than threads, and once their connections are open, none more
    assert 1 <= watch.most_out <= settings.threads
    assert watch.opened <= settings.threads
