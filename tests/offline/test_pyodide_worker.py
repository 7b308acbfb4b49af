"""The engine worker (web/engine/worker.js) in Debian's Chromium, started by the game's page
from a live server under the page's own Content-Security-Policy: Pyodide and the engine come
from the server's /engine/ files, and its answers are CPython's state views."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from magdagdon.engine import host

if TYPE_CHECKING:
    from playwright.sync_api import Page

    from server_process import ServerProcess

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SESSION = Path(__file__).with_name("worker_session.js").read_text(encoding="utf-8")
GAME = {"difficulty": "survival", "seed": 5, "game_id": "w1", "mode": "practice"}
MOVES: list[Any] = [
    {"type": "roll"},
    "stage",
    "stage",
    {"type": "confirm", "extra": 1},  # refused or not, as CPython says
    "confirm-or-roll",
    {"type": "fly"},  # malformed: an error, the game unchanged
    "confirm-or-roll",
]


def cpython_answers(actions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """What magdagdon.engine.host answers to the same messages under CPython."""
    answers = [json.loads(host.open_game(json.dumps({**GAME, "actions": []})))]
    log = []
    for action in actions:
        answer = json.loads(host.act(json.dumps({"action": action})))
        answers.append(answer)
        log += [] if "error" in answer else [answer["action"]]
    answers.append(json.loads(host.open_game(json.dumps({**GAME, "actions": log}))))
    return answers


def test_worker_plays_as_the_server(page: Page, engine_server: ServerProcess) -> None:
    page.goto(engine_server.url + "/")
    policy = page.evaluate("async () => (await fetch('/')).headers.get('content-security-policy')")
    assert "wasm-unsafe-eval" not in policy  # the page itself may compile no WebAssembly
    result = page.evaluate(SESSION, {"game": GAME, "moves": MOVES})
    assert result["ready"]["type"] == "ready", result["ready"]
    assert result["ready"]["python"].startswith("3.14.")
    got = [{k: v for k, v in a.items() if k not in ("id", "ms")} for a in result["answers"]]
    assert got == cpython_answers(result["actions"])
    codes = [a["error"]["code"] for a in got if "error" in a]
    assert "malformed" in codes
    assert [a["view"]["phase"] for a in got if "view" in a][:2] == ["roll", "place"]
    assert got[-1]["view"] == next(a for a in reversed(got[:-1]) if "view" in a)["view"]
