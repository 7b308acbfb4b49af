"""The engine in the page (Pyodide): what the page would download, how long Pyodide and the
engine take to start, and what an action costs.

- sizes: every file of build/web-engine/ (``make pyodide``), raw and brotli (quality 11, node's
  zlib), and their sum: what the engine worker loads;
- node: a fresh process's start of Pyodide + engine (wall and CPU), an ``act`` message through
  magdagdon.engine.host on the game it keeps (JSON in and out, the state view: the worker's
  path) and a bare ``GameState.apply``, over random survival games; CPython's same ``act`` for
  comparison;
- Chromium (Debian's): the engine worker started by the game's page from a live server, in a
  fresh browser context (cold: nothing cached) and again in the same context (warm: files
  revalidated by ETag, compiled code cached by the browser), and the time of a message's answer;
- the page's budgets (bench/pyodide_page.py): the engine ready after a reopening without the
  connection, an offline tap on a lit cell → the die drawn, the page's memory with the engine;
- memory (bench/pyodide_memory.py): the page's memory with the engine in a Chromium no test
  driver instruments (Playwright's network agent keeps copies of the response bodies).

Usage: ``python bench/pyodide_bench.py [--actions N] [--runs N] [--taps N] [--parts ...]``.
Wall times depend on the machine's load: the load average is printed with them.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import uvicorn
from playwright.sync_api import sync_playwright

import pyodide_memory
import pyodide_page
from magdagdon.api.app import create_app
from magdagdon.api.page.static import ENGINE_RUNTIME_DIR
from magdagdon.engine import action_to_json, host

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = "/usr/bin/chromium"
SESSION = (ROOT / "tests" / "offline" / "worker_session.js").read_text(encoding="utf-8")
MOVES: list[Any] = [{"type": "roll"}, "stage", "stage", "confirm-or-roll"] * 3


def node_run(actions: int) -> dict[str, Any]:
    out = subprocess.run(
        ["node", str(ROOT / "bench" / "pyodide_node.mjs"), str(ENGINE_RUNTIME_DIR), str(actions)],
        check=True,
        capture_output=True,
        text=True,
    )
    result: dict[str, Any] = json.loads(out.stdout.splitlines()[-1])
    return result


def cpython_act_ms(actions: int) -> float:
    rng = random.Random(0)
    seed, spent = 0, 0.0
    game = {"difficulty": "survival", "seed": seed, "game_id": "b", "actions": []}
    host.open_game(json.dumps(game))
    for _ in range(actions):
        kept = host.kept_game()
        assert kept is not None
        request = json.dumps({"action": action_to_json(rng.choice(kept[0].legal_actions()))})
        started = time.perf_counter()
        answer = host.act(request)
        spent += time.perf_counter() - started
        if json.loads(answer)["view"]["phase"] == "over":
            seed += 1
            host.open_game(json.dumps({**game, "seed": seed}))
    return spent * 1000 / actions


def serve(tmp: Path) -> tuple[uvicorn.Server, str]:
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    app = create_app(tmp / "bench.sqlite3")
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="on"))
    threading.Thread(target=lambda: asyncio.run(server.serve([sock])), daemon=True).start()
    while not server.started:
        time.sleep(0.05)
    return server, f"http://127.0.0.1:{port}/"


def chromium_runs(url: str, runs: int) -> list[dict[str, Any]]:
    """For each run, a fresh context: the worker's start cold, then warm, and its answers."""
    game = {"difficulty": "survival", "seed": 5, "game_id": "b"}
    rows = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        for _ in range(runs):
            context = browser.new_context()
            page = context.new_page()
            page.goto(url)
            cold = page.evaluate(SESSION, {"game": game, "moves": MOVES})
            warm = page.evaluate(SESSION, {"game": game, "moves": MOVES})
            assert cold["ready"]["type"] == warm["ready"]["type"] == "ready", cold["ready"]
            answers = [a["ms"] for a in warm["answers"][1:]]
            rows.append(
                {
                    "cold": cold["ready"]["ms"],
                    "warm": warm["ready"]["ms"],
                    "answer": statistics.median(answers),
                }
            )
            context.close()
        browser.close()
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--actions", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--taps", type=int, default=50)
    parts = ("node", "worker", "page", "memory")
    parser.add_argument("--parts", nargs="+", choices=parts, default=list(parts))
    args = parser.parse_args()
    if not (ENGINE_RUNTIME_DIR / "magdagdon-engine.zip").is_file():
        sys.exit("build/web-engine/ is missing: run `make pyodide`")
    pin = json.loads((ROOT / "tools" / "pyodide" / "pin.json").read_text(encoding="utf-8"))
    load = f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs"
    print(f"Pyodide {pin['version']} (Python {pin['python']}); {load}")

    if "node" in args.parts:
        node_figures(args.actions, args.runs)

    with tempfile.TemporaryDirectory() as tmp:
        server, url = serve(Path(tmp))
        if "worker" in args.parts:
            rows = chromium_runs(url, args.runs)
            worker_figures(rows, args.runs)
        if "page" in args.parts:
            page_budgets(url, args.runs, args.taps)
        if "memory" in args.parts:  # last: it stops the server to reopen without the connection
            memory_budget(url, args.runs, server)
        server.should_exit = True
    print(f"\nload average after: {os.getloadavg()[0]:.1f}")


