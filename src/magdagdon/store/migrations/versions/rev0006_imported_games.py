"""games.imported: whether a game came in by an import rather than being played here

docs/rules.md "Modes and records" (Where a rank comes from): the day's table and streaks count only
daily attempts played on this server, as they happened. An imported game keeps its mode (an imported
attempt at a day still is the player's attempt at it, so they cannot play it ranked again here) and
enters High Scores and Statistics, but the day's table and the streak leave it out. Every game
before this revision is counted as played here (the import could not be told apart then).

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-05
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # a plain ADD COLUMN (SQLite takes one with a constant default): a batch operation would copy
    # the table and drop the old one, which the actions' foreign key refuses once games exist
    op.add_column(
        "games", sa.Column("imported", sa.Boolean, nullable=False, server_default=sa.false())
    )


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("imported")
