"""Browser fixtures for the hosting tests: Debian's Chromium for pytest-playwright, launched as
the page's own tests launch it."""

from __future__ import annotations

from typing import Any

import pytest

from web.web_helpers import CHROMIUM, CHROMIUM_ARGS


@pytest.fixture(scope="session")
def browser_type_launch_args() -> dict[str, Any]:
    return {"executable_path": CHROMIUM, "args": CHROMIUM_ARGS}
