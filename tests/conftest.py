"""Shared fixtures. No test touches the user's data directory: ``MAGDAGDON_DB`` points at a
temporary file for the whole session. ``start_server`` / ``live_server`` run the REAL server
(``python -m magdagdon serve --port 0 --no-browser --db …``) as a separate process."""

from __future__ import annotations

import os
import queue
import signal
import subprocess
import sys
import threading
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import pytest
from fastapi.testclient import TestClient

from magdagdon.api.app import create_app
from magdagdon.store import Store

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator
    from pathlib import Path

    from fastapi import FastAPI

SERVER_START_TIMEOUT = 30.0


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
    """The app over a fresh temporary database (closed when the TestClient's lifespan ends)."""
    return create_app(db_path)


@pytest.fixture
def client(app: FastAPI) -> Iterator[TestClient]:
    """A player: a TestClient keeping its cookie, on the ``app`` fixture."""
    with TestClient(app) as test_client:
        yield test_client


@pytest.fixture
def other_client(app: FastAPI, client: TestClient) -> TestClient:
    """Another player on the same app (its own cookie jar); ``client`` runs the lifespan."""
    return TestClient(app)


@dataclass
class ServerProcess:
    """A running ``magdagdon serve`` process."""

    process: subprocess.Popen[str]
    url: str
    host: str
    port: int
    db: Path
    stderr_path: Path
    lines: list[str] = field(default_factory=list)

    def stop(self, timeout: float = 15.0) -> int:
        """Ctrl-C (SIGINT) and wait; answer the exit status."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
        return self.process.wait(timeout)

    def kill(self) -> None:
        """SIGKILL: no clean-up of any kind."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
        self.process.wait(15)

    def stderr(self) -> str:
        return self.stderr_path.read_text(encoding="utf-8", errors="replace")


def launch_server(db: Path, log_dir: Path, *extra: str) -> ServerProcess:
    """Start ``python -m magdagdon serve --port 0 --no-browser --db DB`` and wait for its line."""
    log_dir.mkdir(parents=True, exist_ok=True)
    stderr_path = log_dir / f"server-{os.urandom(4).hex()}.stderr"
    command = [sys.executable, "-m", "magdagdon", "serve", "--port", "0", "--no-browser"]
    command += ["--db", str(db), *extra]
    with stderr_path.open("w") as stderr:
        process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=stderr, text=True)
    assert process.stdout is not None
    lines: queue.Queue[str] = queue.Queue()
    stdout = process.stdout

    def pump() -> None:
        for line in stdout:
            lines.put(line)
        lines.put("")

    threading.Thread(target=pump, daemon=True).start()
    try:
        first = lines.get(timeout=SERVER_START_TIMEOUT)
    except queue.Empty:
        process.kill()
        process.wait()
        raise AssertionError("the server printed nothing in time") from None
    if not first.startswith("Serving on http://"):
        process.kill()
        process.wait()
        raise AssertionError(f"unexpected first line {first!r}: {stderr_path.read_text()}")
    url = first.removeprefix("Serving on ").strip()
    host, port = url.removeprefix("http://").rsplit(":", 1)
    return ServerProcess(process, url, host, int(port), db, stderr_path, [first])


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
