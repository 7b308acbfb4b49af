"""The shared rate counters (``api/edge/sharedrates.py``) when the database cannot be used: the
limiter counts in the process's memory meanwhile, so a request gets the store's own 503, never
a 500; once the database is back, the counts go to it again. On both databases: SQLite locked
by another program, PostgreSQL's tables locked by another session."""

from __future__ import annotations

import sqlite3
from typing import TYPE_CHECKING

import psycopg
from fastapi.testclient import TestClient

from magdagdon.api.app import create_app
from magdagdon.api.edge import sharedrates
from magdagdon.settings import Settings
from storage_helpers import held_by_another_program, until

if TYPE_CHECKING:
    import pytest

NEW_GAME = {"difficulty": "peaceful", "seed": 3}
_SUM = "SELECT coalesce(sum(hits), 0) FROM rate_counters"


def _counted(db: str) -> int:
    if db.startswith("postgresql://"):
        with psycopg.connect(db) as conn:
            row = conn.execute(_SUM).fetchone()
    else:
        with sqlite3.connect(db) as conn:
            row = conn.execute(_SUM).fetchone()
    assert row is not None
    return int(row[0])


def test_a_locked_database_gives_503_not_500_and_the_counts_return_to_it(
    db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sharedrates, "AWAY", 0.0)  # try the database again at once
    app = create_app(
        db_url,
        settings=Settings(games_rate="100/minute", games_rate_per_address="100/minute"),
        shared_rates=True,
    )
    with TestClient(app) as client:
        assert client.post("/api/games", json=NEW_GAME).status_code == 201
        assert _counted(db_url) == 1  # by address: no cookie yet
        with held_by_another_program(db_url):
            for _ in range(3):
                answer = client.post("/api/games", json=NEW_GAME)
                assert answer.status_code == 503, answer.text
                assert answer.json()["error"]["code"] == "storage_unavailable"

        # back in use: on a loaded machine one count may still give up on the database (its
        # wait is short on purpose) and count in this process, so wait for one that counts there
        def counted_there() -> bool:
            before = _counted(db_url)
            assert client.post("/api/games", json=NEW_GAME).status_code == 201
            return _counted(db_url) > before

        until(counted_there)
        before = _counted(db_url)
        assert client.post("/api/games", json=NEW_GAME).status_code == 201
        assert _counted(db_url) - before in (0, 2)  # by address and by player, or neither
        assert _counted(db_url) >= 3
