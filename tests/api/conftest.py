"""Every store and API test runs on both databases."""

from __future__ import annotations

import pytest

DATABASES = ["sqlite", "postgresql"]


@pytest.fixture(params=DATABASES)
def db_kind(request: pytest.FixtureRequest) -> str:
    kind: str = request.param
    return kind
