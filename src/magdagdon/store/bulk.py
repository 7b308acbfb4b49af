"""Whole tables read and written in bulk (``db copy``, ``bench/scale_bench.py``'s generator),
in bounded memory however big they are.

A read streams: on PostgreSQL through a server-side cursor (psycopg would otherwise hold the
whole result in memory), on SQLite straight off sqlite3's cursor, :data:`CHUNK` rows at a time.
A write on PostgreSQL is ``COPY … FROM STDIN`` (one round trip for any number of rows, where
``executemany`` takes one a row); on SQLite, sqlite3's own ``executemany`` of one prepared
INSERT. Both run in the transaction of the :class:`~magdagdon.store.rows.Rows` that makes them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sqlalchemy import func, select, text

if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator

    from sqlalchemy import Connection, Table

CHUNK = 2000
_RESTART_HIGH_SCORE_IDS = text(
    "SELECT setval(pg_get_serial_sequence('highscores', 'id'), "
    "coalesce((SELECT max(id) FROM highscores), 0) + 1, false)"
)


class BulkReads:
    """Whole tables, streamed (part of :class:`~magdagdon.store.rows.Reads`)."""

    conn: Connection

    def stream(self, table: Table) -> Iterator[list[tuple[Any, ...]]]:
        """Every row of ``table`` in its primary key's order, :data:`CHUNK` at a time, each a
        tuple of its columns in the table's order."""
        query = select(table).order_by(*table.primary_key.columns)
        result = self.conn.execution_options(stream_results=True, yield_per=CHUNK).execute(query)
        for chunk in result.partitions(CHUNK):
            yield [tuple(row) for row in chunk]

    def count(self, table: Table) -> int:
        return int(self.conn.execute(select(func.count()).select_from(table)).scalar_one())


class BulkWrites:
    """Rows written in bulk (part of :class:`~magdagdon.store.rows.Rows`)."""

    conn: Connection

    def bulk_insert(self, table: Table, chunks: Iterable[list[tuple[Any, ...]]]) -> int:
        """Insert every row of ``chunks`` (tuples of ``table``'s columns in its order); answer
        how many."""
        names = [column.name for column in table.columns]
        driver: Any = self.conn.connection.driver_connection
        written = 0
        if self.conn.dialect.name == "postgresql":
            columns = ", ".join(f'"{name}"' for name in names)
            with (
                driver.cursor() as cursor,
                cursor.copy(f'COPY "{table.name}" ({columns}) FROM STDIN') as copy,
            ):
                for chunk in chunks:
                    for row in chunk:
                        copy.write_row(row)
                    written += len(chunk)
            return written
        marks = ", ".join("?" for _ in names)
        statement = f'INSERT INTO "{table.name}" ({", ".join(names)}) VALUES ({marks})'
        cursor = driver.cursor()
        try:
            for chunk in chunks:
                cursor.executemany(statement, chunk)
                written += len(chunk)
        finally:
            cursor.close()
        return written

    def empty(self, table: Table) -> None:
        """Remove every row of ``table``."""
        self.conn.execute(table.delete())

    def restart_high_score_ids(self) -> None:
        """After High Scores written with their ids: the next one comes after them
        (PostgreSQL's sequence does not move for explicit ids; SQLite's AUTOINCREMENT does)."""
        if self.conn.dialect.name == "postgresql":
            self.conn.execute(_RESTART_HIGH_SCORE_IDS)
