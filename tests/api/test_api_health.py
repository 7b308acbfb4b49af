"""``GET /api/health`` (docs/api.md): while a success is fresh the edge answers it without the
route (``routes/health.py``), with the same status, body and headers; otherwise the route
probes, and a database that cannot be used answers 503 with ``Retry-After``."""

from __future__ import annotations

import sqlite3
from typing import TYPE_CHECKING

from fastapi.testclient import TestClient

from magdagdon.api.app import create_app
from magdagdon.api.routes.health import Prober
from magdagdon.settings import Settings
from magdagdon.store import Store, health
from magdagdon.store.connect import Waits

if TYPE_CHECKING:
    from pathlib import Path

    import pytest

QUICK = Waits(lock=0.2, statement=None, connect=2, queue=1.0)
WELL = {"status": "ok", "database": "ok"}


def test_a_fresh_success_is_the_routes_answer_without_the_route(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(health, "FRESH", 3600.0)  # however slow the machine, it stays fresh
    probed = client.get("/api/health")  # no success yet: the route probes
    assert probed.status_code == 200
    assert probed.json() == WELL
    checks: list[object] = []

    async def refuse(self: Prober, store: Store) -> None:
        checks.append(store)
        raise AssertionError("a fresh success went to the route")

    monkeypatch.setattr(Prober, "check", refuse)
    for _ in range(3):
        fast = client.get("/api/health")
        assert fast.status_code == 200
        assert fast.content == probed.content
        # content type, CSP, every header; each answer its own request id
        assert fast.headers["x-request-id"] != probed.headers["x-request-id"]
        same = {**fast.headers, "x-request-id": probed.headers["x-request-id"]}
        assert same == dict(probed.headers)
    assert checks == []


def test_without_a_fresh_success_the_route_probes_and_answers_503(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "db.sqlite3"
    with Store(db, waits=QUICK) as store:
        app = create_app(store, settings=Settings(rate_limits=False))
        with TestClient(app) as client:
            monkeypatch.setattr(health, "FRESH", 3600.0)
            assert client.get("/api/health").json() == WELL
            other = sqlite3.connect(db, isolation_level=None)
            other.execute("BEGIN IMMEDIATE")  # another program holds the write lock
            try:
                # the success just seen is still fresh: the lock is not looked at
                assert client.get("/api/health").status_code == 200
                monkeypatch.setattr(health, "FRESH", 0.0)  # nothing is fresh now
                for _ in range(2):  # a failure is never reused: each check probes again
                    failed = client.get("/api/health")
                    assert failed.status_code == 503
                    assert failed.json() == {"status": "unavailable", "database": "unavailable"}
                    assert int(failed.headers["retry-after"]) >= 1
                    assert "content-security-policy" in failed.headers
            finally:
                other.execute("ROLLBACK")
                other.close()
            assert client.get("/api/health").json() == WELL  # recovered at once
