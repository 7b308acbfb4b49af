"""The hint without the server: the server's hint (``magdagdon.bots.hints.best``, what a compute
process answers) under Pyodide in node, over the same mid-game states as bench/bot_bench.py, and
what its modules and tables would add to the offline engine's download.

Prints per difficulty p50 / p95 / max of wall and CPU time (node's process CPU), the time to
import the bots and build their tables (``hints.warm``: what a compute process pays at start),
whether each answer is CPython's, and the sizes (raw, brotli quality 11): the bots' zip as the
page loads it (``build/web-engine/magdagdon-bots.zip``: ``magdagdon/bots/*.py`` and ``bots/data``,
as ``tools/pyodide/bundle.py`` writes it) and the standard-library files the hint loads beyond
tools/pyodide/stdlib-keep.txt. The load average is printed with them.

Usage: ``python bench/pyodide_hint.py [--states N]`` (after ``make pyodide``).
"""

from __future__ import annotations

import argparse
import io
import json
import os
import statistics
import subprocess
import sys
import zipfile
from pathlib import Path

from bot_bench import mid_game_states
from magdagdon.bots import hints
from magdagdon.engine import Difficulty, state_to_json
from magdagdon.sim.summary import percentile

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src"
WEB_ENGINE = ROOT / "build" / "web-engine"
FULL_STDLIB = ROOT / "build" / "pyodide" / "python_stdlib.zip"
BOTS_ZIP = WEB_ENGINE / "magdagdon-bots.zip"
BROTLI = (
    "const z = require('node:zlib');"
    "const d = require('node:fs').readFileSync(0);"
    "console.log(z.brotliCompressSync(d, { params: { [z.constants.BROTLI_PARAM_QUALITY]: 11 } })"
    ".length)"
)


def brotli(data: bytes) -> int:
    done = subprocess.run(["node", "-e", BROTLI], input=data, capture_output=True, check=True)
    return int(done.stdout)


def stdlib_extra(files: list[str]) -> bytes:
    lines = (ROOT / "tools" / "pyodide" / "stdlib-keep.txt").read_text(encoding="utf-8")
    keep = {line for line in lines.splitlines() if line and not line.startswith("#")}
    out = io.BytesIO()
    with zipfile.ZipFile(FULL_STDLIB) as full, zipfile.ZipFile(out, "w") as zf:
        for name in sorted(set(files) - keep):
            zf.writestr(name, full.read(name), zipfile.ZIP_DEFLATED, 9)
    return out.getvalue()


def line(name: str, values: list[float]) -> str:
    return (
        f"{name} p50 {statistics.median(values):7.0f} ms  p95 {percentile(values, 0.95):7.0f} ms"
        f"  max {max(values):7.0f} ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--states", type=int, default=50)
    args = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
    states = {d.value: mid_game_states(d, args.states, seed=99) for d in Difficulty}
    expected: dict[str, list[dict[str, object]]] = {}
    hints.warm()  # as the node half does first: the bot's caches in the same order
    for name, listed in states.items():
        expected[name] = []
        for state in listed:
            action, placement, value = hints.best(state)
            answer = {"action": action, "placement": placement, "value": value}
            expected[name].append(json.loads(json.dumps(answer)))  # as JSON: tuples are lists
    request = {name: [state_to_json(s) for s in listed] for name, listed in states.items()}
    script = ROOT / "bench" / "pyodide_hint.mjs"
    command = ["node", str(script), str(WEB_ENGINE), str(FULL_STDLIB), str(BOTS_ZIP)]
    done = subprocess.run(command, input=json.dumps(request), capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(done.stderr[-3000:])
    got = json.loads(done.stdout.splitlines()[-1])
    print(f"Pyodide in node; after it the load average is {os.getloadavg()[0]:.1f}")
    print(
        f"importing the bots {got['importing']['wall']:.0f} ms wall, "
        f"{got['importing']['cpu']:.0f} ms CPU; their tables (hints.warm) "
        f"{got['warm']['wall']:.0f} ms wall, {got['warm']['cpu']:.0f} ms CPU"
    )
    for name, runs in got["runs"].items():
        pairs = zip(got["answers"][name], expected[name], strict=True)
        differ = [(a, b) for a, b in pairs if a != b]
        print(f"hint {name:9s} {len(runs)} states, {len(differ)} answers not CPython's")
        for theirs, mine in differ[:2]:
            print(f"  Pyodide {theirs}\n  CPython {mine}")
        print("  wall " + line("", [r["wall"] for r in runs]))
        print("  CPU  " + line("", [r["cpu"] for r in runs]))
    bots = BOTS_ZIP.read_bytes()
    extra = stdlib_extra(got["files"])
    print(f"the bots' zip: {len(bots) / 1e3:.0f} kB raw, {brotli(bots) / 1e3:.0f} kB brotli")
    print(
        f"the standard library the hint loads beyond the kept list: "
        f"{len(extra) / 1e3:.0f} kB raw, {brotli(extra) / 1e3:.0f} kB brotli"
    )
    print(f"Pyodide's wasm memory after the hints: {got['wasm_memory'] / 2**20:.0f} MB")


if __name__ == "__main__":
    main()
