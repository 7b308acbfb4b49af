"""Browser fixtures: Debian's Chromium for pytest-playwright, one real server per worker, and a
player (a fresh browser context, so its own cookie) in the phone or the desktop layout."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pytest

from server_process import ServerProcess, launch_server
from web.web_helpers import CHROMIUM, CHROMIUM_ARGS, open_player

if TYPE_CHECKING:
    from collections.abc import Iterator

    from playwright.sync_api import Browser

    from web.web_helpers import Player


@pytest.fixture(scope="session")
def browser_type_launch_args() -> dict[str, Any]:
    return {"executable_path": CHROMIUM, "args": CHROMIUM_ARGS}


@pytest.fixture(scope="session")
def web_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """One real server for the browser tests of this worker: each test is a new player (its
    own browser context, so its own cookie), and a player sees only its own games."""
    tmp = tmp_path_factory.mktemp("web-server")
    server = launch_server(tmp / "web.sqlite3", tmp / "logs")
    yield server
    server.kill()


@pytest.fixture(params=["phone", "desktop"])
def layout(request: pytest.FixtureRequest) -> str:
    name: str = request.param
    return name


def opened_player(browser: Browser, url: str, layout: str, **options: Any) -> Iterator[Player]:
    context, opened = open_player(browser, layout, url, **options)
    yield opened
    context.close()
    assert not opened.errors, "the page threw"


@pytest.fixture
def player(browser: Browser, web_server: ServerProcess, layout: str) -> Iterator[Player]:
    """The page opened by a new player in ``layout`` (the tutorial already offered)."""
    yield from opened_player(browser, web_server.url, layout)


@pytest.fixture
def routed_player(browser: Browser, web_server: ServerProcess, layout: str) -> Iterator[Player]:
    """``player`` with no service worker: for a test that routes the page's own requests, which
    the first visit's service worker, taking control of the page mid-test, may take past the
    route (as Playwright advises for routing)."""
    yield from opened_player(browser, web_server.url, layout, service_workers="block")
