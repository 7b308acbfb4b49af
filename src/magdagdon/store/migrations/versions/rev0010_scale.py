"""Costs flat in the size of the data: the day's table read off one index, the clean-up paged

- ``game_results`` keeps, with a finished game's score, the day of a ranked daily attempt played
  on this server (``daily_date``: NULL for every other game, imported ones included), when it
  ended (``finished_at``) and the hints it used; the partial index ``game_results_by_day`` on
  (day, difficulty, score DESC, end, id) gives the day's table in its order, so its top 100 is
  read with a LIMIT and a player's rank is a count over the index.
- ``players_by_created``: the clean-up pages the players that have just become old enough,
  from where its last run stopped (``cleanup_marks``), never through every player.

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None

_RANKED = "g.mode = 'daily' AND g.status = 'finished' AND NOT g.imported"


def upgrade() -> None:
    op.add_column("game_results", sa.Column("daily_date", sa.Text))
    op.add_column("game_results", sa.Column("finished_at", sa.Text))
    op.add_column(
        "game_results",
        sa.Column("hints_used", sa.Integer, nullable=False, server_default="0"),
    )
    # correlated subqueries: the one UPDATE from another table both databases take
    of_game = "FROM games g WHERE g.id = game_results.game_id"
    op.execute(
        "UPDATE game_results SET "
        f"finished_at = (SELECT g.finished_at {of_game}), "
        f"hints_used = (SELECT g.hints_used {of_game}), "
        f"daily_date = (SELECT g.daily_date {of_game} AND {_RANKED})"
    )
    op.create_index(
        "game_results_by_day",
        "game_results",
        ["daily_date", "difficulty", sa.text("score DESC"), "finished_at", "game_id"],
        postgresql_where=sa.text("daily_date IS NOT NULL"),
        sqlite_where=sa.text("daily_date IS NOT NULL"),
    )
    op.create_index("players_by_created", "players", ["created_at", "token"])
    op.create_table(
        "cleanup_marks",
        sa.Column("name", sa.Text, primary_key=True),
        sa.Column("position", sa.Text, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("cleanup_marks")
    op.drop_index("players_by_created", "players")
    op.drop_index("game_results_by_day", "game_results")
    with op.batch_alter_table("game_results") as batch:
        batch.drop_column("hints_used")
        batch.drop_column("finished_at")
        batch.drop_column("daily_date")
