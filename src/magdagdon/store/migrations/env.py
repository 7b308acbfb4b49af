"""Alembic's environment: always run by ``magdagdon.store.migrate`` on a connection it opened,
inside the transaction (and the lock) it holds, so every revision commits or none does."""

from __future__ import annotations

from alembic import context

from magdagdon.store.tables import metadata

connection = context.config.attributes["connection"]
context.configure(
    connection=connection,
    target_metadata=metadata,
    # SQLite alters most of a table only by copying it: Alembic's batch mode does that
    render_as_batch=connection.dialect.name == "sqlite",
)
with context.begin_transaction():
    context.run_migrations()
