"""A day's secret seed, read from a server's own database by a test that plays the day with a
mirror of the engine (no answer tells it before the day is over: docs/rules.md)."""

from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING

from magdagdon.engine import Difficulty
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


def plant_day_seeds(db: str | Path, day: str) -> None:
    """Store ``day``'s seeds before a server draws its own: the seeds the page's screens were
    first drawn with (the first 8 bytes of the SHA-256 of ``MAGDAGDON daily DAY DIFFICULTY``,
    modulo 2**53), so that their pictures show the same games every run."""
    with Store(db) as store, store.write() as rows:
        for difficulty in Difficulty:
            text = f"MAGDAGDON daily {day} {difficulty.value}"
            seed = int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big") % 2**53
            rows.keep_day_seed(day, difficulty.value, seed, f"{day}T00:00:00.000Z")
