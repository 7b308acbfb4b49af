"""Alembic's migration scripts of the store (``versions/``); run by ``magdagdon.store.migrate``."""
