"""``magdagdon db copy --from A --to B``: every player, game (with its action log) and High Score
of one database into another, either kind to either kind, with the daily challenge's seeds.

The source is read as one snapshot, so a server may go on using it meanwhile. The target must
hold no player yet (a fresh file, or a new PostgreSQL database): copying into
one in use would have to decide whose game wins, and refusing is clearer (``TargetNotEmptyError``
names the target). The copy is one transaction on the target, so a copy that fails leaves it
empty and can simply be run again. Rows are copied as they are, ids included: a High Score's id
orders ties, so the copy ranks exactly as the original.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from sqlalchemy import delete, func, select, text

from magdagdon.store.errors import TargetNotEmptyError
from magdagdon.store.paths import describe
from magdagdon.store.store import Store
from magdagdon.store.tables import (
    actions,
    daily_seeds,
    game_results,
    games,
    highscores,
    players,
)

if TYPE_CHECKING:
    import os

    from sqlalchemy import Table

# parents before children (the foreign keys), each in its primary key's order
_TABLES: tuple[Table, ...] = (players, games, actions, highscores, game_results, daily_seeds)
_BATCH = 1000


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
            reader, writer = reads.conn, rows.conn
            if writer.execute(select(func.count()).select_from(players)).scalar_one():
                raise TargetNotEmptyError(
                    f"{describe(target)} already holds players: copy into a new database"
                )
            # the days' secret seeds: the copy's are the ones its games were played with (a
            # server not used yet may have drawn some of its own)
            writer.execute(delete(daily_seeds))
            for table in _TABLES:
                counts[table.name] = 0
                result = reader.execute(select(table).order_by(*table.primary_key.columns))
                while batch := result.fetchmany(_BATCH):
                    writer.execute(table.insert(), [row._asdict() for row in batch])
                    counts[table.name] += len(batch)
            if writer.dialect.name == "postgresql":
                # explicit ids do not move the sequence: the next High Score must come after
                writer.execute(
                    text(
                        "SELECT setval(pg_get_serial_sequence('highscores', 'id'), "
                        "coalesce((SELECT max(id) FROM highscores), 0) + 1, false)"
                    )
                )
    return Copied(
        counts["players"],
        counts["games"],
        counts["actions"],
        counts["highscores"],
        counts["game_results"],
    )
