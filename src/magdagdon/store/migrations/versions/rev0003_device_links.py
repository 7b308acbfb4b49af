"""device links: one-time codes (stored as their SHA-256) that make another device a player

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "device_links",
        sa.Column("code_hash", sa.Text, primary_key=True),
        sa.Column("player", sa.Text, sa.ForeignKey("players.token"), nullable=False),
        sa.Column("created_at", sa.Text, nullable=False),
        sa.Column("expires_at", sa.Text, nullable=False),
        sa.Column("used_at", sa.Text),
    )
    op.create_index("device_links_by_expiry", "device_links", ["expires_at"])


def downgrade() -> None:
    op.drop_index("device_links_by_expiry", table_name="device_links")
    op.drop_table("device_links")
