"""With ``magdagdon serve --workers 2`` the rate limits count in the database that both workers
share: one player gets exactly the rate in all, whichever worker answers each request. On
SQLite and on PostgreSQL."""

from __future__ import annotations

import http.client
import json
import time
from pathlib import Path
from typing import TYPE_CHECKING

import psycopg
import pytest

import server_process
from server_process import launch_server

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

    from server_process import ServerProcess

pytestmark = pytest.mark.slow
RATE = 5  # games a minute, set low so that the test is quick
NEW_GAME = json.dumps({"difficulty": "peaceful"})


@pytest.fixture(params=["sqlite", "postgresql"])
def two_workers(
    request: pytest.FixtureRequest,
    make_db: Callable[..., str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> Iterator[ServerProcess]:
    monkeypatch.setattr(server_process, "SERVER_START_TIMEOUT", 300.0)
    monkeypatch.setenv("MAGDAGDON_GAMES_RATE", f"{RATE}/minute")
    server = launch_server(make_db(request.param), tmp_path / "logs", "--workers", "2")
    yield server
    server.kill()


def _worker_of(server: ServerProcess, client_port: int) -> int | None:
    """The process that holds the server's end of the connection from ``client_port``."""
    inode = None
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        local, remote = (int(address.split(":")[1], 16) for address in fields[1:3])
        if (local, remote) == (server.port, client_port):
            inode = fields[9]
    if inode is None:
        return None
    target = f"socket:[{inode}]"
    pid = server.process.pid
    for child in Path(f"/proc/{pid}/task/{pid}/children").read_text().split():
        for fd in Path(f"/proc/{child}/fd").glob("*"):
            try:
                if str(fd.readlink()) == target:
                    return int(child)
            except OSError:
                continue
    return None


def new_game(server: ServerProcess, cookie: str) -> tuple[int, str, int | None]:
    """POST /api/games on a new connection: the status, the cookie, the worker that answered."""
    conn = http.client.HTTPConnection(server.host, server.port, timeout=60)
    try:
        headers = {"content-type": "application/json"} | ({"cookie": cookie} if cookie else {})
        conn.request("POST", "/api/games", body=NEW_GAME, headers=headers)
        response = conn.getresponse()
        response.read()
        worker = _worker_of(server, conn.sock.getsockname()[1])  # still open: keep-alive
        given = response.getheader("set-cookie")
        return response.status, given.split(";")[0] if given else cookie, worker
    finally:
        conn.close()


def test_one_player_gets_exactly_the_rate_across_two_workers(two_workers: ServerProcess) -> None:
    server = two_workers
    status, cookie, _ = new_game(server, "")  # no cookie yet: counts by address only
    assert status == 201
    assert cookie
    while True:
        # a window is a minute on the clock: start in one that has time left for the whole run
        if time.time() % 60 < 30:
            start = time.time() // 60
            statuses: list[int] = []
            answered_by: dict[int, list[int]] = {}
            while len(answered_by) < 2 or len(statuses) < 4 * RATE:
                status, cookie, worker = new_game(server, cookie)
                assert worker is not None
                statuses.append(status)
                answered_by.setdefault(worker, []).append(status)
                assert len(statuses) < 200, "one worker answered every request"
            if time.time() // 60 == start:
                break
        time.sleep(1.0)  # wait for the next minute on the clock
    assert statuses.count(201) == RATE, (statuses, answered_by)
    assert statuses.count(429) == len(statuses) - RATE
    assert statuses[:RATE] == [201] * RATE  # the first ones, whichever worker had them
    assert len(answered_by) == 2


@pytest.fixture
def two_workers_on_postgresql(
    make_db: Callable[..., str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[tuple[ServerProcess, str]]:
    monkeypatch.setattr(server_process, "SERVER_START_TIMEOUT", 300.0)
    monkeypatch.setenv("MAGDAGDON_GAMES_RATE", f"{RATE}/minute")
    db = make_db("postgresql")
    server = launch_server(db, tmp_path / "logs", "--workers", "2")
    yield server, db
    server.kill()


def test_while_the_counters_cannot_be_used_each_worker_holds_the_rate_alone(
    two_workers_on_postgresql: tuple[ServerProcess, str],
) -> None:
    """docs/hosting.md "Where the counts are kept": the counters' table locked by another
    session (the games' tables are not): each worker counts in its own memory, so one player
    gets the rate once from each worker, twice in all with two, and no more."""
    server, db = two_workers_on_postgresql
    status, cookie, _ = new_game(server, "")  # no cookie yet: counts by address only
    assert status == 201
    with psycopg.connect(db) as holder:
        holder.execute("LOCK TABLE rate_counters IN ACCESS EXCLUSIVE MODE")
        answered_by: dict[int, list[int]] = {}
        began = time.monotonic()
        while (
            min((len(s) for s in answered_by.values()), default=0) < 2 * RATE
            or len(answered_by) < 2
        ):
            status, cookie, worker = new_game(server, cookie)
            assert worker is not None
            answered_by.setdefault(worker, []).append(status)
            assert sum(map(len, answered_by.values())) < 200, "one worker answered every request"
        took = time.monotonic() - began
        holder.rollback()
    statuses = [status for answers in answered_by.values() for status in answers]
    print(f"counters locked {took:.1f} s: {statuses.count(201)} of {len(statuses)} games made")
    assert took < 60  # within each worker's window
    for answers in answered_by.values():
        assert answers.count(201) == RATE, answered_by
        assert set(answers) == {201, 429}
