"""The server's clock, and the file that lets a test move it (``MAGDAGDON_CLOCK``)."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from typing import TYPE_CHECKING

from magdagdon import clock

if TYPE_CHECKING:
    from pathlib import Path

    import pytest


def test_the_real_clock_is_utc_and_now(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(clock.ENV_VAR, raising=False)
    before = datetime.now(UTC)
    read = clock.now()
    assert read.tzinfo is not None
    assert before - timedelta(seconds=1) <= read <= datetime.now(UTC) + timedelta(seconds=1)


def test_a_clock_file_moves_time_at_every_call(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    file = tmp_path / "clock"
    file.write_text("2026-12-01T23:59:59.500Z")
    monkeypatch.setenv(clock.ENV_VAR, str(file))
    assert clock.now() == datetime(2026, 12, 1, 23, 59, 59, 500_000, tzinfo=UTC)
    assert clock.today() == date(2026, 12, 1)
    assert clock.stamp() == "2026-12-01T23:59:59.500Z"
    file.write_text("2026-12-02T00:00:01+00:00\n")
    assert clock.today() == date(2026, 12, 2)
    assert clock.stamp() == "2026-12-02T00:00:01.000Z"
