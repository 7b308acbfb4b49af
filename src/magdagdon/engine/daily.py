"""The daily challenge's dice (docs/rules.md "Modes and records"): the same seed on every copy of
MAGDAGDON.

The engine has no clock: callers name the day (a UTC date).

>>> from datetime import date
>>> from magdagdon.engine import Difficulty
>>> daily_number(date(2026, 12, 1)), daily_number(date(2027, 1, 1))
(1, 32)
>>> daily_seed(date(2026, 12, 1), Difficulty.NIGHTMARE) == daily_seed(
...     date(2026, 12, 1), Difficulty.NIGHTMARE)
True
"""

from __future__ import annotations

import hashlib
from datetime import date
from typing import TYPE_CHECKING

from magdagdon.engine.rules import SEED_LIMIT

if TYPE_CHECKING:
    from magdagdon.engine.rules import Difficulty

#: The day of challenge number 1.
FIRST_DAY = date(2026, 12, 1)


def daily_seed(day: date, difficulty: Difficulty) -> int:
    """The seed of ``day``'s challenge on ``difficulty``: the first 8 bytes, big-endian, of the
    SHA-256 of ``MAGDAGDON daily YYYY-MM-DD difficulty``, modulo 2**53."""
    text = f"MAGDAGDON daily {day.isoformat()} {difficulty.value}"
    digest = hashlib.sha256(text.encode("utf-8")).digest()
    return int.from_bytes(digest[:8], "big") % SEED_LIMIT


def daily_number(day: date) -> int:
    """The challenge's number: 1 on :data:`FIRST_DAY`, one more each day."""
    return (day - FIRST_DAY).days + 1
