"""reviews: each finished game's review, computed in the background (docs/rules.md "Modes and
records" (Review))

One row a game: ``pending`` with its progress while a job computes it, ``done`` with the
review's JSON, or ``failed``. The row is a cache of a pure function of the game's seed and log:
it can always be computed again (a new ``format`` of the review is).

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "reviews",
        sa.Column("game_id", sa.Text, sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("status", sa.Text, nullable=False),
        sa.Column("format", sa.Integer, nullable=False),
        sa.Column("progress", sa.Float, nullable=False, server_default="0"),
        sa.Column("attempts", sa.Integer, nullable=False, server_default="1"),
        sa.Column("result", sa.Text),
        sa.Column("started_at", sa.Text, nullable=False),
        sa.Column("updated_at", sa.Text, nullable=False),
        sa.CheckConstraint("status IN ('pending', 'done', 'failed')", name="reviews_status"),
    )


def downgrade() -> None:
    op.drop_table("reviews")
