"""Backups taken while clients play, restored and played on: ``magdagdon db backup`` of a serving
SQLite database (its online backup API), and ``pg_dump`` / ``pg_restore`` of a serving
PostgreSQL database (docs/hosting.md "Backups")."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import threading
import time
from typing import TYPE_CHECKING, Any

import pytest

import server_process
from hosting.playing import Player, check_acknowledged, legal_moves, start_playing
from magdagdon.engine import replay
from magdagdon.store import Store
from server_process import launch_server
from waits import EVENTUALLY, wait_until

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path

    from magdagdon.engine import Action
    from pg import PostgresServer
    from server_process import ServerProcess

pytestmark = pytest.mark.slow
CLIENTS = 4


def _play(server: ServerProcess, stop: threading.Event) -> list[Player]:
    return start_playing(server, stop, CLIENTS, 60)


def backup(db: str, target: Path | str) -> subprocess.CompletedProcess[str]:
    """``magdagdon db backup --db DB --to TARGET``, as an operator runs it."""
    return subprocess.run(
        [sys.executable, "-m", "magdagdon", "db", "backup", "--db", db, "--to", str(target)],
        capture_output=True,
        text=True,
        timeout=EVENTUALLY,
        check=False,
    )


def _acknowledged(players: list[Player]) -> list[tuple[str, int, Action]]:
    return [a for player in players for a in list(player.acknowledged)]


def _end(players: list[Player], stop: threading.Event) -> None:
    played = len(_acknowledged(players))
    wait_until(lambda: len(_acknowledged(players)) > played + 30, "play going on")
    stop.set()
    for player in players:
        player.join(EVENTUALLY)
    statuses = set().union(*(player.statuses for player in players))
    assert statuses <= {"200", "201", "503 storage_unavailable"}, statuses


def _every_game_is_its_log(db: str) -> int:
    """Every game's saved state is the replay of its log (a copy torn between two commits
    would break this for the game written meanwhile); answer how many games."""
    with Store(db) as store, store.engine.connect() as conn:
        ids = [row[0] for row in conn.exec_driver_sql("SELECT id FROM games")]
        for game_id in ids:
            game = store.game(game_id)
            assert game is not None
            log = store.actions(game_id)
            assert game.version == len(log)
            assert replay(game.difficulty, game.seed, log) == game.state
    return len(ids)


def _plays_on(
    server: ServerProcess, player: Player, acknowledged: list[tuple[str, int, Any]]
) -> None:
    """The player, on the restored server with its cookie, plays on its last game."""
    mine = [a for a in acknowledged if a in player.acknowledged]
    game_id = mine[-1][0]
    again = Player(server, 99, threading.Event())
    again.cookie = player.cookie
    status, state = again.call("GET", f"/api/games/{game_id}")
    assert status == 200, state
    if state["phase"] == "over":
        status, state = again.call("POST", "/api/games", {"difficulty": "survival"})
        assert status == 201, state
    version = state["version"]
    status, answer = again.call("POST", f"/api/games/{state['id']}/actions", legal_moves(state)[0])
    assert status == 200, answer
    assert answer["version"] == version + 1


def test_a_backup_of_a_serving_sqlite_database_restores_and_plays_on(
    make_db: Callable[..., str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(server_process, "SERVER_START_TIMEOUT", 180.0)
    db = make_db("sqlite")
    server = launch_server(db, tmp_path / "logs", "--workers", "2")
    stop = threading.Event()
    try:
        players = _play(server, stop)
        before = _acknowledged(players)
        target = tmp_path / "backup.sqlite3"
        began = time.monotonic()
        done = backup(db, target)
        took = time.monotonic() - began
        assert done.returncode == 0, done.stderr
        assert done.stdout.startswith("backed up "), done.stdout
        _end(players, stop)  # play went on after the backup, on the same server
    finally:
        stop.set()
        server.stop()
    print(f"backup of a serving database in {took:.2f} s: {done.stdout.strip()}")
    # the copy stands alone (no -wal beside it), is sound, and holds every action
    # acknowledged before it began, each game at one moment of its life
    assert not (tmp_path / "backup.sqlite3-wal").exists()
    with sqlite3.connect(target) as conn:
        assert conn.execute("PRAGMA quick_check").fetchone()[0] == "ok"
    check_acknowledged(str(target), before)
    assert _every_game_is_its_log(str(target)) >= CLIENTS
    # a second backup into the same file is refused, and the copy is left whole
    again = backup(db, target)
    assert again.returncode == 1
    assert "exists" in again.stderr
    # restored: the backup served, and played on
    restored = launch_server(str(target), tmp_path / "logs")
    try:
        _plays_on(restored, players[0], before)
    finally:
        restored.stop()


def test_db_backup_of_postgresql_points_to_pg_dump(tmp_path: Path) -> None:
    done = backup("postgresql://x@/y", tmp_path / "b")
    assert done.returncode == 1
    assert "pg_dump" in done.stderr


def test_a_pg_dump_of_a_serving_database_restores_into_a_new_one_and_plays_on(
    make_db: Callable[..., str],
    pg_server: PostgresServer,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(server_process, "SERVER_START_TIMEOUT", 180.0)
    db = make_db("postgresql")
    server = launch_server(db, tmp_path / "logs", "--workers", "2")
    stop = threading.Event()
    dump = tmp_path / "magdagdon.dump"
    try:
        players = _play(server, stop)
        before = _acknowledged(players)
        # docs/hosting.md "Backups": pg_dump's custom format, while the server serves
        subprocess.run(
            [str(pg_server.bin / "pg_dump"), "--format=custom", "--file", str(dump), db],
            check=True,
            timeout=EVENTUALLY,
        )
        _end(players, stop)
    finally:
        stop.set()
        server.stop()
    restored_db = make_db("postgresql", migrated=False)  # a new, empty database
    subprocess.run(
        [
            str(pg_server.bin / "pg_restore"),
            "--no-owner",
            "--exit-on-error",
            "--dbname",
            restored_db,
            str(dump),
        ],
        check=True,
        timeout=EVENTUALLY,
    )
    check_acknowledged(restored_db, before)
    assert _every_game_is_its_log(restored_db) >= CLIENTS
    restored = launch_server(restored_db, tmp_path / "logs")
    try:
        _plays_on(restored, players[0], before)
    finally:
        restored.stop()
