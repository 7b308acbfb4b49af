"""A database that is locked, full, read-only or unreachable answers, within
2 s, a JSON 503 ``storage_unavailable`` with ``Retry-After``, changes nothing, and recovers by
itself when the database does; ``GET /api/health`` says so. Real servers, a real SQLite file on
a real file system of the test's own, and real PostgreSQL servers."""

from __future__ import annotations

import sqlite3
import subprocess
from typing import TYPE_CHECKING

import psycopg
import pytest

from pg import PostgresServer
from storage_helpers import (
    Client,
    assert_health,
    assert_unavailable,
    fill,
    small_file_system,
    until,
)

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path

    from server_process import ServerProcess

pytestmark = pytest.mark.slow
ROLL = {"type": "roll"}


def new_game(client: Client) -> dict[str, object]:
    answer = client.call("POST", "/api/games", {"difficulty": "peaceful", "seed": 11})
    assert answer.status == 201
    game: dict[str, object] = answer.body
    return game


def version(client: Client, game_id: object) -> int:
    answer = client.call("GET", f"/api/games/{game_id}")
    assert answer.status == 200
    return int(answer.body["version"])


def check_refused_then_recovered(
    server: ServerProcess, break_it: Callable[[], object], mend_it: Callable[[], object]
) -> None:
    """The common scenario: a player's action, another's first game and the health check are
    refused while the database is broken; nothing changed; all work again once it is mended."""
    client, newcomer = Client(server), Client(server)
    game = new_game(client)
    before = version(client, game["id"])
    break_it()
    try:
        assert_unavailable(client.call("POST", f"/api/games/{game['id']}/actions", ROLL))
        assert_unavailable(newcomer.call("POST", "/api/games", {"difficulty": "peaceful"}))
        assert newcomer.cookie == ""  # no player was made
        assert_health(client, "unavailable")
    finally:
        mend_it()

    def acted() -> bool:
        return client.call("POST", f"/api/games/{game['id']}/actions", ROLL).status == 200

    until(acted)
    assert version(client, game["id"]) == before + 1  # the refused action left no trace
    assert_health(client, "ok")
    assert newcomer.call("POST", "/api/games", {"difficulty": "peaceful"}).status == 201
    client.close()
    newcomer.close()


def test_a_sqlite_lock_held_by_another_program(
    start_server: Callable[[str], ServerProcess], tmp_path: Path
) -> None:
    db = str(tmp_path / "locked.sqlite3")
    server = start_server(db)
    other = sqlite3.connect(db, isolation_level=None)
    reader = Client(server)
    game = new_game(reader)

    def lock() -> None:
        other.execute("BEGIN EXCLUSIVE")

    def unlock() -> None:
        # a read still answers meanwhile (WAL): only writes wait for the lock
        assert reader.call("GET", f"/api/games/{game['id']}").status == 200
        other.execute("ROLLBACK")

    check_refused_then_recovered(server, lock, unlock)
    other.close()


def test_a_postgresql_lock_held_by_another_connection(
    start_server: Callable[[str], ServerProcess], pg_server: PostgresServer
) -> None:
    url = pg_server.create_database()
    server = start_server(url)
    other = psycopg.connect(pg_server.conninfo(url.split("/")[3].split("?")[0]))

    def lock() -> None:
        other.execute("LOCK TABLE games, actions, players IN EXCLUSIVE MODE")

    check_refused_then_recovered(server, lock, other.rollback)
    other.close()
    pg_server.drop_database(url)


def test_a_full_disk(start_server: Callable[[str], ServerProcess], tmp_path: Path) -> None:
    with small_file_system(tmp_path) as mount:
        db = mount / "full.sqlite3"
        server = start_server(str(db))
        filler: list[Path] = []
        check_refused_then_recovered(
            server, lambda: filler.append(fill(mount)), lambda: filler[0].unlink()
        )
        server.stop()
        with sqlite3.connect(db) as conn:
            assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"


def test_a_read_only_database(start_server: Callable[[str], ServerProcess], tmp_path: Path) -> None:
    with small_file_system(tmp_path) as mount:
        db = mount / "read-only.sqlite3"
        server = start_server(str(db))
        # immutable even for root, and even through the files the server has open (ext4)
        files = [str(db), f"{db}-wal"]
        check_refused_then_recovered(
            server,
            lambda: subprocess.run(["chattr", "+i", *files], check=True),
            lambda: subprocess.run(["chattr", "-i", *files], check=True),
        )
        server.stop()
        with sqlite3.connect(db) as conn:
            assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"


def test_a_database_read_only_from_the_start(
    start_server: Callable[[str], ServerProcess], tmp_path: Path
) -> None:
    """Its connections open read-only, and stay so: the server must make new ones to write
    once the file is writable again."""
    with small_file_system(tmp_path) as mount:
        db = mount / "read-only.sqlite3"
        server = start_server(str(db))
        client = Client(server)
        game, cookie = new_game(client), client.cookie
        server.stop()
        subprocess.run(["chattr", "+i", str(db)], check=True)
        server = start_server(str(db))
        client = Client(server)
        client.cookie = cookie
        assert version(client, game["id"]) == 0  # reads are served
        assert_unavailable(client.call("POST", f"/api/games/{game['id']}/actions", ROLL))
        assert_health(client, "unavailable")
        subprocess.run(["chattr", "-i", str(db)], check=True)
        until(lambda: client.call("POST", f"/api/games/{game['id']}/actions", ROLL).status == 200)
        assert version(client, game["id"]) == 1
        assert_health(client, "ok")


def test_a_read_only_postgresql(
    start_server: Callable[[str], ServerProcess], pg_server: PostgresServer
) -> None:
    """As a standby server, or one an operator made read-only, refuses every write."""
    url = pg_server.create_database()
    name = url.split("/")[3].split("?")[0]
    server = start_server(url)

    def read_only(on: bool) -> None:
        with psycopg.connect(pg_server.conninfo("postgres"), autocommit=True) as admin:
            value = "on" if on else "off"
            admin.execute(f"ALTER DATABASE {name} SET default_transaction_read_only = {value}")
            # existing sessions keep their setting: end them, as a failover to a standby does
            admin.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                "WHERE datname = %s AND pid <> pg_backend_pid()",
                (name,),
            )

    check_refused_then_recovered(server, lambda: read_only(True), lambda: read_only(False))
    pg_server.drop_database(url)


def test_a_stopped_postgresql(
    start_server: Callable[[str], ServerProcess],
) -> None:
    own = PostgresServer()  # this test stops its server: one of its own
    try:
        url = own.create_database()
        server = start_server(url)
        check_refused_then_recovered(server, own.halt, own.resume)
    finally:
        own.stop()
