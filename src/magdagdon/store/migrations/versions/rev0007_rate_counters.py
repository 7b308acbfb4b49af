"""rate_counters: the rate limits' counters, shared by every server process and host

One row a counter (a rule, a player or an address, a rate): its hits in the fixed window that
ends at ``window_end``, in seconds since 1970 by the database's clock. Nothing here outlives a
window: the rows are swept once their window has ended, and losing them all loses nothing.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "rate_counters",
        sa.Column("key", sa.Text, primary_key=True),
        sa.Column(
            "window_end",
            sa.BigInteger().with_variant(sa.Integer(), "sqlite"),
            nullable=False,
        ),
        sa.Column("hits", sa.Integer, nullable=False),
    )
    op.create_index("rate_counters_by_window_end", "rate_counters", ["window_end"])


def downgrade() -> None:
    op.drop_index("rate_counters_by_window_end", table_name="rate_counters")
    op.drop_table("rate_counters")
