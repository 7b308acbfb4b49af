"""Browser fixtures: Debian's Chromium for pytest-playwright, a real server per test, and a
player (a fresh browser context, so its own cookie) in the phone or the desktop layout."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pytest

from web.web_helpers import CHROMIUM, CHROMIUM_ARGS, open_player

if TYPE_CHECKING:
    from collections.abc import Iterator

    from playwright.sync_api import Browser

    from web.web_helpers import Player


@pytest.fixture(scope="session")
def browser_type_launch_args() -> dict[str, Any]:
    return {"executable_path": CHROMIUM, "args": CHROMIUM_ARGS}


@pytest.fixture(params=["phone", "desktop"])
def layout(request: pytest.FixtureRequest) -> str:
    name: str = request.param
    return name


@pytest.fixture
def player(browser: Browser, live_server: Any, layout: str) -> Iterator[Player]:
    """The page opened by a new player on a fresh server, in ``layout``."""
    context, opened = open_player(browser, layout, live_server.url)
    yield opened
    context.close()
