"""The shared rate counters (``api/edge/sharedrates.py``) when the database cannot be used: the
limiter counts in the process's memory meanwhile, so a request gets the store's own 503, never
a 500; once the database is back, the counts go to it again."""

from __future__ import annotations

import sqlite3
from typing import TYPE_CHECKING

from fastapi.testclient import TestClient

from magdagdon.api.app import create_app
from magdagdon.api.edge import sharedrates
from magdagdon.settings import Settings
from magdagdon.store import Store

if TYPE_CHECKING:
    from pathlib import Path

    import pytest

NEW_GAME = {"difficulty": "peaceful", "seed": 3}


def _counted(db: str) -> int:
    with sqlite3.connect(db) as conn:
        return int(conn.execute("SELECT coalesce(sum(hits), 0) FROM rate_counters").fetchone()[0])


def test_a_locked_database_gives_503_not_500_and_the_counts_return_to_it(
    db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = str(db_path)
    Store(db).close()
    monkeypatch.setattr(sharedrates, "AWAY", 0.0)  # try the database again at once
    app = create_app(
        db,
        settings=Settings(games_rate="100/minute", games_rate_per_address="100/minute"),
        shared_rates=True,
    )
    with TestClient(app) as client:
        assert client.post("/api/games", json=NEW_GAME).status_code == 201
        assert _counted(db) == 1  # by address: no cookie yet
        held = sqlite3.connect(db, isolation_level=None)
        held.execute("BEGIN IMMEDIATE")
        try:
            for _ in range(3):
                answer = client.post("/api/games", json=NEW_GAME)
                assert answer.status_code == 503, answer.text
                assert answer.json()["error"]["code"] == "storage_unavailable"
        finally:
            held.execute("ROLLBACK")
            held.close()
        assert client.post("/api/games", json=NEW_GAME).status_code == 201
        assert _counted(db) == 3  # this one, by address and by player
