"""The real server process, on both databases: the ``Serving on`` line, Ctrl-C, and SIGKILL at any
moment losing no acknowledged action (the restarted server has them all; a SQLite file passes
integrity_check)."""

from __future__ import annotations

import http.client
import json
import random
import re
import socket
import sqlite3
import subprocess
import sys
import threading
import time
from typing import TYPE_CHECKING, Any

import pytest

from api_helpers import random_action
from magdagdon import cli
from magdagdon.engine import Action, Difficulty, GameState, action_to_json, replay
from magdagdon.store import Store
from magdagdon.store.paths import is_postgresql
from plans import plain_turn
from waits import EVENTUALLY

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path

    from server_process import ServerProcess


pytestmark = pytest.mark.slow


class Player:
    """One browser: its own keep-alive connection and cookie."""

    def __init__(self, server: ServerProcess, cookie: str | None = None) -> None:
        self.conn = http.client.HTTPConnection(server.host, server.port, timeout=EVENTUALLY)
        self.cookie = cookie

    def call(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        headers = {"content-type": "application/json"}
        if self.cookie:
            headers["cookie"] = self.cookie
        payload = None if body is None else json.dumps(body)
        self.conn.request(method, path, body=payload, headers=headers)
        response = self.conn.getresponse()
        data = json.loads(response.read() or b"null")
        cookie = response.getheader("set-cookie")
        if cookie:
            self.cookie = cookie.split(";")[0]
        return response.status, data

    def close(self) -> None:
        self.conn.close()


def integrity(db: str) -> str:
    """SQLite's own check of the file; a PostgreSQL server was never killed, nothing to check."""
    if is_postgresql(db):
        return "ok"
    with sqlite3.connect(db) as conn:
        return str(conn.execute("PRAGMA integrity_check").fetchone()[0])


def test_serving_line_and_ctrl_c(start_server: Callable[[str], ServerProcess], db_url: str) -> None:
    server = start_server(db_url)
    assert re.fullmatch(r"Serving on http://127\.0\.0\.1:(\d+)\n", server.lines[0])
    assert server.port > 0
    player = Player(server)
    status, settings = player.call("GET", "/api/player")
    assert (status, settings["language"]) == (200, "fil")
    player.close()
    assert server.stop() == 0
    assert "Traceback" not in server.stderr()


@pytest.mark.parametrize("kind", ["sqlite", "postgresql", "newer"])
def test_a_database_that_cannot_be_opened_is_a_clear_error(tmp_path: Path, kind: str) -> None:
    (tmp_path / "file").write_text("not a folder")
    with sqlite3.connect(tmp_path / "newer.sqlite3") as newer:
        newer.execute("PRAGMA user_version = 4")  # by a MAGDAGDON of hand-written version 4
    unreachable = {
        "postgresql": f"postgresql://nobody@/none?host={tmp_path}&port=1",
        "sqlite": str(tmp_path / "file" / "x.sqlite3"),
        "newer": str(tmp_path / "newer.sqlite3"),
    }[kind]
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "magdagdon",
            "serve",
            "--no-browser",
            "--port",
            "0",
            "--db",
            unreachable,
        ],
        capture_output=True,
        text=True,
        timeout=EVENTUALLY,
    )
    assert result.returncode == 1
    assert "cannot open the database" in result.stderr
    assert ("written by a newer one" in result.stderr) is (kind == "newer")
    assert "Traceback" not in result.stderr


