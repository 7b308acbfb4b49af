"""game_results: each finished game's summary, for Statistics

The table is filled for the games finished before it by scoring their saved final state with
the engine (``magdagdon.store.results.result_of``), the same summary ``games.play`` writes when a
game ends from now on.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-01
"""

from __future__ import annotations

import dataclasses
import json

import sqlalchemy as sa
from alembic import op

from magdagdon.engine import state_from_json
from magdagdon.store.results import result_of

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None

_BATCH = 1000


def upgrade() -> None:
    results = op.create_table(
        "game_results",
        sa.Column("game_id", sa.Text, sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("player", sa.Text, sa.ForeignKey("players.token"), nullable=False),
        sa.Column("difficulty", sa.Text, nullable=False),
        sa.Column("mode", sa.Text, nullable=False),
        sa.Column("score", sa.Integer, nullable=False),
        sa.Column("ruins", sa.Integer, nullable=False),
        sa.Column("powers_used", sa.Integer, nullable=False),
        sa.Column("turns", sa.Integer, nullable=False),
        sa.Column("straights", sa.Integer, nullable=False),
        sa.Column("fours", sa.Integer, nullable=False),
        sa.Column("two_pairs", sa.Integer, nullable=False),
    )
    op.create_index("game_results_by_player", "game_results", ["player", "difficulty", "mode"])
    _backfill(op.get_bind(), results)


def _backfill(conn: sa.Connection, results: sa.Table) -> None:
    games = sa.table(
        "games",
        sa.column("id"),
        sa.column("player"),
        sa.column("difficulty"),
        sa.column("mode"),
        sa.column("state"),
        sa.column("status"),
    )
    finished = conn.execute(
        sa.select(games.c.id, games.c.player, games.c.difficulty, games.c.mode, games.c.state)
        .where(games.c.status == "finished")
        .order_by(games.c.id)
    )
    while batch := finished.fetchmany(_BATCH):
        rows = []
        for game_id, player, difficulty, mode, state in batch:
            result = result_of(state_from_json(json.loads(state)))
            rows.append(
                {
                    "game_id": game_id,
                    "player": player,
                    "difficulty": difficulty,
                    "mode": mode,
                    **dataclasses.asdict(result),
                }
            )
        conn.execute(results.insert(), rows)


def downgrade() -> None:
    op.drop_index("game_results_by_player", "game_results")
    op.drop_table("game_results")