def worker_figures(rows: list[dict[str, Any]], n: int) -> None:
    print(f"\nChromium, the engine worker from the page, median of {n} fresh contexts:")
    print(f"  start cold              {statistics.median(r['cold'] for r in rows):8.0f} ms")
    print(f"  start warm              {statistics.median(r['warm'] for r in rows):8.0f} ms")
    print(f"  a message's answer      {statistics.median(r['answer'] for r in rows):8.2f} ms")


def node_figures(actions: int, n: int) -> None:
    runs = [node_run(actions) for _ in range(n)]
    print("\nthe engine worker's files (build/web-engine/):")
    total_raw = total_br = 0
    for name, size in runs[0]["sizes"].items():
        total_raw += size["raw"]
        total_br += size["brotli"]
        print(f"  {name:24} {size['raw'] / 1e6:7.3f} MB raw {size['brotli'] / 1e6:7.3f} MB brotli")
    print(f"  {'total':24} {total_raw / 1e6:7.3f} MB raw {total_br / 1e6:7.3f} MB brotli")

    def med(key: str, sub: str | None = None) -> float:
        return float(statistics.median(r[key][sub] if sub else r[key] for r in runs))

    node = subprocess.run(["node", "--version"], capture_output=True, text=True).stdout.strip()
    print(f"\nnode {node}, median of {n} fresh processes:")
    wall, cpu = med("start", "wall_ms"), med("start", "cpu_ms")
    print(f"  Pyodide + engine start  {wall:8.0f} ms wall {cpu:8.0f} ms CPU")
    print(f"  act (game kept, + view) {med('act_ms'):8.3f} ms wall {med('act_cpu_ms'):8.3f} ms CPU")
    print(f"  GameState.apply alone   {med('apply_ms'):8.3f} ms")
    cpython = cpython_act_ms(actions)
    print(f"  CPython's act           {cpython:8.3f} ms ({sys.version.split()[0]})")


def p95(values: list[float]) -> float:
    return values[min(len(values) - 1, int(0.95 * len(values)))]


