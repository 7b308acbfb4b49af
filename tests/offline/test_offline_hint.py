"""The hint without the server (docs/bots.md "The hint offline"): the page's engine worker
answers it with the server's own bots (``magdagdon-bots.zip``, ``bots/offline.py``), started as
the worker starts them (``web/engine/boot.mjs``); on 51 states of every difficulty, some with
dice staged, its answer is the server's (``hints.best``) to the last figure. Its sums of floats
add in the server's order: Pyodide's Python (3.12 and later) compensates ``sum()``'s rounding,
and a value one bit apart can break a tie the other way."""

from __future__ import annotations

import json
import random
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from magdagdon.bots.base import make_bot
from magdagdon.bots.hints import best
from magdagdon.engine import Difficulty, GameState, Phase, Stage, state_to_json

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("pyodide")]

ROOT = Path(__file__).resolve().parents[2]
WEB_ENGINE = ROOT / "build" / "web-engine"
STATES = 17  # a difficulty
TERMS = [1e16, 1.0, -1e16]  # added in order: 1.0 is lost; compensated: it is kept


def states(difficulty: Difficulty) -> list[GameState]:
    """Greedy games cut at a turn drawn by the seed: phase roll, place (a die staged in some)
    and magdagdon."""
    greedy = make_bot("greedy")
    found: list[GameState] = []
    for seed in range(STATES):
        rng = random.Random(seed)
        state = GameState.new(difficulty, seed)
        stop = rng.randint(1, 7)
        at_roll = seed % 4 == 1  # some where I-ROLL is the only move
        while not state.is_over and not _there(state, stop, at_roll=at_roll):
            state = state.apply(greedy.choose(state, rng))
        if state.phase is Phase.PLACE and seed % 3 == 0:
            die, cells = next((d, c) for d, c in state.valid_cells().items() if c)
            state = state.apply(Stage(die, cells[-1]))
        if not state.is_over:
            found.append(state)
    return found


def _there(state: GameState, stop: int, *, at_roll: bool) -> bool:
    if state.turn < stop:
        return False
    return state.phase is Phase.ROLL if at_roll else not state.order


def test_the_offline_hint_is_the_server_s() -> None:
    assert (ROOT / "build" / "pyodide" / ".pin").is_file(), "Pyodide is missing: `make pyodide`"
    bundle = ROOT / "tools" / "pyodide" / "bundle.py"
    subprocess.run([sys.executable, str(bundle)], check=True, capture_output=True)
    listed = [s for d in Difficulty for s in states(d)]
    assert len(listed) >= 50
    assert any(s.order for s in listed)
    assert {s.phase for s in listed} >= {Phase.ROLL, Phase.PLACE}
    node = shutil.which("node")
    assert node, "node is missing: `make node`"
    done = subprocess.run(
        [node, str(Path(__file__).with_name("run_hints.mjs")), str(WEB_ENGINE)],
        input=json.dumps({"states": [state_to_json(s) for s in listed], "terms": TERMS}),
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    answered = json.loads(done.stdout)
    # the terms whose sum in order is not their exact sum: there the two ways part
    assert answered["sums"]["ordered"] == sum(TERMS) == 0.0
    assert answered["sums"]["builtin"] != answered["sums"]["ordered"]  # why the bots need theirs
    offline: list[dict[str, Any]] = answered["hints"]
    for state, got in zip(listed, offline, strict=True):
        action, placement, value = best(state)
        server = {
            "action": action,
            "placement": [{"die": die, "cell": cell} for die, cell in placement],
            "expected_value": value,
        }
        assert got == server, state_to_json(state)
