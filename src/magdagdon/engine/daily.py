"""The daily challenge's numbers and its commitment (docs/rules.md "Modes and records").

A day's dice are a secret of the server until they are rolled: it draws a random seed for each
day and difficulty, publishes the seed's commitment from the start of the day and the seed once
the day is over. Anyone can then check the seed against the commitment and replay every attempt
of that day. The engine has no clock and no randomness of its own here: callers name the day (a
UTC date) and bring the seed.

>>> from datetime import date
>>> from magdagdon.engine import Difficulty
>>> daily_number(date(2026, 12, 1)), daily_number(date(2027, 1, 1))
(1, 32)
>>> seed_text(date(2026, 12, 3), Difficulty.NIGHTMARE, 42)
'MAGDAGDON daily 2026-12-03 nightmare 42'
>>> commitment(date(2026, 12, 3), Difficulty.NIGHTMARE, 42)[:16]
'5f4336c53600db5c'
"""

from __future__ import annotations

import hashlib
from datetime import date
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from magdagdon.engine.rules import Difficulty

#: The day of challenge number 1.
FIRST_DAY = date(2026, 12, 1)


def daily_number(day: date) -> int:
    """The challenge's number: 1 on :data:`FIRST_DAY`, one more each day."""
    return (day - FIRST_DAY).days + 1


def seed_text(day: date, difficulty: Difficulty, seed: int) -> str:
    """The text whose SHA-256 is the commitment: ``MAGDAGDON daily YYYY-MM-DD DIFFICULTY SEED``
    (the API's lower-case difficulty, the seed in decimal)."""
    return f"MAGDAGDON daily {day.isoformat()} {difficulty.value} {seed}"


def commitment(day: date, difficulty: Difficulty, seed: int) -> str:
    """The lowercase hex SHA-256 of :func:`seed_text`'s UTF-8: published from the start of the
    day, it binds the server to ``seed`` without telling it."""
    return hashlib.sha256(seed_text(day, difficulty, seed).encode("utf-8")).hexdigest()
