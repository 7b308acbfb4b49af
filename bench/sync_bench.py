"""Sync benchmark: the server time of one ``POST /api/games/sync`` of a long offline game (a
roll, then stage/unstage pairs, ``--actions`` in all: the bound is 1,000), new to the server,
on a fresh SQLite file (``synchronous=FULL``) through the app in this process; with ``--before
SRC``, the same for another checkout's ``src`` (run in a child process), in alternating rounds.
Prints the median of ``--rounds`` syncs each, and the load average beside it.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

_ONE = r"""
import json, sys, tempfile, time
from fastapi.testclient import TestClient
from magdagdon.api.app import create_app
from magdagdon.engine import Difficulty, GameState, action_to_json
from magdagdon.settings import Settings

count = int(sys.argv[1])
state = GameState.new(Difficulty.PEACEFUL, 1)
log = [{"type": "roll"}]
state = state.apply(state.legal_actions()[0])
stage = next(a for a in state.legal_actions() if type(a).__name__ == "Stage")
staged = state.apply(stage)
unstage = next(a for a in staged.legal_actions() if type(a).__name__ == "Unstage")
while len(log) + 2 <= count:
    log += [action_to_json(stage), action_to_json(unstage)]
body = {"id": "bench", "difficulty": "peaceful", "seed": 1, "mode": "normal",
        "daily_date": None, "actions": log}
with tempfile.TemporaryDirectory() as tmp:
    app = create_app(f"{tmp}/bench.sqlite3", settings=Settings(rate_limits=False))
    with TestClient(app) as client:
        client.put("/api/player", json={"language": "fil"})
        begin = time.perf_counter()
        answer = client.post("/api/games/sync", json=body)
        seconds = time.perf_counter() - begin
        assert answer.status_code == 200, answer.text
        assert answer.json()["version"] == len(log), answer.text
print(json.dumps({"seconds": seconds, "actions": len(log)}))
"""


def one(src: str | None, actions: int) -> float:
    env = dict(os.environ)
    if src is not None:
        env["PYTHONPATH"] = src
    done = subprocess.run(
        [sys.executable, "-c", _ONE, str(actions)],
        env=env,
        capture_output=True,
        text=True,
        check=True,
        cwd=tempfile.gettempdir(),
    )
    return float(json.loads(done.stdout.strip().splitlines()[-1])["seconds"])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--actions", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--before", metavar="SRC", help="another checkout's src, beside")
    args = parser.parse_args()
    codes: list[str | None] = [None] if args.before is None else [None, args.before]
    times: dict[str | None, list[float]] = {code: [] for code in codes}
    loads: list[float] = []
    for index in range(args.rounds):
        for code in codes if index % 2 == 0 else codes[::-1]:
            times[code].append(one(code, args.actions))
            loads.append(os.getloadavg()[0])
    print(f"a sync of one new game of {args.actions} actions (SQLite, FULL), {args.rounds} rounds")
    for code in codes:
        label = "this code" if code is None else f"before ({Path(code)})"
        rounds = ", ".join(f"{t:.2f}" for t in times[code])
        print(f"    {label}: median {statistics.median(times[code]):.2f} s ({rounds})")
    print(f"    load average (1 min) during the runs: {statistics.median(loads):.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
