"""Browser fixtures for the hosting tests: Debian's Chromium for pytest-playwright, launched as
the page's own tests launch it, except that a page of another site may reach the server on
127.0.0.1 (Chromium's local network access check would refuse the framing test's iframe before
our own policy is even asked)."""

from __future__ import annotations

from typing import Any

import pytest

from web.web_helpers import CHROMIUM, CHROMIUM_ARGS


@pytest.fixture(scope="session")
def browser_type_launch_args() -> dict[str, Any]:
    args = [*CHROMIUM_ARGS, "--disable-features=LocalNetworkAccessChecks"]
    return {"executable_path": CHROMIUM, "args": args}
