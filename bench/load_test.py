"""Many players at a player's pace against a real server: how many players a server holds with
every answer's p99 within 200 ms and no error.

``magdagdon serve --workers 2`` runs on a generated PostgreSQL database (``tests/scale_data.py``;
``--players`` of them, one ranked attempt each today). Each simulated player is its own HTTP
client (its own cookie, so its own player) and plays today's challenge as a person does: a
look at today's challenges, a new attempt, then each action after a think time of 1 to 5
seconds (the engine picks a random legal action, Powers and unstages included, as
``tests/api_helpers.random_action``), and at the end the day's table and STATISTIKA; then the
next difficulty. After a step of 10 players that is not counted (a new server's first answers
are slow once), the number of players steps up (``--steps``), each step held ``--hold``
seconds; the answers of each step's second half count.

    uv run --locked python bench/load_test.py --steps 50,100,200,400 --hold 40

Rate limits are off (every simulated player comes from one address). The players held per
core is the largest step that passes, over the server's 2 workers.

The players are simulated in this process, on the same machine: each step also prints the
p99 of this process's own lateness (how late a 50 ms sleep of its event loop wakes), since an
answer is timed by the client and a busy client adds its lateness to every answer. ``--pin``
runs the server (its workers and PostgreSQL) on the first CPU and the players on the second, so
that a step measures one core's worth of server without the players' own work on it. Each step
also prints the CPU time the server (its workers and PostgreSQL's processes) spent in its second
half over that time: the cores it kept busy, and so the players a core holds at this pace
whatever else the machine runs (as long as the step passes):

    uv run --locked python bench/load_test.py --pin --steps 25,50,100,200 --hold 40
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import subprocess
import sys
import time
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from api_helpers import random_action
from magdagdon.engine import Difficulty, GameState, action_to_json
from scale_data import Shape, generate

P99_BUDGET_MS = 200.0


class Recorder:
    def __init__(self) -> None:
        self.answers: list[tuple[float, float, str]] = []  # when, ms, what went wrong ("")

    def record(self, began: float, error: str) -> None:
        now = time.perf_counter()
        self.answers.append((now, (now - began) * 1000, error))


async def call(
    client: httpx.AsyncClient, recorder: Recorder, method: str, path: str, body: object = None
) -> httpx.Response | None:
    began = time.perf_counter()
    try:
        response = await client.request(method, path, json=body)
    except httpx.HTTPError as error:
        recorder.record(began, type(error).__name__)
        return None
    recorder.record(began, str(response.status_code) if response.status_code >= 400 else "")
    return response


async def player(
    base: str, recorder: Recorder, rng: random.Random, stop: float, seeds: dict[Difficulty, int]
) -> None:
    # a connection idle for 3 s is not used again: the server (uvicorn) closes one idle for 5 s,
    # and a request sent on it as it closes fails (a browser sends it again; httpx does not)
    limits = httpx.Limits(keepalive_expiry=3)
    async with httpx.AsyncClient(base_url=base, timeout=10, limits=limits) as client:
        await asyncio.sleep(rng.uniform(0, 5))
        for difficulty in Difficulty:
            if time.perf_counter() > stop:
                return
            await call(client, recorder, "GET", "/api/daily")
            started = await call(
                client, recorder, "POST", "/api/daily", {"difficulty": difficulty.value}
            )
            if started is None or started.status_code != 201:
                return
            game_id = started.json()["id"]
            # the bench reads the day's secret seeds off the database, as no player can, to
            # choose its moves without asking the server for more than a player does
            state = GameState.new(difficulty, seeds[difficulty])
            while not state.is_over and time.perf_counter() < stop:
                await asyncio.sleep(rng.uniform(1, 5))
                action = random_action(state, rng)
                answer = await call(
                    client,
                    recorder,
                    "POST",
                    f"/api/games/{game_id}/actions",
                    action_to_json(action),
                )
                if answer is None or answer.status_code != 200:
                    return
                state = state.apply(action)
            await call(client, recorder, "GET", f"/api/daily/table?difficulty={difficulty.value}")
            await call(client, recorder, "GET", f"/api/stats?difficulty={difficulty.value}")


def p99_of(ordered: list[float]) -> float:
    return ordered[max(0, round(0.99 * len(ordered)) - 1)] if ordered else float("nan")


async def lateness(stop: float, found: list[float]) -> None:
    """How late (ms) this process's event loop wakes from a 50 ms sleep, until ``stop``."""
    while time.perf_counter() < stop:
        began = time.perf_counter()
        await asyncio.sleep(0.05)
        found.append((time.perf_counter() - began - 0.05) * 1000)