def page_budgets(url: str, runs: int, taps: int) -> None:
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        got = pyodide_page.measure(browser, url, runs, taps)
        browser.close()
    load = f"load average {os.getloadavg()[0]:.1f}"
    ready = sorted(got["ready"])
    print(f"\nthe page's budgets with its offline engine (Chromium, {load}):")
    print(f"  engine ready, first visit (cold)        {got['cold']:8.0f} ms")
    print(
        f"  engine ready after a reopening offline  median {statistics.median(ready):6.0f} ms"
        f" (min {ready[0]:.0f}, max {ready[-1]:.0f}, {runs} reopenings; budget ≤ 2000 ms)"
    )
    print(
        f"    the worker's own part median {statistics.median(got['worker']):6.0f} ms; CPU time of"
        f" all the browser's processes meanwhile median {statistics.median(got['cpu']):6.0f} ms"
    )
    drawn, settled = sorted(got["drawn"]), sorted(got["settled"])
    print(
        f"  offline tap on a lit cell → die drawn   median {statistics.median(drawn):6.1f} ms"
        f" p95 {p95(drawn):.1f} ms (the next frame; {len(drawn)} taps)"
    )
    print(
        f"  … and the engine's answer rendered      median {statistics.median(settled):6.1f} ms"
        f" p95 {p95(settled):.1f} ms"
    )
    m, w, f = got["memory"], got["without"], got["first"]
    print(
        f"  the page's renderer at the first visit  PSS {f['page_pss_mb']:6.1f} MB,"
        f" USS {f['page_uss_mb']:.1f} MB, the engine ready (budget ≤ 150 MB)"
    )
    print(
        f"  … after the reopenings and taps, PSS    {m['page_pss_mb']:6.1f} MB with the engine,"
        f" {w['page_pss_mb']:.1f} MB with offline play off"
    )
    print(
        f"    its private pages (USS)               {m['page_uss_mb']:6.1f} MB with the engine,"
        f" {w['page_uss_mb']:.1f} MB with offline play off"
    )
    print(
        f"    all {m['renderers']} renderers {m['renderers_pss_mb']:.1f} MB"
        f" ({w['renderers']}: {w['renderers_pss_mb']:.1f} MB); page JS heap"
        f" {m['js_heap_mb']:.1f} MB ({w['js_heap_mb']:.1f} MB)"
    )


def stop(server: uvicorn.Server, url: str) -> None:
    """Stop ``server`` and wait until its port refuses a connection: the site is unreachable."""
    server.should_exit = True
    address = url.removeprefix("http://").rstrip("/").split(":")
    while True:
        try:
            socket.create_connection((address[0], int(address[1])), timeout=1).close()
        except OSError:
            return
        time.sleep(0.05)


def memory_budget(url: str, runs: int, server: uvicorn.Server) -> None:
    got = pyodide_memory.measure(url, runs, lambda: stop(server, url))
    load = f"load average {os.getloadavg()[0]:.1f}"
    first, after, without = got["first"], got["after"], got["without"]
    print(f"\nthe page's memory, Chromium without a test driver ({load}; budget ≤ 150 MB):")
    print(
        f"  the page's renderer at the first visit  PSS {got['at_ready']['pss']:6.1f} MB,"
        f" USS {got['at_ready']['uss']:.1f} MB the moment the engine is ready"
    )
    print(
        f"  the page's renderer at the first visit  PSS {first['pss']:6.1f} MB,"
        f" USS {first['uss']:.1f} MB ({pyodide_memory.SETTLE_S:.0f} s after the engine's ready)"
    )
    pss = sorted(a["pss"] for a in after)
    uss = sorted(a["uss"] for a in after)
    print(
        f"  after a reopening, PSS                  median {statistics.median(pss):6.1f} MB"
        f" (min {pss[0]:.1f}, max {pss[-1]:.1f}, {runs} reopenings); USS median"
        f" {statistics.median(uss):.1f} MB (min {uss[0]:.1f}, max {uss[-1]:.1f})"
    )
    print(
        f"  offline play off                        PSS {without['pss']:6.1f} MB,"
        f" USS {without['uss']:.1f} MB"
    )
    ready = sorted(got["ready_s"])
    print(
        f"  a reopening without the connection, the page's navigation → the engine ready:"
        f" median {statistics.median(ready):.2f} s (min {ready[0]:.2f}, max {ready[-1]:.2f},"
        f" {runs} reopenings; budget ≤ 2 s)"
    )


if __name__ == "__main__":
    main()
