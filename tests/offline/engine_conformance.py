"""The conformance driver: the same checks run by CPython (pytest) and by Pyodide (node), whose
answers must be equal. The engine and the standard-library modules the page's worker loads only
(tools/pyodide/stdlib-keep.txt: the page's Pyodide has nothing else).

``run(request)`` takes and returns JSON text:
- ``games``: ``[difficulty, seed, full]``: a game played through ``magdagdon.engine.host`` (as
  the page's worker plays: opened, then one action at a time, then opened again from its log)
  with random legal actions drawn from ``random.Random(seed)``; each reply with the kept game's
  codec state, all of them when ``full``, else their SHA-256;
- ``perft``: ``[name, rows, roll, expected]`` (tests/engine/test_engine_perft.py's fixtures): the
  number of stage sequences of each length 1..len(expected);
- ``daily``: dates ``YYYY-MM-DD``: on each difficulty, a published seed's commitment and its
  game's first roll;
- ``warnings``: every warning the engine's modules give when compiled, or while the games run.
"""

from __future__ import annotations

import gc
import hashlib
import json
import random
import sys
import warnings
from datetime import date
from pathlib import Path
from typing import Any

import magdagdon.engine
from magdagdon.engine import Difficulty, GameState, Stage, action_to_json, host, state_to_json
from magdagdon.engine.board import RUIN_CODE, from_codes
from magdagdon.engine.daily import commitment


def _kept_state() -> GameState:
    kept = host.kept_game()
    assert kept is not None
    return kept[0]


def _with_state(reply: str) -> dict[str, Any]:
    return {**json.loads(reply), "state": state_to_json(_kept_state())}


def play_game(difficulty: str, seed: int) -> list[dict[str, Any]]:
    """Every reply of a random game, from its opening to the end, and the end opened again
    from the game's log."""
    rng = random.Random(seed)
    game = {"difficulty": difficulty, "seed": seed, "game_id": f"g{seed}"}
    reply = _with_state(host.open_game(json.dumps({**game, "actions": []})))
    replies, log = [reply], []
    while reply["view"]["phase"] != "over":
        action = action_to_json(rng.choice(_kept_state().legal_actions()))
        reply = _with_state(host.act(json.dumps({"action": action})))
        replies.append(reply)
        log.append(reply["action"])
    replies.append(_with_state(host.open_game(json.dumps({**game, "actions": log}))))
    return replies


def _codes(rows: list[str]) -> list[int]:
    return [0 if ch == "." else RUIN_CODE if ch == "R" else int(ch) for row in rows for ch in row]


def _sequences(state: GameState, length: int) -> int:
    if length == 0:
        return 1
    stages = (a for a in state.legal_actions() if isinstance(a, Stage))
    return sum(_sequences(state.apply(a), length - 1) for a in stages)


def perft(rows: list[str], roll: list[int], depth: int) -> list[int]:
    state = GameState(Difficulty.PEACEFUL, 1, board=from_codes(_codes(rows))).roll_with(tuple(roll))
    return [_sequences(state, k) for k in range(1, depth + 1)]


def daily(day: str) -> dict[str, Any]:
    out = {}
    for index, difficulty in enumerate(Difficulty):
        # a seed as a server publishes one once the day is over (any below 2**53)
        seed = int(day.replace("-", "")) * 7919 + index
        game = {
            "difficulty": difficulty.value,
            "game_id": "d",
            "daily_date": day,
            "mode": "practice",
            "seed": seed,
            "actions": [{"type": "roll"}],
        }
        rolled = json.loads(host.open_game(json.dumps(game)))
        out[difficulty.value] = {
            "seed": seed,
            "commitment": commitment(date.fromisoformat(day), difficulty, seed),
            "dice": [d["value"] for d in rolled["view"]["dice"]],
            "daily": rolled["view"]["daily"],
        }
    return out


def compile_warnings() -> list[str]:
    found = []
    # a glob, not pkgutil: the page's standard library has only what the engine worker loads
    for path in sorted(Path(magdagdon.engine.__path__[0]).glob("*.py")):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            compile(path.read_text(encoding="utf-8"), str(path), "exec", dont_inherit=True)
        found += [f"{path.stem}: {w.category.__name__}: {w.message}" for w in caught]
    return found


def run(request: str) -> str:
    data = json.loads(request)
    # the garbage of earlier tests in this process (an unclosed socket…) is collected before,
    # and the collector waits until after: its warnings are not the engine's
    gc.collect()
    gc.disable()
    try:
        return _run(data)
    finally:
        gc.enable()


def _run(data: dict[str, Any]) -> str:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        games = []
        for difficulty, seed, full in data["games"]:
            replies = play_game(difficulty, seed)
            texts = [json.dumps(r, sort_keys=True) for r in replies]
            if full:
                games.append({"difficulty": difficulty, "seed": seed, "replies": replies})
            else:
                digest = hashlib.sha256("\n".join(texts).encode()).hexdigest()
                games.append(
                    {"difficulty": difficulty, "seed": seed, "length": len(texts), "sha256": digest}
                )
        result = {
            "games": games,
            "perft": {
                name: perft(rows, roll, len(expected))
                for name, rows, roll, expected in data["perft"]
            },
            "daily": {day: daily(day) for day in data["daily"]},
        }
    result["warnings"] = compile_warnings() + [
        f"{w.category.__name__}: {w.message}" for w in caught
    ]
    result["python"] = {"version": list(sys.version_info[:3]), "platform": sys.platform}
    return json.dumps(result)