def test_a_busy_port_is_a_clear_error(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = subprocess.run(
            [
                *(sys.executable, "-m", "magdagdon", "serve", "--no-browser"),
                *("--port", str(port), "--db", str(tmp_path / "x.sqlite3")),
            ],
            capture_output=True,
            text=True,
            timeout=EVENTUALLY,
        )
    assert result.returncode == 1
    assert "cannot listen" in result.stderr
    assert "Traceback" not in result.stderr


def test_the_default_port_falls_back_to_a_free_one(monkeypatch: pytest.MonkeyPatch) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        monkeypatch.setattr(cli, "DEFAULT_PORT", taken.getsockname()[1])
        sock = cli._listen("127.0.0.1", None)
        try:
            assert sock.getsockname()[1] not in (0, taken.getsockname()[1])
        finally:
            sock.close()


def test_sigkill_in_the_middle_of_a_turn_keeps_the_staged_die(
    start_server: Callable[[str], ServerProcess], db_url: str
) -> None:
    db = db_url
    server = start_server(db)
    player = Player(server)
    status, game = player.call("POST", "/api/games", {"difficulty": "peaceful", "seed": 13})
    assert status == 201
    state = GameState.new(Difficulty.PEACEFUL, 13)
    roll = plain_turn(state)[0]
    state = state.apply(roll)
    stage = plain_turn(state)[0]
    for action in (roll, stage):
        path = f"/api/games/{game['id']}/actions"
        status, shown = player.call("POST", path, action_to_json(action))
        assert status == 200
    server.kill()
    player.close()
    assert integrity(db) == "ok"
    again = Player(start_server(db), player.cookie)
    status, reloaded = again.call("GET", f"/api/games/{game['id']}")
    assert status == 200
    assert reloaded == shown
    assert reloaded["version"] == 2
    assert sum(die["cell"] is not None for die in reloaded["dice"]) == 1
    status, current = again.call("GET", "/api/games/current")
    assert current["id"] == game["id"]
    again.close()


class Bot:
    """Plays one game through the API as fast as it can, remembering what was acknowledged."""

    def __init__(self, server: ServerProcess, seed: int, difficulty: Difficulty) -> None:
        self.seed, self.difficulty = seed, difficulty
        self.rng = random.Random(seed)
        self.player = Player(server)
        status, game = self.player.call(
            "POST", "/api/games", {"difficulty": difficulty.value, "seed": seed}
        )
        assert status == 201
        self.game_id: str = game["id"]
        self.acked: list[Action] = []
        self.mismatch: str | None = None
        self.thread = threading.Thread(target=self.play, daemon=True)

    def resume(self, server: ServerProcess, log: list[Action]) -> None:
        """After a restart: go on from the actions the database holds."""
        self.player.close()
        self.player = Player(server, self.player.cookie)
        self.acked = list(log)
        self.thread = threading.Thread(target=self.play, daemon=True)

    def play(self) -> None:
        state = replay(self.difficulty, self.seed, self.acked)
        try:
            while not state.is_over:
                action = random_action(state, self.rng)
                body = {**action_to_json(action), "version": len(self.acked)}
                path = f"/api/games/{self.game_id}/actions"
                status, shown = self.player.call("POST", path, body)
                if status != 200:
                    self.mismatch = f"{status} {shown}"
                    return
                state = state.apply(action)
                self.acked.append(action)
                if shown["version"] != len(self.acked) or shown["turn"] != state.turn:
                    self.mismatch = f"server {shown} vs engine {state}"
                    return
        except (OSError, http.client.HTTPException, json.JSONDecodeError):
            return  # the server died under us: expected


def test_sigkill_at_random_moments_loses_no_acknowledged_action(
    start_server: Callable[[str], ServerProcess], db_url: str
) -> None:
    db = db_url
    rng = random.Random(2024)
    server = start_server(db)
    bots = [Bot(server, 100 + i, list(Difficulty)[i % 3]) for i in range(6)]
    acknowledged = 0
    for _ in range(4):
        for bot in bots:
            bot.thread.start()
        time.sleep(rng.uniform(0.3, 1.2))
        server.kill()  # requests are in flight
        for bot in bots:
            bot.thread.join(EVENTUALLY)
            assert not bot.thread.is_alive()
            assert bot.mismatch is None, bot.mismatch
        assert integrity(db) == "ok"
        logs: dict[str, list[Action]] = {}
        with Store(db) as store:
            for bot in bots:
                log = store.actions(bot.game_id)
                saved = store.game(bot.game_id)
                assert saved is not None
                assert log[: len(bot.acked)] == bot.acked  # every acknowledged action is there
                assert len(log) - len(bot.acked) in (0, 1)  # plus at most the one in flight
                assert saved.version == len(log)
                assert saved.state == replay(bot.difficulty, bot.seed, log)
                logs[bot.game_id] = log
                acknowledged += len(bot.acked)
        server = start_server(db)
        for bot in bots:
            bot.resume(server, logs[bot.game_id])
            status, shown = bot.player.call("GET", f"/api/games/{bot.game_id}")
            assert status == 200
            assert shown["version"] == len(logs[bot.game_id])
    assert acknowledged > 50
    for bot in bots:
        bot.player.close()