def cpu_seconds(roots: set[int]) -> float:
    """The CPU time (user and system) of the processes ``roots`` and all their descendants,
    those that ended included (counted in their parent's), from ``/proc``."""
    stats: dict[int, list[str]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                text = (entry / "stat").read_text()
            except OSError:
                continue
            stats[int(entry.name)] = text[text.rindex(")") + 2 :].split()
    ticks = os.sysconf("SC_CLK_TCK")
    total, found = 0, set(roots)
    while True:  # the descendants, generation by generation
        more = {pid for pid, fields in stats.items() if int(fields[1]) in found} - found
        if not more:
            break
        found |= more
    for pid in found & set(stats):
        total += sum(int(value) for value in stats[pid][11:15])  # utime stime cutime cstime
    return total / ticks


async def server_cores(hold: float, roots: set[int], found: list[float]) -> None:
    """The server's cores busy over the second half of a step (its CPU time / the time)."""
    await asyncio.sleep(hold / 2)
    began = cpu_seconds(roots)
    await asyncio.sleep(hold / 2)
    found.append((cpu_seconds(roots) - began) / (hold / 2))


async def step(
    base: str, players: int, hold: float, seed: int, seeds: dict[Difficulty, int], roots: set[int]
) -> tuple[float, float, int, str, float, float]:
    recorder = Recorder()
    began = time.perf_counter()
    stop = began + hold
    rng = random.Random(seed)
    late: list[float] = []
    cores: list[float] = []
    tasks = [
        asyncio.create_task(player(base, recorder, random.Random(rng.random()), stop, seeds))
        for _ in range(players)
    ]
    tasks.append(asyncio.create_task(lateness(stop, late)))
    tasks.append(asyncio.create_task(server_cores(hold, roots, cores)))
    await asyncio.wait(tasks)
    counted = [(ms, error) for when, ms, error in recorder.answers if when > began + hold / 2]
    times = sorted(ms for ms, _ in counted)
    kinds = Counter(error for _, error in counted if error)
    errors = " ".join(f"{kind}×{n}" for kind, n in kinds.most_common()) or "0"
    median = statistics.median(times) if times else float("nan")
    late_p99 = p99_of(sorted(late[len(late) // 2 :]))
    return median, p99_of(times), len(counted), errors, late_p99, cores[0]


def serve(db: str, pin: bool) -> tuple[subprocess.Popen[str], str]:
    command = ["taskset", "-c", "0"] if pin else []
    command += [sys.executable, "-m", "magdagdon", "serve", "--no-browser", "--port", "0"]
    command += ["--workers", "2", "--db", db]
    env = os.environ | {"MAGDAGDON_RATE_LIMITS": "false"}
    process = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env
    )
    assert process.stdout is not None
    for line in process.stdout:
        if line.startswith("Serving on"):
            return process, line.split()[-1].rstrip("/")
    raise RuntimeError("the server ended before serving")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--players", type=int, default=10_000, help="in the database")
    parser.add_argument("--steps", default="50,100,200,400")
    parser.add_argument("--hold", type=float, default=40.0)
    parser.add_argument("--pin", action="store_true", help="server on CPU 0, players on CPU 1")
    args = parser.parse_args()
    from pg import PostgresServer

    server = PostgresServer(settings={})  # PostgreSQL's defaults: fsync on
    if args.pin:  # its backends, forked later, inherit the CPU
        os.sched_setaffinity(server.process.pid, {0})
        os.sched_setaffinity(0, {1})
    try:
        from magdagdon.services import daily
        from magdagdon.store import Store

        db = server.create_database()
        day = datetime.now(UTC).date()
        with Store(db) as store:
            generate(store, Shape(players=args.players, attempts=args.players, day=day))
            seeds = daily.day_seeds(store, day)
        process, base = serve(db, args.pin)
        try:
            where = "server on CPU 0, players on CPU 1" if args.pin else "server and players"
            print(f"{args.players} players in the database; {where}; {os.cpu_count()} CPUs")
            print(
                "| players | answers | median ms | p99 ms | errors | client late p99 ms "
                "| server cores busy | players a busy core | passes | load |"
            )
            print("|---|---|---|---|---|---|---|---|---|---|")
            roots = {process.pid, server.process.pid}  # the workers, PostgreSQL's backends
            # a step not counted first: the first answers of a new server are slow once (its
            # modules, PostgreSQL's caches), which says nothing of the players it holds
            asyncio.run(step(base, 10, args.hold / 2, -1, seeds, roots))
            for number, players in enumerate(int(s) for s in args.steps.split(",")):
                median, p99, count, errors, late, cores = asyncio.run(
                    step(base, players, args.hold, number, seeds, roots)
                )
                passes = p99 <= P99_BUDGET_MS and errors == "0"
                print(
                    f"| {players} | {count} | {median:.1f} | {p99:.1f} | {errors} | {late:.1f} | "
                    f"{cores:.2f} | {players / cores if cores else float('nan'):.0f} | "
                    f"{'yes' if passes else 'no'} | {os.getloadavg()[0]:.1f} |",
                    flush=True,
                )
        finally:
            process.terminate()
            process.wait(30)
    finally:
        server.stop()


if __name__ == "__main__":
    main()
