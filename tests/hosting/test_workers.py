"""Issue 20 item 2: ``magdagdon serve --workers N`` runs N processes on one address over one
database; a worker killed with SIGKILL under load loses no acknowledged action, and the other
goes on serving while it is replaced. On SQLite and on PostgreSQL."""

from __future__ import annotations

import http.client
import json
import os
import random
import signal
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

import server_process
from magdagdon.engine import Action, action_from_json, action_to_json, replay
from magdagdon.store import Store
from server_process import launch_server

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

    from server_process import ServerProcess

pytestmark = pytest.mark.slow
CLIENTS = 8


def workers_of(server: ServerProcess) -> set[int]:
    """The worker processes of the server (its spawned children, not the resource tracker)."""
    pid = server.process.pid
    children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    found = set()
    for child in map(int, children):
        try:
            command = Path(f"/proc/{child}/cmdline").read_bytes()
        except FileNotFoundError:
            continue
        if b"spawn_main" in command:
            found.add(child)
    return found


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, make_db: Callable[..., str]) -> str:
    """A fresh database of each kind (tests/api's ``db_kind`` is SQLite only out here)."""
    return make_db(request.param)


@pytest.fixture
def two_workers(
    db_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[ServerProcess]:
    # each worker is a fresh interpreter importing everything: slow on a loaded machine
    monkeypatch.setattr(server_process, "SERVER_START_TIMEOUT", 180.0)
    server = launch_server(db_url, tmp_path / "logs", "--workers", "2")
    yield server
    server.kill()


class Player(threading.Thread):
    """A client playing random games as fast as it can on a keep-alive connection; it keeps
    every action the server acknowledged (game, version, action), and the times of those."""

    def __init__(self, server: ServerProcess, index: int, stop: threading.Event) -> None:
        super().__init__(daemon=True)
        self.server, self.stop, self.rng = server, stop, random.Random(index)
        self.cookie = ""
        self.acknowledged: list[tuple[str, int, Action]] = []
        self.answered_at: list[float] = []
        self.failures = 0
        self.conn = self._connect()

    def _connect(self) -> http.client.HTTPConnection:
        return http.client.HTTPConnection(self.server.host, self.server.port, timeout=30)

    def call(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        headers = {"content-type": "application/json"}
        if self.cookie:
            headers["cookie"] = self.cookie
        try:
            self.conn.request(
                method, path, body=None if body is None else json.dumps(body), headers=headers
            )
            response = self.conn.getresponse()
            data = json.loads(response.read() or b"null")
        except (OSError, http.client.HTTPException):
            self.failures += 1  # its worker was killed: not acknowledged
            self.conn.close()
            self.conn = self._connect()
            return 0, None
        cookie = response.getheader("set-cookie")
        if cookie:
            self.cookie = cookie.split(";")[0]
        return response.status, data

    def run(self) -> None:
        state: dict[str, Any] | None = None
        while not self.stop.is_set():
            if state is None or state["phase"] == "over":
                status, state = self.call("POST", "/api/games", {"difficulty": "survival"})
                if status != 201:
                    state = None
                continue
            action = action_from_json(self.rng.choice(_legal(state)))
            status, answer = self.call(
                "POST", f"/api/games/{state['id']}/actions", action_to_json(action)
            )
            if status == 200:
                self.acknowledged.append((state["id"], answer["version"], action))
                self.answered_at.append(time.monotonic())
                state = answer
            else:  # lost with its worker, or refused: read the game as it is now
                status, state = self.call("GET", f"/api/games/{state['id']}")
                if status != 200:
                    state = None


def _legal(state: dict[str, Any]) -> list[dict[str, Any]]:
    """The moving actions a player could take, from the state JSON alone."""
    phase = state["phase"]
    if phase == "roll":
        return [{"type": "roll"}]
    if phase == "magdagdon":
        return [{"type": "ruin", "cell": cell} for cell in state["ruinable"]]
    if state["can_confirm"]:
        return [{"type": "confirm"}]
    if state["stuck"]:
        staged = [d["id"] for d in state["dice"] if d["cell"] is not None]
        return [{"type": "unstage", "die": die} for die in staged]
    return [
        {"type": "stage", "die": int(die), "cell": cell}
        for die, cells in state["valid_cells"].items()
        for cell in cells
    ]


def test_sigkill_of_one_worker_of_two_under_load_loses_no_acknowledged_action(
    two_workers: ServerProcess, db_url: str
) -> None:
    server = two_workers
    before = workers_of(server)
    assert len(before) == 2
    stop = threading.Event()
    players = [Player(server, index, stop) for index in range(CLIENTS)]
    for player in players:
        player.start()
    time.sleep(2.0)  # under load
    victim = min(before)
    os.kill(victim, signal.SIGKILL)
    killed_at = time.monotonic()

    def replaced() -> bool:
        now = workers_of(server)
        return len(now) == 2 and victim not in now

    deadline = time.monotonic() + 90
    while not replaced():
        assert time.monotonic() < deadline, "the killed worker was not replaced"
        time.sleep(0.1)
    time.sleep(2.0)  # the new worker serves too
    stop.set()
    for player in players:
        player.join(60)

    answered = sorted(t for player in players for t in player.answered_at)
    # the other worker went on serving at once (a new one takes far longer to start)
    assert any(killed_at < t < killed_at + 0.5 for t in answered)
    assert server.process.poll() is None  # the supervisor itself lives on
    server.stop()
    check_acknowledged(db_url, [a for player in players for a in player.acknowledged])


def check_acknowledged(db: str, acknowledged: list[tuple[str, int, Action]]) -> None:
    """Every acknowledged action is in its game's log at the version it produced, and every
    game's saved state is the replay of its log."""
    assert len(acknowledged) > 100
    with Store(db) as store:
        logs: dict[str, list[Action]] = {}
        for game_id, version, action in acknowledged:
            if game_id not in logs:
                logs[game_id] = store.actions(game_id)
            log = logs[game_id]
            assert len(log) >= version, (game_id, version)
            assert log[version - 1] == action, (game_id, version)
        for game_id, log in logs.items():
            game = store.game(game_id)
            assert game is not None
            assert game.version == len(log)
            assert replay(game.difficulty, game.seed, log) == game.state
