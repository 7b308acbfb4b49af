"""What the storage-failure tests share: a client that times each answer, a small real file
system of the test's own (an ext4 image on a loop device), and the checks of a 503."""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import shutil
import sqlite3
import subprocess
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import psycopg
import pytest

from waits import EVENTUALLY

if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path

    from server_process import ServerProcess

ANSWER_WITHIN = 2.0  # seconds: a player gets an answer within 2 s (connect.SERVING)


@dataclass
class Answer:
    status: int
    body: Any
    headers: dict[str, str]
    seconds: float


class Client:
    """One browser on a keep-alive connection, keeping its cookie; each answer timed."""

    def __init__(self, server: ServerProcess) -> None:
        self.server = server
        self.cookie = ""
        self.conn = http.client.HTTPConnection(server.host, server.port, timeout=EVENTUALLY)

    def call(self, method: str, path: str, body: Any = None) -> Answer:
        headers = {"content-type": "application/json"}
        if self.cookie:
            headers["cookie"] = self.cookie
        payload = None if body is None else json.dumps(body)
        start = time.monotonic()
        try:
            self.conn.request(method, path, body=payload, headers=headers)
            response = self.conn.getresponse()
            data = response.read()
        except (ConnectionError, http.client.HTTPException):
            self.conn.close()
            self.conn = http.client.HTTPConnection(
                self.server.host, self.server.port, timeout=EVENTUALLY
            )
            raise
        seconds = time.monotonic() - start
        fields = {name.lower(): value for name, value in response.getheaders()}
        if "set-cookie" in fields:
            self.cookie = fields["set-cookie"].split(";")[0]
        return Answer(response.status, json.loads(data or b"null"), fields, seconds)

    def close(self) -> None:
        self.conn.close()


def assert_unavailable(answer: Answer) -> None:
    """A JSON 503 ``storage_unavailable`` with Retry-After, in time, setting no cookie."""
    assert answer.status == 503, answer
    assert answer.body["error"]["code"] == "storage_unavailable", answer
    assert int(answer.headers["retry-after"]) >= 1
    assert answer.headers["content-type"].startswith("application/json")
    assert "set-cookie" not in answer.headers
    assert answer.seconds < ANSWER_WITHIN, answer


def assert_health(client: Client, database: str) -> None:
    answer = client.call("GET", "/api/health")
    assert answer.seconds < ANSWER_WITHIN
    status = "ok" if database == "ok" else "unavailable"
    assert answer.body == {"status": status, "database": database}
    assert answer.status == (200 if database == "ok" else 503)


def until(test: Any, timeout: float = EVENTUALLY) -> Any:
    """Call ``test`` until it answers something true; that answer."""
    deadline = time.monotonic() + timeout
    while True:
        found = test()
        if found:
            return found
        assert time.monotonic() < deadline, "it did not recover in time"
        time.sleep(0.1)


@contextlib.contextmanager
def small_file_system(where: Path, megabytes: int = 24) -> Iterator[Path]:
    """A fresh ext4 file system of ``megabytes`` on a loop device, mounted at ``where``/mnt
    (as root, which CI is), without blocks reserved for root: it can be filled entirely."""
    if os.geteuid() != 0 or not shutil.which("mkfs.ext4"):
        pytest.skip("mounting a file system of its own needs root and mkfs.ext4")
    image, mount = where / "fs.img", where / "mnt"
    mount.mkdir()
    with image.open("wb") as file:
        file.truncate(megabytes * 1024 * 1024)
    subprocess.run(["mkfs.ext4", "-q", "-F", "-m", "0", str(image)], check=True)
    subprocess.run(["mount", "-o", "loop", str(image), str(mount)], check=True)
    try:
        yield mount
    finally:
        subprocess.run(["chattr", "-R", "-i", str(mount)], check=False, capture_output=True)
        if subprocess.run(["umount", str(mount)], check=False).returncode:
            subprocess.run(["umount", "-l", str(mount)], check=False)


def fill(folder: Path) -> Path:
    """Fill the file system of ``folder`` to its last byte; answer the file that does it."""
    filler = folder / "filler"
    with filler.open("wb", buffering=0) as file:
        for chunk in (1 << 20, 1 << 12, 1):
            with contextlib.suppress(OSError):
                while True:
                    file.write(b"\0" * chunk)
    return filler


@contextlib.contextmanager
def held_by_another_program(
    db: str, tables: tuple[str, ...] = ("rate_counters", "players", "games")
) -> Iterator[None]:
    """Another program holds the database until the block ends: SQLite's write lock, or
    PostgreSQL's ``tables`` (by default what a new game and its count need)."""
    if db.startswith("postgresql://"):
        with psycopg.connect(db) as held:
            held.execute(f"LOCK TABLE {', '.join(tables)} IN ACCESS EXCLUSIVE MODE")
            try:
                yield
            finally:
                held.rollback()
        return
    held_file = sqlite3.connect(db, isolation_level=None)
    held_file.execute("BEGIN IMMEDIATE")
    try:
        yield
    finally:
        held_file.execute("ROLLBACK")
        held_file.close()


def damaged_file(path: Path) -> Path:
    """A real database with some games, then three of its pages overwritten."""
    from magdagdon.engine import Difficulty, Roll
    from magdagdon.services import games
    from magdagdon.store import Store

    with Store(path) as store:
        player = store.new_player().token
        for seed in range(200):
            games.play(
                store, player, games.start(store, player, Difficulty.PEACEFUL, seed).id, Roll()
            )
    with path.open("r+b") as file:
        file.seek(4096 * 6)
        file.write(os.urandom(4096 * 3))
    return path


#: What each revision after 0007 added, undone by hand (newest first), so a test can make a
#: database of the MAGDAGDON before it with its data kept (the migrations' own downgrades
#: copy tables, which the games' foreign keys refuse once players exist).
_UNDO_AFTER_0007 = (
    ("0011", ("DROP TABLE day_scores",)),
    (
        "0010",
        (
            "DROP TABLE cleanup_marks",
            "DROP INDEX players_by_created",
            "DROP INDEX game_results_by_day",
            "ALTER TABLE game_results DROP COLUMN hints_used",
            "ALTER TABLE game_results DROP COLUMN finished_at",
            "ALTER TABLE game_results DROP COLUMN daily_date",
        ),
    ),
    ("0009", ("DROP TABLE moderation_log", "ALTER TABLE players DROP COLUMN name_hidden")),
    ("0008", ("DROP TABLE daily_seeds",)),
)


def back_to_0007(conn: Any) -> None:
    """Undo, on the connection ``conn`` of a migrated database, every revision after 0007, and
    mark the database 0007."""
    for _revision, statements in _UNDO_AFTER_0007:
        for statement in statements:
            conn.exec_driver_sql(statement)
    conn.exec_driver_sql("UPDATE alembic_version SET version_num = '0007'")
