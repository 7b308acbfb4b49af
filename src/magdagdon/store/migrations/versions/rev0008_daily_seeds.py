"""daily_seeds: each day's secret seed of the daily challenge, per difficulty

One row a day and difficulty, drawn at random by the first server process that needs it and
shared by every process and host on the database; published once the day is over. The days
already played keep the seed their games were played with (the old rule's, a hash of the date,
which every copy of MAGDAGDON knew), so that every stored attempt still replays.

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "daily_seeds",
        sa.Column("day", sa.Text, nullable=False),
        sa.Column("difficulty", sa.Text, nullable=False),
        sa.Column(
            "seed",
            sa.BigInteger().with_variant(sa.Integer(), "sqlite"),
            nullable=False,
        ),
        sa.Column("created_at", sa.Text, nullable=False),
        sa.PrimaryKeyConstraint("day", "difficulty"),
    )
    op.execute(
        "INSERT INTO daily_seeds (day, difficulty, seed, created_at) "
        "SELECT daily_date, difficulty, MIN(seed), MIN(created_at) FROM games "
        "WHERE daily_date IS NOT NULL GROUP BY daily_date, difficulty"
    )


def downgrade() -> None:
    op.drop_table("daily_seeds")
