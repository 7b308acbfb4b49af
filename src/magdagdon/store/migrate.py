"""Bring a database to the current schema at start-up: Alembic's revisions, on either database.

Safe when several processes start at once: the whole upgrade is one transaction that holds a
lock for its length (SQLite: ``BEGIN IMMEDIATE``, the database's write lock; PostgreSQL: a
transaction-level advisory lock), and re-reads the revision once it has the lock, so the first
starter migrates and the others find nothing left to do. PostgreSQL and SQLite both run DDL
inside a transaction, so a crash in the middle leaves the database as it was.

A legacy SQLite file (``PRAGMA user_version`` 1–3, no ``alembic_version`` table) is first
brought to version 3 by its own old steps (``legacy.py``), then stamped with :data:`BASELINE`.
Once under Alembic, a SQLite file's ``user_version`` is :data:`ALEMBIC_USER_VERSION`, which
every MAGDAGDON from before Alembic refuses as too new (so none of them writes to a schema it
does not know).
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import TYPE_CHECKING

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import text

from magdagdon.store import legacy
from magdagdon.store.connect import WRITE
from magdagdon.store.errors import SchemaTooNewError

if TYPE_CHECKING:
    from sqlalchemy import Connection, Engine

MIGRATIONS_DIR = Path(__file__).resolve().parent / "migrations"
BASELINE = "0001"  # the first revision: the schema of legacy version 3
ALEMBIC_USER_VERSION = 1000
# an arbitrary key of this application's advisory lock (pg_advisory_xact_lock takes a bigint)
_PG_LOCK_KEY = 0x4D41_4744_4147  # "MAGDAG"


def alembic_config(connection: Connection | None = None) -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    config.attributes["connection"] = connection
    return config


@functools.cache
def head() -> str:
    """The newest revision this MAGDAGDON knows."""
    revision = ScriptDirectory.from_config(alembic_config()).get_current_head()
    assert revision is not None
    return revision


@functools.cache
def known_revisions() -> frozenset[str]:
    script = ScriptDirectory.from_config(alembic_config())
    return frozenset(rev.revision for rev in script.walk_revisions())


def current_revision(conn: Connection) -> str | None:
    return MigrationContext.configure(conn).get_current_revision()


def upgrade(engine: Engine) -> str:
    """Migrate the database to :func:`head`; answer the revision. :class:`SchemaTooNewError`
    when it was written by a newer MAGDAGDON."""
    with engine.connect() as conn:
        revision = current_revision(conn)
        conn.rollback()
        if revision == head():  # the usual start: nothing to do, no lock taken
            return revision
    with engine.connect().execution_options(**{WRITE: True}) as conn, conn.begin():
        if conn.dialect.name == "postgresql":
            conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": _PG_LOCK_KEY})
        else:
            _adopt_legacy_sqlite(conn)
        revision = current_revision(conn)
        if revision is not None and revision not in known_revisions():
            raise SchemaTooNewError(
                f"the database is at schema revision {revision}, unknown to this MAGDAGDON "
                f"(it knows revisions up to {head()}): it was written by a newer version"
            )
        if revision != head():
            command.upgrade(alembic_config(conn), "head")
        if conn.dialect.name == "sqlite":
            conn.exec_driver_sql(f"PRAGMA user_version = {ALEMBIC_USER_VERSION:d}")
    return head()


def _adopt_legacy_sqlite(conn: Connection) -> None:
    """A file from before Alembic: run its missing old steps, then stamp the baseline."""
    if current_revision(conn) is not None:
        return
    version = legacy.user_version(conn)
    if version == 0:
        return  # a new, empty file: Alembic makes everything
    if version == ALEMBIC_USER_VERSION:
        raise SchemaTooNewError("the file is marked as migrated by Alembic but has no revision")
    if version > legacy.LATEST:
        raise SchemaTooNewError(
            f"the database is at schema version {version}; "
            f"this MAGDAGDON knows versions up to {legacy.LATEST}: it was written by a newer one"
        )
    legacy.run_steps(conn)
    command.stamp(alembic_config(conn), BASELINE)
