"""The SQLite files of MAGDAGDON before Alembic: ``PRAGMA user_version`` counted the hand-written
steps below (1–3). Such a file is brought to version 3 by the missing steps, then stamped with
the first Alembic revision, which is the same schema (see ``migrate.py``); the steps are never
changed or added to: new changes are Alembic revisions.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from sqlalchemy import Connection


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


def user_version(conn: Connection) -> int:
    return int(conn.exec_driver_sql("PRAGMA user_version").scalar_one())


def run_steps(conn: Connection, target: int = LATEST) -> int:
    """Run the missing steps up to ``target`` in the connection's transaction; answer the
    version. (Before Alembic, each step was its own transaction; here the caller's holds
    them all, so a crash leaves the file as it was.)"""
    for step in MIGRATIONS[user_version(conn) : target]:
        for statement in step.statements:
            conn.exec_driver_sql(statement)
        conn.exec_driver_sql(f"PRAGMA user_version = {step.version:d}")
    return user_version(conn)
