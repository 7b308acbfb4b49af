"""Shared fixtures. No test touches the user's data directory: ``MAGDAGDON_DB`` points at a
temporary file for the whole session. ``start_server`` / ``live_server`` run the REAL server
(``python -m magdagdon serve --port 0 --no-browser --db …``) as a separate process."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
from fastapi.testclient import TestClient

from magdagdon.api.app import create_app
from magdagdon.settings import Settings
from magdagdon.store import Store
from server_process import ServerProcess, launch_server

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator
    from pathlib import Path

    from fastapi import FastAPI


@pytest.fixture(scope="session", autouse=True)
def magdagdon_db_env(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """``MAGDAGDON_DB`` names a temporary file for the whole session (servers inherit it)."""
    path = tmp_path_factory.mktemp("magdagdon-env") / "session.sqlite3"
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("MAGDAGDON_DB", str(path))
        yield path


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    """A fresh database file name for one test."""
    return tmp_path / "magdagdon.sqlite3"


@pytest.fixture
def store(db_path: Path) -> Iterator[Store]:
    with Store(db_path) as opened:
        yield opened


@pytest.fixture
def app(db_path: Path) -> FastAPI:
    """The app over a fresh temporary database (closed when the TestClient's lifespan ends),
    without rate limits: tests play far faster than people (tests/api/test_api_limits.py)."""
    return create_app(db_path, settings=Settings(rate_limits=False))


@pytest.fixture
def client(app: FastAPI) -> Iterator[TestClient]:
    """A player: a TestClient keeping its cookie, on the ``app`` fixture."""
    with TestClient(app) as test_client:
        yield test_client


@pytest.fixture
def other_client(app: FastAPI, client: TestClient) -> TestClient:
    """Another player on the same app (its own cookie jar); ``client`` runs the lifespan."""
    return TestClient(app)


@pytest.fixture
def start_server(tmp_path: Path) -> Iterator[Callable[[Path], ServerProcess]]:
    """A factory: ``start_server(db_path)`` runs a real server; all are killed at the end."""
    started: list[ServerProcess] = []

    def start(db: Path) -> ServerProcess:
        server = launch_server(db, tmp_path / "logs")
        started.append(server)
        return server

    yield start
    for server in started:
        server.kill()


@pytest.fixture
def live_server(start_server: Callable[[Path], ServerProcess], tmp_path: Path) -> ServerProcess:
    """A real server on a fresh temporary database; ``live_server.url`` is its base URL."""
    return start_server(tmp_path / "live.sqlite3")
