"""Browser fixtures for the engine worker's test: Debian's Chromium, one live server."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pytest

from server_process import ServerProcess, launch_server
from web.web_helpers import CHROMIUM, CHROMIUM_ARGS

if TYPE_CHECKING:
    from collections.abc import Iterator


@pytest.fixture(scope="session")
def browser_type_launch_args() -> dict[str, Any]:
    return {"executable_path": CHROMIUM, "args": CHROMIUM_ARGS}


@pytest.fixture(scope="module")
def engine_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    tmp = tmp_path_factory.mktemp("engine-server")
    server = launch_server(tmp / "engine.sqlite3", tmp / "logs")
    yield server
    server.kill()
