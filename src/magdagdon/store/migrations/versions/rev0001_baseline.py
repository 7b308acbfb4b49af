"""players, games (with modes), the action log and High Scores: legacy SQLite version 3

The first revision is the schema that the hand-written SQLite migrations reached at
``PRAGMA user_version = 3``, so a legacy file at version 3 is stamped with it as it is.

Revision ID: 0001
Revises:
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None

Int64 = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    op.create_table(
        "players",
        sa.Column("token", sa.Text, primary_key=True),
        sa.Column("language", sa.Text, nullable=False, server_default="fil"),
        sa.Column("created_at", sa.Text, nullable=False),
        sa.Column("name", sa.Text),
        sa.CheckConstraint("language IN ('fil', 'en')", name="players_language"),
    )
    op.create_table(
        "games",
        sa.Column("id", sa.Text, primary_key=True),
        sa.Column("player", sa.Text, sa.ForeignKey("players.token"), nullable=False),
        sa.Column("difficulty", sa.Text, nullable=False),
        sa.Column("seed", Int64, nullable=False),
        sa.Column("state", sa.Text, nullable=False),
        sa.Column("version", sa.Integer, nullable=False, server_default="0"),
        sa.Column("hints_used", sa.Integer, nullable=False, server_default="0"),
        sa.Column("status", sa.Text, nullable=False, server_default="playing"),
        sa.Column("created_at", sa.Text, nullable=False),
        sa.Column("updated_at", sa.Text, nullable=False),
        sa.Column("finished_at", sa.Text),
        sa.Column("mode", sa.Text, nullable=False, server_default="normal"),
        sa.Column("daily_date", sa.Text),
        sa.CheckConstraint("status IN ('playing', 'finished', 'abandoned')", name="games_status"),
        sa.CheckConstraint(
            "mode IN ('normal', 'daily', 'practice', 'tutorial')", name="games_mode"
        ),
    )
    op.create_index("games_by_player_status", "games", ["player", "status"])
    op.create_index("games_by_daily", "games", ["daily_date", "difficulty", "mode"])
    op.create_table(
        "actions",
        sa.Column("game_id", sa.Text, sa.ForeignKey("games.id"), nullable=False),
        sa.Column("seq", sa.Integer, nullable=False),
        sa.Column("action", sa.Text, nullable=False),
        sa.Column("created_at", sa.Text, nullable=False),
        sa.PrimaryKeyConstraint("game_id", "seq"),
        sqlite_with_rowid=False,
    )
    op.create_table(
        "highscores",
        sa.Column("id", Int64, primary_key=True, autoincrement=True),
        sa.Column("game_id", sa.Text, sa.ForeignKey("games.id"), nullable=False, unique=True),
        sa.Column("player", sa.Text, sa.ForeignKey("players.token"), nullable=False),
        sa.Column("difficulty", sa.Text, nullable=False),
        sa.Column("score", sa.Integer, nullable=False),
        sa.Column("date", sa.Text, nullable=False),
        sa.Column("turns", sa.Integer, nullable=False),
        sa.Column("powers_used", sa.Integer, nullable=False),
        sa.Column("ruins", sa.Integer, nullable=False),
        sa.Column("hints_used", sa.Integer, nullable=False),
        sqlite_autoincrement=True,
    )
    op.create_index(
        "highscores_by_rank",
        "highscores",
        ["player", "difficulty", sa.text("score DESC"), "id"],
    )


def downgrade() -> None:
    raise NotImplementedError("the first revision is not undone: delete the database instead")
