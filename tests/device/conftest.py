"""Browser fixtures for the device tests: Debian's Chromium, launched as the page's tests do."""

from __future__ import annotations

from typing import Any

import pytest

from web.web_helpers import CHROMIUM, CHROMIUM_ARGS


@pytest.fixture(scope="session")
def browser_type_launch_args() -> dict[str, Any]:
    return {"executable_path": CHROMIUM, "args": CHROMIUM_ARGS}
