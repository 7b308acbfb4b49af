"""An answer lost on the way, on a real server over a connection that really loses answers: an
action whose answer was dropped, sent again with the same ``version``, answers the state it produced
and is in the server's action log once."""

from __future__ import annotations

import http.client
import json
from typing import TYPE_CHECKING, Any

import pytest

from device.dropping_proxy import DroppingProxy
from magdagdon.api.cookies import COOKIE
from magdagdon.store import Store
from waits import EVENTUALLY

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator
    from pathlib import Path

    from server_process import ServerProcess


@pytest.fixture
def proxy(
    start_server: Callable[[str | Path], ServerProcess], tmp_path: Path
) -> Iterator[tuple[DroppingProxy, ServerProcess]]:
    server = start_server(tmp_path / "retry.sqlite3")
    made = DroppingProxy(server.port)
    yield made, server
    made.close()


class Device:
    """A client with its player cookie, through the proxy."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.cookie = ""

    def send(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=EVENTUALLY)
        headers = {"content-type": "application/json"}
        if self.cookie:
            headers["cookie"] = self.cookie
        try:
            payload = None if body is None else json.dumps(body)
            connection.request(method, path, body=payload, headers=headers)
            answer = connection.getresponse()
            for name, value in answer.getheaders():
                if name.lower() == "set-cookie" and value.startswith(COOKIE):
                    self.cookie = value.split(";", 1)[0]
            return answer.status, json.loads(answer.read() or b"null")
        finally:
            connection.close()


def test_an_action_whose_answer_was_lost_is_applied_once(
    proxy: tuple[DroppingProxy, ServerProcess],
) -> None:
    lossy, server = proxy
    device = Device(lossy.port)
    status, game = device.send("POST", "/api/games", {"difficulty": "peaceful", "seed": 5})
    assert status == 201
    actions = f"/api/games/{game['id']}/actions"

    lossy.lose(1)
    with pytest.raises((http.client.RemoteDisconnected, ConnectionResetError)):
        device.send("POST", actions, {"type": "roll", "version": 0})
    assert lossy.dropped == 1

    status, rolled = device.send("POST", actions, {"type": "roll", "version": 0})
    assert status == 200
    assert rolled["version"] == 1
    assert rolled["phase"] == "place"
    with Store(server.db) as store:
        assert [a.__class__.__name__ for a in store.actions(game["id"])] == ["Roll"]
    # the same dice as the lost answer held: it is that roll's state, not a new roll
    status, seen = device.send("GET", f"/api/games/{game['id']}")
    assert seen == rolled

    # a stage whose answer is lost, sent again: once, and the state it produced
    cell = rolled["valid_cells"]["0"][0]
    stage = {"type": "stage", "die": 0, "cell": cell, "version": 1}
    lossy.lose(1)
    with pytest.raises((http.client.RemoteDisconnected, ConnectionResetError)):
        device.send("POST", actions, stage)
    status, staged = device.send("POST", actions, stage)
    assert status == 200
    assert staged["version"] == 2
    assert staged["dice"][0]["cell"] == cell
    with Store(server.db) as store:
        assert len(store.actions(game["id"])) == 2

    # another action at that old version is no retry: a conflict, nothing applied
    status, error = device.send("POST", actions, {"type": "confirm", "version": 1})
    assert status == 409
    assert error["error"]["code"] == "version_conflict"
    with Store(server.db) as store:
        assert len(store.actions(game["id"])) == 2
