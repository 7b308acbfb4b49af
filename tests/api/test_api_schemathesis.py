"""Schemathesis over the app's own OpenAPI: every documented operation, generated inputs (valid
and not), every check (no 500, documented status codes, response schemas, content types)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pytest
import schemathesis
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from schemathesis.checks import positive_data_acceptance

from magdagdon.api.app import create_app
from magdagdon.api.cookies import COOKIE
from magdagdon.store import Store
from waits import EVENTUALLY

if TYPE_CHECKING:
    from collections.abc import Iterator

    from fastapi import FastAPI


class Session:
    """The app under test, with one player who owns a real game (so actions reach the rules)."""

    def __init__(self, db: str) -> None:
        # a Store object, not a path: the app leaves it open through each lifespan schemathesis runs
        self.store = Store(db)
        self.app: FastAPI = create_app(self.store)
        self.client = TestClient(self.app)
        self.client.__enter__()
        game = self.client.post("/api/games", json={"difficulty": "peaceful", "seed": 5}).json()
        self.client.post(f"/api/games/{game['id']}/actions", json={"type": "roll"})
        self.game_id: str = game["id"]
        self.token: str = self.client.cookies[COOKIE]
        # in-process: the server does not publish /openapi.json unless asked (``--api-docs``)
        self.schema: Any = schemathesis.openapi.from_dict(self.app.openapi())
        self.schema.app = self.app

    def close(self) -> None:
        self.client.__exit__(None, None, None)
        self.store.close()


@pytest.fixture
def api_session(db_url: str) -> Iterator[Session]:
    """The app over a fresh database of each kind (PostgreSQL refuses text that SQLite takes,
    such as a NUL in a path or a cookie: generated inputs find that)."""
    session = Session(db_url)
    yield session
    session.close()


#: Operations whose acceptance no schema can say: a name's characters (``services.players``),
#: an export file and a game played offline, whose games must replay. Every other check runs on
#: them.
RULES_BEYOND_THE_SCHEMA = {"PUT /api/player", "POST /api/player/import", "POST /api/games/sync"}


def check_operation(operation: Any, session: Session, counts: dict[str, int]) -> None:
    """Run schemathesis' generated cases of one operation through every check."""
    key = f"{operation.method.upper()} {operation.path}"
    excluded = [positive_data_acceptance] if key in RULES_BEYOND_THE_SCHEMA else None

    @given(case=operation.as_strategy())
    @settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
    def run(case: Any) -> None:
        game_id = case.path_parameters.get("game_id") if case.path_parameters else None
        if game_id is not None and len(str(game_id)) % 2 == 0:
            case.path_parameters["game_id"] = session.game_id  # the player's real game
        cookies = {COOKIE: session.token} if len(str(case.body)) % 3 else None
        # an import runs in a compute process at a lower priority: on a busy machine it may take
        # far longer than schemathesis' default 10 s wait
        response = case.call_and_validate(
            cookies=cookies, excluded_checks=excluded, timeout=EVENTUALLY
        )
        assert response.status_code < 500
        counts[key] = counts.get(key, 0) + 1

    run()


def test_every_operation_keeps_its_contract(api_session: Session) -> None:
    counts: dict[str, int] = {}
    results: Any = api_session.schema.get_all_operations()
    operations = [result.ok() for result in results]
    for operation in operations:
        check_operation(operation, api_session, counts)
    assert set(counts) >= {
        "POST /api/games",
        "GET /api/games/current",
        "GET /api/games/{game_id}",
        "POST /api/games/{game_id}/actions",
        "GET /api/highscores",
        "GET /api/player",
        "PUT /api/player",
    }
    assert set(counts) == {f"{op.method.upper()} {op.path}" for op in operations}
    assert counts["POST /api/games/{game_id}/actions"] >= 30
    assert counts["POST /api/games"] >= 10


def test_a_server_error_would_fail_the_check(
    api_session: Session, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same machinery reports a 500: break the state view and watch it fail."""
    from magdagdon.api import game_state

    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("deliberately broken")

    monkeypatch.setattr(game_state, "game_view", broken)
    operation = api_session.schema["/api/games/current"]["GET"]

    @given(case=operation.as_strategy())
    @settings(max_examples=3, deadline=None, suppress_health_check=list(HealthCheck))
    def run(case: Any) -> None:
        case.call_and_validate(cookies={COOKIE: api_session.token})

    with pytest.raises(Exception) as failure:  # noqa: PT011 - any failure report will do
        run()
    assert "500" in str(failure.value) or "deliberately broken" in str(failure.value)
