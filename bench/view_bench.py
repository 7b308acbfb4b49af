"""The state view's cost (``engine/view.py``: what the server and the page's engine worker build
after every action), on the states of random games, here and, with ``--before SRC``, in another
tree's ``src`` (e.g. ``/work/main/src``), in alternating fresh processes (ABAB…), so that the
machine's load falls on both alike.

Usage: ``python bench/view_bench.py [--before SRC] [--rounds N] [--states N]``.
Prints the median over rounds of each side's µs a view (thread CPU) and the load average.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

HERE_SRC = Path(__file__).resolve().parents[1] / "src"

# run in a fresh process whose magdagdon is the tree's under test
MEASURE = """
import json, random, sys, time
from magdagdon.engine import Difficulty, GameState
from magdagdon.engine.view import state_view
rng = random.Random(0)
states, seed = [], 0
while len(states) < {states}:
    state = GameState.new(Difficulty.SURVIVAL, seed)
    seed += 1
    while not state.is_over and len(states) < {states}:
        states.append(state)
        state = state.apply(rng.choice(state.legal_actions()))
for state in states:
    state_view(state, game_id="g", version=1)  # warm the engine's position tables
best = float("inf")
for _ in range(5):
    start = time.thread_time()
    for state in states:
        state_view(state, game_id="g", version=1)
    best = min(best, time.thread_time() - start)
print(json.dumps(best * 1e6 / len(states)))
"""


def measure(src: Path, states: int) -> float:
    env = {**os.environ, "PYTHONPATH": str(src)}
    code = MEASURE.format(states=states)
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(done.stderr)
    value: float = json.loads(done.stdout)
    return value


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", type=Path, help="another tree's src, measured alternately")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--states", type=int, default=2000)
    args = parser.parse_args()
    here: list[float] = []
    before: list[float] = []
    for _ in range(args.rounds):
        here.append(measure(HERE_SRC, args.states))
        if args.before:
            before.append(measure(args.before, args.states))
    line = f"state_view: {statistics.median(here):.1f} µs a view (thread CPU)"
    if before:
        line += f", before {statistics.median(before):.1f} µs"
    print(f"{line}; {args.rounds} rounds, load average {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
