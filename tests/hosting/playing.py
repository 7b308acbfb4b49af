"""Clients that play real servers in the hosting tests: random games as fast as they can, every
acknowledged action kept, and a check that a database holds them."""

from __future__ import annotations

import http.client
import json
import random
import threading
import time
from collections import Counter
from typing import TYPE_CHECKING, Any

from magdagdon.engine import Action, action_from_json, action_to_json, replay
from magdagdon.store import Store
from waits import wait_until

if TYPE_CHECKING:
    from server_process import ServerProcess


class Player(threading.Thread):
    """A client playing random games as fast as it can on a keep-alive connection; it keeps
    every action the server acknowledged (game, version, action), and the times of those."""

    def __init__(self, server: ServerProcess, index: int, stop: threading.Event) -> None:
        super().__init__(daemon=True)
        self.server, self.stop, self.rng = server, stop, random.Random(index)
        self.cookie = ""
        self.acknowledged: list[tuple[str, int, Action]] = []
        self.answered_at: list[float] = []
        self.failures = 0  # connections lost (reset, closed) with the request on them
        self.statuses: Counter[str] = Counter()  # statuses, with the error's code
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
        code = data["error"]["code"] if response.status >= 400 and isinstance(data, dict) else ""
        self.statuses[f"{response.status} {code}".strip()] += 1
        return response.status, data

    def run(self) -> None:
        try:
            self._play()
        finally:
            self.conn.close()  # a later call() connects again

    def _play(self) -> None:
        state: dict[str, Any] | None = None
        while not self.stop.is_set():
            if state is None or state["phase"] == "over":
                status, state = self.call("POST", "/api/games", {"difficulty": "survival"})
                if status != 201:
                    state = None
                continue
            action = action_from_json(self.rng.choice(legal_moves(state)))
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


def legal_moves(state: dict[str, Any]) -> list[dict[str, Any]]:
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


def start_playing(
    server: ServerProcess, stop: threading.Event, clients: int, answered: int
) -> list[Player]:
    """``clients`` players playing on ``server`` until ``stop``, once ``answered`` actions of
    theirs were acknowledged."""
    players = [Player(server, index, stop) for index in range(clients)]
    for player in players:
        player.start()
    wait_until(lambda: sum(len(p.acknowledged) for p in players) > answered, "clients playing")
    return players


def check_acknowledged(db: str, acknowledged: list[tuple[str, int, Action]]) -> None:
    """Every acknowledged action is in its game's log at the version it produced, and every
    such game's saved state is the replay of its log."""
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
