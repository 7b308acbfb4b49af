"""``magdagdon db copy --from A --to B``: every player, game (with its action log) and High Score
of one database into another, either kind to either kind, with the daily challenge's seeds.

The source is read as one snapshot, so a server may go on using it meanwhile. The target must
hold no player yet (a fresh file, or a new PostgreSQL database): copying into
one in use would have to decide whose game wins, and refusing is clearer (``TargetNotEmptyError``
names the target). The copy is one transaction on the target, so a copy that fails leaves it
empty and can simply be run again. Rows are copied as they are, ids included: a High Score's id
orders ties, so the copy ranks exactly as the original.

Each table is streamed from the source and written in bulk (``bulk.py``: ``COPY`` on
PostgreSQL), so the copy's memory stays the same however big the database; at 100k players it
takes minutes (docs/figures.md "Scale"). ``pg_dump`` is the faster way between two PostgreSQL
servers (docs/hosting.md).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from magdagdon.store.errors import TargetNotEmptyError
from magdagdon.store.paths import describe
from magdagdon.store.store import Store
from magdagdon.store.tables import (
    actions,
    daily_seeds,
    day_scores,
    game_results,
    games,
    highscores,
    players,
)

if TYPE_CHECKING:
    import os

    from sqlalchemy import Table

# parents before children (the foreign keys), each in its primary key's order
_TABLES: tuple[Table, ...] = (
    players,
    games,
    actions,
    highscores,
    game_results,
    day_scores,
    daily_seeds,
)


@dataclass(frozen=True, slots=True)
class Copied:
    players: int
    games: int
    actions: int
    highscores: int
    results: int = 0  # finished games' summaries (Statistics)


def copy_database(source: str | os.PathLike[str], target: str | os.PathLike[str]) -> Copied:
    """Copy everything from ``source`` into the empty ``target`` (both migrated first)."""
    with Store(source) as origin, Store(target) as destination:
        counts: dict[str, int] = {}
        with origin.snapshot() as reads, destination.write() as rows:
            if rows.count(players):
                raise TargetNotEmptyError(
                    f"{describe(target)} already holds players: copy into a new database"
                )
            # the days' secret seeds: the copy's are the ones its games were played with (a
            # server not used yet may have drawn some of its own)
            rows.empty(daily_seeds)
            for table in _TABLES:
                counts[table.name] = rows.bulk_insert(table, reads.stream(table))
            rows.restart_high_score_ids()
    return Copied(
        counts["players"],
        counts["games"],
        counts["actions"],
        counts["highscores"],
        counts["game_results"],
    )
