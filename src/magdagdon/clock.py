"""The server's clock: the one place that reads the time of day.

Everything dated (games, High Scores, the daily challenge's day, device links, clean-up) asks
:func:`now`. Tests move time by naming a file in ``MAGDAGDON_CLOCK``: while it is set, the time is
read from that file (ISO-8601, e.g. ``2026-12-01T23:59:00Z``) at every call, so a test can move
the clock of a real server process by writing the file. Operators never set it.
"""

from __future__ import annotations

import os
from datetime import UTC, date, datetime
from pathlib import Path

ENV_VAR = "MAGDAGDON_CLOCK"


def now() -> datetime:
    """The current time, UTC, timezone-aware."""
    named = os.environ.get(ENV_VAR)
    if named:
        text = Path(named).read_text(encoding="utf-8").strip()
        return parse(text)
    return datetime.now(UTC)


def parse(text: str) -> datetime:
    """An ISO-8601 time (``Z`` or an offset; none is UTC), as a UTC time; ``ValueError`` when
    it is not one (``OverflowError`` at the edges of year 1 and 9999: see :func:`parse_aware`)."""
    return parse_aware(text).astimezone(UTC)


def parse_aware(text: str) -> datetime:
    """An ISO-8601 time with its own offset (none is UTC), not yet converted: aware times
    compare without converting, so a range check never overflows."""
    moment = datetime.fromisoformat(text.replace("Z", "+00:00"))
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def today() -> date:
    """The UTC date: the daily challenge's day (docs/rules.md "Modes and records")."""
    return now().date()


def stamp(moment: datetime | None = None) -> str:
    """An ISO-8601 UTC time to the millisecond, as the API shows times (``…T12:00:00.000Z``)."""
    moment = now() if moment is None else moment
    return moment.astimezone(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")
