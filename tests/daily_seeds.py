"""A day's secret seed, read from a server's own database by a test that plays the day with a
mirror of the engine (no answer tells it before the day is over: docs/rules.md)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from magdagdon.store import Store

if TYPE_CHECKING:
    from pathlib import Path


def server_day_seed(db: str | Path, day: str, difficulty: str) -> int:
    """The seed the server on ``db`` drew for ``day``'s challenge on ``difficulty`` (drawn by
    the first ``GET`` or ``POST /api/daily`` of the day)."""
    with Store(db) as store, store.read() as reads:
        seed = reads.day_seed(day, difficulty)
    assert seed is not None, f"no {day} {difficulty} challenge drawn yet"
    return seed
