"""The day's scores: how many ranked attempts of a day and difficulty scored each score

``day_scores`` is kept with ``game_results`` in the same transaction (``store/daily.py``), so
that an attempt's rank is the sum of the few rows of the better scores and a count of the
same score's attempts that ended before it, however many attempts the day has. It starts as
the count of the ranked attempts already kept.

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "day_scores",
        sa.Column("daily_date", sa.Text, nullable=False),
        sa.Column("difficulty", sa.Text, nullable=False),
        sa.Column("score", sa.Integer, nullable=False),
        sa.Column("attempts", sa.Integer, nullable=False),
        sa.PrimaryKeyConstraint("daily_date", "difficulty", "score"),
    )
    op.execute(
        "INSERT INTO day_scores (daily_date, difficulty, score, attempts) "
        "SELECT daily_date, difficulty, score, count(*) FROM game_results "
        "WHERE daily_date IS NOT NULL GROUP BY daily_date, difficulty, score"
    )


def downgrade() -> None:
    op.drop_table("day_scores")
