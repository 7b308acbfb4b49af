"""When a game that comes from a device says it was played: the times of an export file's game
(``transfer.py``: ``created_at``, ``finished_at``) and of a game played in the page's engine
(``sync.py``: ``played_at``, ``finished_at``). Each is an ISO-8601 time a game of MAGDAGDON can
have: not before :data:`EARLIEST`, not after the latest time the caller allows, and a game ends
after it begins, and a day's challenge begins on its day (UTC) or later. A refusal is
:class:`TimeRefusedError`, naming the field; each caller answers it with its own error."""

from __future__ import annotations

from datetime import UTC, date, datetime, time

from magdagdon import clock

#: No game of MAGDAGDON was played before this.
EARLIEST = datetime(2020, 1, 1, tzinfo=UTC)


class TimeRefusedError(ValueError):
    """A time a game cannot have: ``field`` names it, the message says why (the field first)."""

    def __init__(self, field: str, words: str) -> None:
        super().__init__(words)
        self.field = field


def moment(field: str, text: str, latest: datetime) -> datetime:
    """The ISO-8601 time ``text`` of ``field`` (``Z`` or an offset; none is UTC), as a UTC
    time between :data:`EARLIEST` and ``latest``."""

    def refuse(reason: str) -> TimeRefusedError:
        return TimeRefusedError(field, f"{field} {text!r} {reason}")

    try:
        found = clock.parse_aware(text)
    except ValueError:
        raise refuse("is not an ISO-8601 time") from None
    if found < EARLIEST:
        raise refuse(f"is before {EARLIEST.date().isoformat()}, before any MAGDAGDON game")
    if found > latest:
        raise refuse("is in the future")
    return found.astimezone(UTC)


def check_order(
    began: tuple[str, datetime], ended: tuple[str, datetime | None], day: date | None
) -> None:
    """A game ends after it begins; a day's challenge is played from that day on (UTC).
    ``began`` and ``ended``: each time with its field's name."""
    (began_field, began_at), (ended_field, ended_at) = began, ended
    if ended_at is not None and ended_at < began_at:
        raise TimeRefusedError(ended_field, f"{ended_field} is before {began_field}")
    if day is not None and began_at < datetime.combine(day, time(), tzinfo=UTC):
        words = f"{began_field} is before its challenge's day {day.isoformat()} began"
        raise TimeRefusedError(began_field, words)
