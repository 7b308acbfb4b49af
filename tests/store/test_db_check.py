"""A start checks a SQLite file whole only while it is small (its cost stays flat however big
the data); ``magdagdon db check`` checks any file whole, on demand."""

from __future__ import annotations

from typing import TYPE_CHECKING

from magdagdon import cli
from magdagdon.store import Store, health
from storage_helpers import damaged_file

if TYPE_CHECKING:
    from pathlib import Path

    import pytest


def test_a_start_checks_only_a_small_file_and_db_check_any(
    db_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = damaged_file(db_path)
    with Store(bad) as store:
        assert "damaged" in (health.damage(store) or "")
        monkeypatch.setattr(health, "START_CHECK_BYTES", 4096)
        assert health.damage(store) is None  # too big to check at every start
        assert "damaged" in (health.damage(store, whole=True) or "")
    assert cli.main(["db", "check", "--db", str(bad)]) == 1
    assert "the database file is damaged" in capsys.readouterr().err


def test_db_check_passes_a_sound_file(db_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    Store(db_path).close()
    assert cli.main(["db", "check", "--db", str(db_path)]) == 0
    assert "every page is sound" in capsys.readouterr().out
