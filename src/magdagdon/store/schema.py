"""The database schema, versioned from day one: ``PRAGMA user_version`` counts the migration steps
applied, and :data:`MIGRATIONS` lists every step in order. A file at version *n* is brought up to
date by running steps *n+1*, *n+2*, …, each in its own transaction together with the new
``user_version``, so a crash between two steps leaves a file at a known version.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import sqlite3


class SchemaTooNewError(RuntimeError):
    """The file was written by a newer MAGDAGDON than this one."""


@dataclass(frozen=True, slots=True)
class Migration:
    version: int
    title: str
    statements: tuple[str, ...]


MIGRATIONS: tuple[Migration, ...] = (
    Migration(
        1,
        "players, games, the action log and high scores",
        (
            """CREATE TABLE players (
                token TEXT PRIMARY KEY,
                language TEXT NOT NULL DEFAULT 'fil' CHECK (language IN ('fil', 'en')),
                created_at TEXT NOT NULL
            )""",
            """CREATE TABLE games (
                id TEXT PRIMARY KEY,
                player TEXT NOT NULL REFERENCES players(token),
                difficulty TEXT NOT NULL,
                seed INTEGER NOT NULL,
                state TEXT NOT NULL,
                version INTEGER NOT NULL DEFAULT 0,
                hints_used INTEGER NOT NULL DEFAULT 0,
                status TEXT NOT NULL DEFAULT 'playing'
                    CHECK (status IN ('playing', 'finished', 'abandoned')),
                created_at TEXT NOT NULL,
                updated_at TEXT NOT NULL,
                finished_at TEXT
            )""",
            """CREATE TABLE actions (
                game_id TEXT NOT NULL REFERENCES games(id),
                seq INTEGER NOT NULL,
                action TEXT NOT NULL,
                created_at TEXT NOT NULL,
                PRIMARY KEY (game_id, seq)
            ) WITHOUT ROWID""",
            """CREATE TABLE highscores (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                game_id TEXT NOT NULL UNIQUE REFERENCES games(id),
                player TEXT NOT NULL REFERENCES players(token),
                difficulty TEXT NOT NULL,
                score INTEGER NOT NULL,
                date TEXT NOT NULL,
                turns INTEGER NOT NULL,
                powers_used INTEGER NOT NULL,
                ruins INTEGER NOT NULL,
                hints_used INTEGER NOT NULL
            )""",
        ),
    ),
    Migration(
        2,
        "indexes for the current game and the High Scores of a difficulty",
        (
            "CREATE INDEX games_by_player_status ON games (player, status)",
            "CREATE INDEX highscores_by_rank ON highscores (player, difficulty, score DESC, id)",
        ),
    ),
    Migration(
        3,
        "game modes (normal, daily, practice, tutorial), the daily challenge's day, player names",
        (
            "ALTER TABLE games ADD COLUMN mode TEXT NOT NULL DEFAULT 'normal' "
            "CHECK (mode IN ('normal', 'daily', 'practice', 'tutorial'))",
            "ALTER TABLE games ADD COLUMN daily_date TEXT",
            "ALTER TABLE players ADD COLUMN name TEXT",
            "CREATE INDEX games_by_daily ON games (daily_date, difficulty, mode)",
        ),
    ),
)

LATEST = MIGRATIONS[-1].version


def user_version(conn: sqlite3.Connection) -> int:
    row = conn.execute("PRAGMA user_version").fetchone()
    return int(row[0])


def migrate(conn: sqlite3.Connection, target: int = LATEST) -> int:
    """Run the missing steps up to ``target`` on an autocommit connection; answer the version."""
    if user_version(conn) > LATEST:
        raise SchemaTooNewError(
            f"the database is at schema version {user_version(conn)}; "
            f"this MAGDAGDON knows versions up to {LATEST}"
        )
    for step in MIGRATIONS[:target]:
        conn.execute("BEGIN IMMEDIATE")
        try:
            if user_version(conn) >= step.version:  # another process got here first
                conn.execute("ROLLBACK")
                continue
            for statement in step.statements:
                conn.execute(statement)
            conn.execute(f"PRAGMA user_version = {step.version:d}")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        conn.execute("COMMIT")
    return user_version(conn)
