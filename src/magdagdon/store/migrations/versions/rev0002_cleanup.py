"""games_by_status_created: the index that the daily clean-up finds old unfinished games by

The clean-up (``store/cleanup.py``) removes the unfinished games untouched for 30 days. This
index finds the candidates (unfinished, made before the cutoff) without reading every game; it
is keyed on ``created_at``, which never changes, so an action costs it nothing (only a game's
end or abandonment moves its entry).

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-01
"""

from __future__ import annotations

from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index("games_by_status_created", "games", ["status", "created_at"])


def downgrade() -> None:
    op.drop_index("games_by_status_created", table_name="games")
