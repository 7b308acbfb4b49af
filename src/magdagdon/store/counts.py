"""The statements of the shared rate counters (``counters.py``), part of
:class:`~magdagdon.store.queries.Rows`: one upsert counts a request in all of its counters at
once and answers each counter's hits; a refused request's counts are taken back; ended windows
are swept. They run on the driver's own cursor: SQLAlchemy's statement machinery costs more
than the statement itself on this path, which every limited request takes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Sequence

    from sqlalchemy import Connection

    from magdagdon.store.prepared import Driver

#: Now, in whole seconds since the epoch, by the database's clock (so that hosts whose clocks
#: differ agree on a window).
_EPOCH = {
    "sqlite": "CAST(strftime('%s', 'now') AS INTEGER)",
    "postgresql": "CAST(floor(extract(epoch FROM statement_timestamp())) AS BIGINT)",
}
_MARK = {"sqlite": "?", "postgresql": "%s"}  # the driver's placeholder
_upserts: dict[tuple[str, int], str] = {}


def _upsert(dialect: str, size: int) -> str:
    """The upsert of ``size`` counters: a window is aligned to its length (a minute's starts on
    the minute); each row answers (key, hits, window_end, now)."""
    statement = _upserts.get((dialect, size))
    if statement is None:
        mark, now = _MARK[dialect], _EPOCH[dialect]
        row = f"({mark}, ({now} / {mark} + 1) * {mark}, 1)"
        statement = (
            "INSERT INTO rate_counters (key, window_end, hits) VALUES "
            + ", ".join([row] * size)
            + " ON CONFLICT (key) DO UPDATE SET hits = CASE"
            " WHEN rate_counters.window_end = excluded.window_end"
            " THEN rate_counters.hits + 1 ELSE 1 END,"
            " window_end = excluded.window_end"
            f" RETURNING key, hits, window_end, {now}"
        )
        _upserts[(dialect, size)] = statement
    return statement


class CountRows:
    """The rate counters' writes (see the module)."""

    conn: Connection
    driver: Driver

    def count_hits(self, counts: Sequence[tuple[str, int]]) -> list[tuple[str, int, int, int]]:
        """Count one hit in each counter ``(key, period)``: each one's (key, hits, window_end,
        now), after this hit."""
        params: list[Any] = []
        for key, period in counts:
            params += (key, period, period)
        found = self.driver.execute(_upsert(self.conn.dialect.name, len(counts)), tuple(params))
        return [tuple(row) for row in found.fetchall()]

    def uncount(self, hits: Sequence[tuple[str, int]]) -> None:
        """Take back one hit of each ``(key, window_end)``."""
        mark = _MARK[self.conn.dialect.name]
        undo = (
            f"UPDATE rate_counters SET hits = hits - 1 WHERE key = {mark} AND window_end = {mark}"
        )
        for key, end in hits:
            self.driver.execute(undo, (key, end))

    def sweep_counts(self) -> None:
        """Delete the ended windows."""
        now = _EPOCH[self.conn.dialect.name]
        self.driver.execute(f"DELETE FROM rate_counters WHERE window_end <= {now}")
