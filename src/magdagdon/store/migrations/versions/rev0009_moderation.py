"""moderation: a player's name hidden by the operator, and the log of what operators did

``players.name_hidden``: the name stays the player's, but everyone else sees the neutral
"Manlalaro XXXX". ``moderation_log``: one row an operator's action (who, when, what, on which
player by the public id that ``services.players.player_id`` gives, never the cookie's token).

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # a plain ADD COLUMN (as rev 0006): a batch operation would copy the table and drop the old
    # one, which the games' foreign key refuses once players exist
    op.add_column(
        "players", sa.Column("name_hidden", sa.Boolean, nullable=False, server_default=sa.false())
    )
    op.create_table(
        "moderation_log",
        sa.Column(
            "id",
            sa.BigInteger().with_variant(sa.Integer(), "sqlite"),
            primary_key=True,
            autoincrement=True,
        ),
        sa.Column("at", sa.Text, nullable=False),
        sa.Column("operator", sa.Text, nullable=False),
        sa.Column("action", sa.Text, nullable=False),
        sa.Column("player", sa.Text, nullable=False),
        sa.Column("detail", sa.Text, nullable=False, server_default=""),
        sqlite_autoincrement=True,
    )


def downgrade() -> None:
    op.drop_table("moderation_log")
    with op.batch_alter_table("players") as batch:
        batch.drop_column("name_hidden")
