"""Browser fixtures for the engine worker's test: Debian's Chromium, one live server."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pytest

from device.page_helpers import new_device
from server_process import ServerProcess, launch_server
from web.web_helpers import CHROMIUM, CHROMIUM_ARGS

if TYPE_CHECKING:
    from collections.abc import Iterator

    from playwright.sync_api import Browser, BrowserContext


@pytest.fixture(scope="session")
def browser_type_launch_args() -> dict[str, Any]:
    return {"executable_path": CHROMIUM, "args": CHROMIUM_ARGS}


@pytest.fixture(scope="module")
def engine_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    tmp = tmp_path_factory.mktemp("engine-server")
    server = launch_server(tmp / "engine.sqlite3", tmp / "logs")
    yield server
    server.kill()


@pytest.fixture
def context(browser: Browser) -> Iterator[BrowserContext]:
    """A phone with offline play on (as by default; the other suites switch it off)."""
    made = new_device(browser)
    made.add_init_script("localStorage.setItem('magdagdon.tutorialOffered', '1')")
    made.add_init_script("localStorage.setItem('magdagdon.offlinePlay', '1')")
    # as a device that has the engine: it starts with the page, not after the first turn
    made.add_init_script("localStorage.setItem('magdagdon.engineFetched', '1')")
    yield made
    made.close()
