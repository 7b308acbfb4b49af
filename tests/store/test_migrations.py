"""Migrations on both databases: a new database reaches the head revision and matches the
tables the queries use; legacy SQLite files (``PRAGMA user_version`` 1–3) open and upgrade
keeping their data; a newer database is refused; starters racing on one database are safe."""

from __future__ import annotations

import json
import sqlite3
import threading
from typing import TYPE_CHECKING

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import create_engine, inspect, text

from magdagdon.engine import Difficulty, GameState, Roll, state_to_json
from magdagdon.services import games
from magdagdon.store import GameMode, SchemaTooNewError, Store, database_url, legacy, migrate
from magdagdon.store.tables import metadata

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path

TABLES = {
    "players",
    "games",
    "actions",
    "highscores",
    "device_links",
    "reviews",
    "game_results",
    "rate_counters",
    "cleanup_marks",
    "moderation_log",
    "daily_seeds",
    "day_scores",
    "alembic_version",
}
INDEXES = {
    "games_by_player_status",
    "games_by_daily",
    "highscores_by_rank",
    "game_results_by_day",
    "players_by_created",
}


def schema_differences(db: str) -> list[object]:
    engine = create_engine(database_url(db))
    try:
        with engine.connect() as conn:
            return list(compare_metadata(MigrationContext.configure(conn), metadata))
    finally:
        engine.dispose()


def legacy_differences(db: str) -> list[object]:
    """The differences but one that legacy files keep: SQLite lets a primary key that is not
    an INTEGER hold NULL unless it says NOT NULL, which the hand-written tables did not (no
    NULL key was ever written; rebuilding every table to say so is not worth a migration). The
    INTEGER key of highscores is the rowid, never NULL, but is reflected the same way."""
    nullable_keys = {("games", "id"), ("players", "token"), ("highscores", "id")}
    return [
        diff
        for diff in schema_differences(db)
        if not (
            isinstance(diff, list)
            and diff[0][0] == "modify_nullable"
            and (diff[0][2], diff[0][3]) in nullable_keys
        )
    ]


def table_names(db: str) -> set[str]:
    engine = create_engine(database_url(db))
    try:
        inspector = inspect(engine)
        return set(inspector.get_table_names())
    finally:
        engine.dispose()


def index_names(db: str) -> set[str]:
    engine = create_engine(database_url(db))
    try:
        inspector = inspect(engine)
        return {
            str(ix["name"])
            for t in ("games", "highscores", "game_results", "players")
            for ix in inspector.get_indexes(t)
        }
    finally:
        engine.dispose()


def test_revisions_form_one_line_from_the_baseline() -> None:
    assert migrate.BASELINE in migrate.known_revisions()
    assert migrate.head() in migrate.known_revisions()


def test_an_empty_database_is_migrated_to_the_head(new_db: Callable[..., str]) -> None:
    db = new_db(migrated=False)
    with Store(db) as store:
        assert store.revision == migrate.head()
    assert table_names(db) == TABLES
    assert index_names(db) >= INDEXES
    assert schema_differences(db) == []  # the migrations make what tables.py describes


def test_a_newer_revision_is_refused(new_db: Callable[..., str]) -> None:
    db = new_db()
    Store(db).close()
    engine = create_engine(database_url(db))
    with engine.begin() as conn:
        conn.execute(text("UPDATE alembic_version SET version_num = '9999'"))
    engine.dispose()
    with pytest.raises(SchemaTooNewError, match="9999"):
        Store(db)


def test_starters_racing_on_an_empty_database_migrate_it_once(
    new_db: Callable[..., str],
) -> None:
    db = new_db(migrated=False)
    barrier = threading.Barrier(4)
    revisions: list[str] = []
    errors: list[BaseException] = []

    def start() -> None:
        try:
            barrier.wait()
            with Store(db) as store:
                revisions.append(store.revision)
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=start) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert revisions == [migrate.head()] * 4
    assert schema_differences(db) == []


# ----- SQLite only: the files of MAGDAGDON before Alembic ------------------------------------


def legacy_file(path: Path, version: int) -> None:
    """A file as MAGDAGDON left it at hand-written schema ``version``, with a player and a
    game in it when it has tables."""
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA journal_mode = WAL")
    for step in legacy.MIGRATIONS[:version]:
        for statement in step.statements:
            conn.execute(statement)
        conn.execute(f"PRAGMA user_version = {step.version}")
    if version >= 1:
        state = GameState.new(Difficulty.PEACEFUL, 5)
        conn.execute(
            "INSERT INTO players (token, language, created_at) "
            "VALUES ('tok', 'en', '2024-01-01T00:00:00.000Z')"
        )
        conn.execute(
            "INSERT INTO games (id, player, difficulty, seed, state, created_at, updated_at) "
            "VALUES ('g1', 'tok', 'peaceful', 5, ?, 'then', 'then')",
            (json.dumps(state_to_json(state)),),
        )
    conn.close()


@pytest.mark.parametrize("old", range(legacy.LATEST + 1))
def test_each_legacy_version_is_upgraded_keeping_its_data(db_path: Path, old: int) -> None:
    legacy_file(db_path, old)
    with Store(db_path) as store:
        assert store.revision == migrate.head()
        if old >= 1:
            player = store.player("tok")
            assert player is not None
            assert player.language == "en"
            game = store.current_game("tok")
            assert game is not None
            assert (game.id, game.mode, game.daily_date) == ("g1", GameMode.NORMAL, None)
            assert games.play(store, "tok", "g1", Roll()).version == 1
    with sqlite3.connect(db_path) as conn:
        # a MAGDAGDON from before Alembic refuses the file from now on (too new for it)
        assert conn.execute("PRAGMA user_version").fetchone()[0] == migrate.ALEMBIC_USER_VERSION
        assert migrate.ALEMBIC_USER_VERSION > legacy.LATEST
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    assert index_names(str(db_path)) >= INDEXES
    assert legacy_differences(str(db_path)) == []


def test_a_newer_legacy_version_is_refused(db_path: Path) -> None:
    with sqlite3.connect(db_path) as conn:
        conn.execute(f"PRAGMA user_version = {legacy.LATEST + 1}")
    with pytest.raises(SchemaTooNewError, match="newer"):
        Store(db_path)


def test_sqlite_durability_pragmas(db_path: Path) -> None:
    with Store(db_path) as store, store.engine.connect() as conn:
        assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
        assert conn.exec_driver_sql("PRAGMA synchronous").scalar() == 2  # FULL: connect.py
        assert conn.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1
