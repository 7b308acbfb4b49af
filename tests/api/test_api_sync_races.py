"""Syncs of one game at once (docs/api.md ``POST /api/games/sync``): two devices of one player
send the same offline game together, again and again, on each database — for a game new to the
server and for one it has the start of. The log stored is the one sent, every answer is 200 or
409 ``sync_conflict`` (never another code, never a 500), and a later sync of the true log is
answered 200 ``same``. Two devices' different branches of one game are both kept."""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any

import pytest
from fastapi.testclient import TestClient
from sync_helpers import offline_game

from api_helpers import whole_game
from magdagdon.engine import Difficulty, GameState, action_to_json

if TYPE_CHECKING:
    from fastapi import FastAPI

ROUNDS = 50
WAIT = 120.0  # seconds: a barrier that long means a sync hung


def second_device(app: FastAPI, client: TestClient) -> TestClient:
    """Another device of ``client``'s player (made now, by a game begun): its own connection,
    the same cookie."""
    assert client.post("/api/games", json={"difficulty": "peaceful"}).status_code == 201
    device = TestClient(app)
    device.cookies.update(client.cookies)
    return device


def both_at_once(devices: list[TestClient], body: dict[str, Any]) -> list[Any]:
    """Each device sends ``body`` at the same moment (a barrier before each request)."""
    together = threading.Barrier(len(devices), timeout=WAIT)

    def send(device: TestClient) -> Any:
        together.wait()
        answer = device.post("/api/games/sync", json=body)
        # on a loaded machine the second may wait on the first's lock past the server's
        # patience: it answers 503 with Retry-After, changing nothing, and the page sends again
        while answer.status_code == 503:
            assert answer.json()["error"]["code"] == "storage_unavailable", answer.text
            time.sleep(float(answer.headers["retry-after"]))
            answer = device.post("/api/games/sync", json=body)
        return answer

    with ThreadPoolExecutor(len(devices)) as pool:
        return list(pool.map(send, devices))


@pytest.mark.parametrize("stored_first", [False, True], ids=["new", "already-stored"])
def test_two_devices_syncing_one_game_at_once_store_it_once(
    app: FastAPI, client: TestClient, stored_first: bool
) -> None:
    devices = [client, second_device(app, client)]
    codes: dict[tuple[int, str | None], int] = {}
    for round_ in range(ROUNDS):
        game = offline_game(1000 + round_, f"race-{round_}")
        if stored_first:
            start = client.post("/api/games/sync", json={**game, "actions": game["actions"][:3]})
            assert start.status_code == 200, start.text
        for answer in both_at_once(devices, game):
            code = answer.json().get("error", {}).get("code")
            codes[(answer.status_code, code)] = codes.get((answer.status_code, code), 0) + 1
            assert (answer.status_code, code) in {(200, None), (409, "sync_conflict")}, answer.text
            if answer.status_code == 200:
                assert answer.json()["version"] == len(game["actions"])
                assert answer.json()["sync"]["game_id"] == game["id"]
        log = client.get(f"/api/games/{game['id']}/log").json()
        assert log["actions"] == game["actions"]
        later = client.post("/api/games/sync", json=game)
        assert later.status_code == 200, later.text
        assert later.json()["sync"]["outcome"] == "same"
    outcomes = client.get("/api/stats?difficulty=peaceful").json()
    assert outcomes["finished"] == ROUNDS  # each game once: no copy, no lost one
    assert codes[(200, None)] >= ROUNDS  # serialised, so in practice every answer is a 200


def test_two_devices_different_branches_of_one_game_are_both_kept(
    app: FastAPI, client: TestClient
) -> None:
    """Device X syncs 4 moves of a game; device Y, which had the same start, finished it
    another way offline: Y's game is kept too, as practice, in STATISTIKA and unranked."""
    x, y = client, second_device(app, client)
    start = offline_game(77, "two-ways", upto=1)  # rolled on one device, then offline on both
    assert x.post("/api/games/sync", json=start).status_code == 200
    state = GameState.new(Difficulty.PEACEFUL, 77)
    finished = whole_game(state)
    rolled = state.apply(finished[0])
    # X staged another die than Y's whole game does first
    other = next(
        a
        for a in rolled.legal_actions()
        if a != finished[1] and a.__class__ is finished[1].__class__
    )
    x_log = [action_to_json(finished[0]), action_to_json(other)]
    x_answer = x.post("/api/games/sync", json={**start, "actions": x_log})
    assert x_answer.json()["sync"]["outcome"] == "extended"
    y_answer = y.post("/api/games/sync", json=offline_game(77, "two-ways"))
    assert y_answer.status_code == 200, y_answer.text
    kept = y_answer.json()
    assert kept["sync"]["outcome"] == "branch"
    assert kept["sync"]["game_id"] != "two-ways"
    assert (kept["mode"], kept["phase"], kept["rank"]) == ("practice", "over", None)
    assert x.get("/api/games/two-ways/log").json()["actions"] == x_log  # X's game as X left it
    assert x.get("/api/highscores?difficulty=peaceful").json() == []  # practice never ranks
    assert x.get("/api/stats?difficulty=peaceful").json()["finished"] == 1  # but counts
