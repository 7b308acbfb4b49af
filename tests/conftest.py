"""Shared fixtures. No test touches the user's data directory: ``MAGDAGDON_DB`` points at a
temporary file for the whole session. ``start_server`` / ``live_server`` run the REAL server
(``python -m magdagdon serve --port 0 --no-browser --db …``) as a separate process.

``db_url`` is a fresh database of the test's ``db_kind``: a SQLite file, or a database on a real
PostgreSQL server that this session starts (``pg.py``; one per xdist worker). Here ``db_kind`` is
SQLite, except that every store and API test (``tests/api/``) runs on both.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import settings as hypothesis_settings

from magdagdon.api.app import create_app
from magdagdon.settings import Settings
from magdagdon.store import Store
from pg import PostgresServer
from server_process import ServerProcess, launch_server
from waits import EVENTUALLY_MS

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

    from fastapi import FastAPI
    from playwright.sync_api import BrowserContext

# No time limit on a hypothesis example: these machines are shared and noisy, and a test asserts
# behaviour, never speed (the benchmarks under bench/ measure that).
hypothesis_settings.register_profile("magdagdon", deadline=None)
hypothesis_settings.load_profile("magdagdon")

DATABASES = ["sqlite", "postgresql"]
API_TESTS = Path(__file__).resolve().parent / "api"


@pytest.fixture(scope="session", autouse=True)
def playwright_waits() -> Iterator[None]:
    """Playwright waits as long as every other wait here (``waits.EVENTUALLY``): ``expect``'s
    assertions, and every browser context's actions, waits and navigations, however the test
    made its context."""
    from playwright.sync_api import Browser, expect

    expect.set_options(timeout=EVENTUALLY_MS)
    new_context = Browser.new_context

    def patient_context(self: Browser, *args: Any, **options: Any) -> BrowserContext:
        context = new_context(self, *args, **options)
        context.set_default_timeout(EVENTUALLY_MS)
        context.set_default_navigation_timeout(EVENTUALLY_MS)
        return context

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Browser, "new_context", patient_context)
        yield


@pytest.fixture(scope="session", autouse=True)
def magdagdon_db_env(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """``MAGDAGDON_DB`` names a temporary file for the whole session (servers inherit it)."""
    path = tmp_path_factory.mktemp("magdagdon-env") / "session.sqlite3"
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("MAGDAGDON_DB", str(path))
        yield path


@pytest.fixture(scope="session")
def pg_server() -> Iterator[PostgresServer]:
    """This worker's PostgreSQL server, started on first use."""
    server = PostgresServer()
    yield server
    server.stop()


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    """A fresh SQLite file name for one test (for what only SQLite has: files, PRAGMAs)."""
    return tmp_path / "magdagdon.sqlite3"


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """``db_kind``, the kind of database of ``db_url``: both in tests/api; elsewhere SQLite, the
    embedded default (the page and the bots do not care which database is behind the API)."""
    if "db_kind" in metafunc.fixturenames:
        in_api = API_TESTS in metafunc.definition.path.parents
        metafunc.parametrize("db_kind", DATABASES if in_api else DATABASES[:1])


@pytest.fixture
def make_db(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[Callable[..., str]]:
    """A factory of fresh databases: ``make_db("sqlite")`` a new file, ``make_db("postgresql")``
    a copy of the migrated template; ``migrated=False`` an empty one. All are dropped after."""
    made: list[str] = []
    server: list[PostgresServer] = []

    def make(kind: str, *, migrated: bool = True) -> str:
        if kind == "sqlite":
            url = str(tmp_path / f"db{len(made)}.sqlite3")
        else:
            if not server:
                server.append(request.getfixturevalue("pg_server"))
            url = server[0].create_database(migrated=migrated)
        made.append(url)
        return url

    yield make
    for url in made:
        if server and url.startswith("postgresql://"):
            server[0].drop_database(url)


@pytest.fixture
def new_db(db_kind: str, make_db: Callable[..., str]) -> Callable[..., str]:
    """``make_db`` for this test's kind of database (``db_kind``)."""

    def make(*, migrated: bool = True) -> str:
        return make_db(db_kind, migrated=migrated)

    return make


@pytest.fixture
def db_url(new_db: Callable[..., str]) -> str:
    """A fresh database for one test, on SQLite and on PostgreSQL: a file path or a URL."""
    return new_db()


@pytest.fixture
def store(db_url: str) -> Iterator[Store]:
    with Store(db_url) as opened:
        yield opened


@pytest.fixture
def app(db_url: str) -> FastAPI:
    """The app over a fresh database (closed when the TestClient's lifespan ends), without rate
    limits: tests play far faster than people (tests/api/test_api_limits.py)."""
    return create_app(db_url, settings=Settings(rate_limits=False))


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
def start_server(tmp_path: Path) -> Iterator[Callable[[str | Path], ServerProcess]]:
    """A factory: ``start_server(db)`` runs a real server on a file or a URL; all are killed at
    the end."""
    started: list[ServerProcess] = []

    def start(db: str | Path) -> ServerProcess:
        server = launch_server(db, tmp_path / "logs")
        started.append(server)
        return server

    yield start
    for server in started:
        server.kill()


@pytest.fixture
def live_server(
    start_server: Callable[[str | Path], ServerProcess], tmp_path: Path
) -> ServerProcess:
    """A real server on a fresh SQLite file (the browser tests' server: the page does not care
    which database is behind it); ``live_server.url`` is its base URL."""
    return start_server(tmp_path / "live.sqlite3")
