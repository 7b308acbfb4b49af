"""Hosting benchmark: the hosting budgets, measured side by side in one run.

(w) 1 and 2 worker processes (``serve --workers N``), 100 clients for ``--seconds`` (30) each
    playing its own games: actions/s and errors, on PostgreSQL and on SQLite
    (target: 2 workers on PostgreSQL >= 1.3 times the actions/s of 1, with 0 errors); with
    ``--before SRC``, beside them the same for another checkout's ``src`` (interleaved);
(f) a flood of hints: 20 players act while one player asks for a hint before every move (and
    on 3 more connections at once, which meet the one-hint-per-player bound): the other
    players' action p99 with the flood and without it (target: within 2 times);
(r) the action round trip on localhost, one client, sequential: median on PostgreSQL, with
    SQLite's beside it (target: PostgreSQL's median <= 5 ms).

The machine is shared: every configuration is measured ``--rounds`` times, interleaved (ABBA:
a load that drifts hits each alike), each figure printed with the load average (1 minute) of
the moment it was taken, and a ratio is the median of each round's own ratio. PostgreSQL is a
server started here (``tests/pg.py``, with PostgreSQL's default durability: fsync on), or
``--postgresql URL`` (its tables are emptied before each run). The clients are plain asyncio
HTTP/1.1 on keep-alive connections (far less CPU a request than aiohttp: the server gets the
cores), in this one process.
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from magdagdon.sim.summary import percentile
from server_bench import NO_RATE_LIMITS, check_src, next_action, postgresql_database

if TYPE_CHECKING:
    from collections.abc import Callable, Coroutine

START_TIMEOUT = 180.0  # seconds: spawned workers import everything, slowly on a busy machine


# ----- the server -------------------------------------------------------------------------------


@dataclass
class Server:
    process: subprocess.Popen[str]
    host: str
    port: int

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def start(
    db: str, workers: int, env: dict[str, str] | None = None, src: str | None = None
) -> Server:
    """``magdagdon serve`` of this code, or of the checkout whose ``src`` folder is given."""
    command = [sys.executable, "-m", "magdagdon", "serve", "--port", "0", "--no-browser"]
    command += ["--db", db, "--workers", str(workers)]
    environ = {**os.environ, **NO_RATE_LIMITS, **(env or {})}
    if src is not None:  # checked once, in main
        environ["PYTHONPATH"] = src
    return launch(command, environ)


def start_floor(kind: str) -> Server:
    """A floor of ``floor_server.py`` (``bare`` or ``fastapi``), served as the game is."""
    script = str(Path(__file__).resolve().parent / "floor_server.py")
    return launch([sys.executable, script, kind], dict(os.environ))


def launch(command: list[str], environ: dict[str, str]) -> Server:
    """Run ``command``, a server that prints ``Serving on http://HOST:PORT`` when it is up."""
    process = subprocess.Popen(command, stdout=subprocess.PIPE, text=True, env=environ)
    assert process.stdout is not None
    line = process.stdout.readline()  # blocks until the line or the end
    if not line.startswith("Serving on http://"):
        process.kill()
        raise SystemExit(f"the server did not start: {line!r}")
    host, port = line.strip().removeprefix("Serving on http://").rsplit(":", 1)
    return Server(process, host, int(port))


# ----- a lean HTTP/1.1 client ---------------------------------------------------------------------


class Connection:
    """One keep-alive connection of one player (its cookie)."""

    def __init__(self, host: str, port: int) -> None:
        self.host, self.port = host, port
        self.cookie = ""
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def call(
        self, method: str, path: str, body: Any = None, *, raw: bool = False
    ) -> tuple[int, Any]:
        """(status, the answer's JSON, or its bytes when ``raw``)."""
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
        assert self.reader is not None
        payload = b"" if body is None else json.dumps(body).encode()
        head = f"{method} {path} HTTP/1.1\r\nHost: {self.host}\r\n"
        if payload:
            head += f"Content-Type: application/json\r\nContent-Length: {len(payload)}\r\n"
        if self.cookie:
            head += f"Cookie: {self.cookie}\r\n"
        try:
            self.writer.write(head.encode() + b"\r\n" + payload)
            lines = (await self.reader.readuntil(b"\r\n\r\n")).decode("latin-1").split("\r\n")
            status, length = int(lines[0].split()[1]), 0
            for line in lines[1:]:
                name, _, value = line.partition(":")
                name = name.lower()
                if name == "content-length":
                    length = int(value)
                elif name == "set-cookie":
                    self.cookie = value.strip().split(";")[0]
            data = await self.reader.readexactly(length)
        except (OSError, asyncio.IncompleteReadError):
            self.close()
            raise
        if raw:
            return status, data
        return status, json.loads(data) if data else None

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None


@dataclass
class Tally:
    actions: int = 0
    others: int = 0  # requests that were not actions: new games, a game read again
    errors: int = 0
    latencies: list[float] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def error(self, what: str) -> None:
        self.errors += 1
        if len(self.notes) < 3:
            self.notes.append(what)


async def player(server: Server, index: int, deadline: float, tally: Tally) -> None:
    """Play games as fast as the answers come: roll, stage, confirm, a new game at the end."""
    rng = random.Random(index)
    conn = Connection(server.host, server.port)
    difficulty = ("peaceful", "survival", "nightmare")[index % 3]
    state: dict[str, Any] = {"phase": "over"}
    while time.perf_counter() < deadline:
        action = next_action(state, rng)
        try:
            if action is None:
                status, state = await conn.call("POST", "/api/games", {"difficulty": difficulty})
                tally.others += 1
                if status != 201:
                    tally.error(f"new game: {status} {state}")
                    state = {"phase": "over"}
                continue
            begin = time.perf_counter()
            status, answer = await conn.call("POST", f"/api/games/{state['id']}/actions", action)
            if status == 200:
                tally.latencies.append(time.perf_counter() - begin)
                tally.actions += 1
                state = answer
                continue
            tally.error(f"{action}: {status} {answer}")
            status, state = await conn.call("GET", f"/api/games/{state['id']}")
            tally.others += 1
        except (OSError, asyncio.IncompleteReadError) as exc:
            tally.error(repr(exc))
            await asyncio.sleep(0.01)
    conn.close()


async def hint_flood(server: Server, deadline: float, counts: dict[int, int]) -> None:
    """One player asking for a hint before every move and playing it (a fresh search each
    time), with three more connections of the same player asking at the same time."""
    main = Connection(server.host, server.port)
    _, game = await main.call("POST", "/api/games", {"difficulty": "nightmare"})
    extra = [Connection(server.host, server.port) for _ in range(3)]

    async def ask(conn: Connection) -> None:
        conn.cookie = main.cookie
        while time.perf_counter() < deadline:
            status, _ = await conn.call("GET", f"/api/games/{game['id']}/hint")
            counts[status] = counts.get(status, 0) + 1
            if status != 200:
                await asyncio.sleep(0.001)

    async def lead() -> None:
        nonlocal game
        while time.perf_counter() < deadline:
            if game["phase"] == "over":
                _, game = await main.call("POST", "/api/games", {"difficulty": "nightmare"})
            status, hint = await main.call("GET", f"/api/games/{game['id']}/hint")
            counts[status] = counts.get(status, 0) + 1
            if status == 200:
                path = f"/api/games/{game['id']}/actions"
                status, answer = await main.call("POST", path, hint["action"])
                if status == 200:
                    game = answer
            else:
                await asyncio.sleep(0.001)

    await asyncio.gather(lead(), *(ask(conn) for conn in extra))
    for conn in (main, *extra):
        conn.close()


async def crowd(server: Server, clients: int, seconds: float, flood: bool = False) -> Tally:
    tally = Tally()
    hints: dict[int, int] = {}
    deadline = time.perf_counter() + seconds
    tasks = [player(server, index, deadline, tally) for index in range(clients)]
    if flood:
        tasks.append(hint_flood(server, deadline, hints))
    await asyncio.gather(*tasks)
    if flood:
        tally.notes.append(f"hint answers by status: {dict(sorted(hints.items()))}")
    return tally


def load() -> float:
    return os.getloadavg()[0]


# ----- the measurements ---------------------------------------------------------------------------


@dataclass
class Figures:
    """One configuration's figures, one per round, with the load average of each."""

    values: list[float] = field(default_factory=list)
    loads: list[float] = field(default_factory=list)
    errors: int = 0

    def add(self, value: float, errors: int = 0) -> None:
        self.values.append(value)
        self.loads.append(load())
        self.errors += errors

    def median(self) -> float:
        return statistics.median(self.values)

    def rounds(self, fmt: str) -> str:
        return ", ".join(
            f"{fmt.format(v)} [load {ld:.1f}]"
            for v, ld in zip(self.values, self.loads, strict=True)
        )


def ratios(a: Figures, b: Figures) -> float:
    return statistics.median(x / y for x, y in zip(a.values, b.values, strict=True))


class Databases:
    """A fresh database for each run: a SQLite file, or one on the PostgreSQL server."""

    def __init__(self, folder: Path, postgresql: str | None, stack: ExitStack) -> None:
        self.folder, self.count = folder, 0
        self.given = postgresql if postgresql and postgresql != "auto" else None
        self.server: Any = None
        if postgresql == "auto":
            sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
            from pg import PostgresServer

            self.server = PostgresServer(settings={})  # PostgreSQL's defaults: fsync on
            stack.callback(self.server.stop)

    def new(self, kind: str) -> str:
        self.count += 1
        if kind == "sqlite":
            return str(self.folder / f"run{self.count}.sqlite3")
        if self.server is not None:
            return str(self.server.create_database(migrated=False))
        assert self.given is not None
        return postgresql_database(self.given, ExitStack())


Run = tuple[str, str | None, int]  # (w): the database, the code (None: this one), the workers


def workers_section(dbs: Databases, kinds: list[str], args: argparse.Namespace) -> None:
    codes: list[str | None] = [None] if args.before is None else [None, args.before]
    runs: list[Run] = [(k, code, w) for k in kinds for code in codes for w in (1, 2)]
    figures = {run: Figures() for run in runs}
    notes: dict[Run, list[str]] = {run: [] for run in runs}
    for index in range(args.rounds):
        for kind, code, workers in runs if index % 2 == 0 else runs[::-1]:
            server = start(dbs.new(kind), workers, src=code)
            try:
                asyncio.run(crowd(server, 10, 2.0))  # warm-up: every worker has connections
                tally = asyncio.run(crowd(server, args.clients, args.seconds))
            finally:
                server.stop()
            figures[kind, code, workers].add(tally.actions / args.seconds, tally.errors)
            notes[kind, code, workers] += tally.notes
    print(f"(w) {args.clients} clients for {args.seconds:g} s: actions/s (errors)")
    for kind in kinds:
        for code in codes:
            one, two = figures[kind, code, 1], figures[kind, code, 2]
            ratio = ratios(two, one)
            verdict = ""
            if kind == "postgresql" and code is None:
                ok = ratio >= 1.3 and one.errors == two.errors == 0
                verdict = " — target >= 1.3 with 0 errors: " + ("met" if ok else "MISSED")
            label = kind if code is None else f"{kind}, before ({code})"
            print(
                f"    {label}: 1 worker {one.median():.0f}/s ({one.errors} errors; rounds "
                f"{one.rounds('{:.0f}')}); 2 workers {two.median():.0f}/s ({two.errors} errors; "
                f"rounds {two.rounds('{:.0f}')}); 2 / 1 = {ratio:.2f}{verdict}"
            )
            for note in (notes[kind, code, 1] + notes[kind, code, 2])[:3]:
                print(f"        error: {note}")


def flood_section(dbs: Databases, kinds: list[str], args: argparse.Namespace) -> None:
    for kind in kinds:
        quiet, flooded = Figures(), Figures()
        hint_notes: list[str] = []
        for index in range(args.rounds):
            server = start(dbs.new(kind), 1)
            try:
                asyncio.run(crowd(server, 5, 2.0))
                asyncio.run(crowd(server, 1, 1.0, flood=True))  # the compute process is up
                order = [False, True] if index % 2 == 0 else [True, False]
                for flood in order:
                    tally = asyncio.run(crowd(server, 20, args.flood_seconds, flood=flood))
                    target = flooded if flood else quiet
                    target.add(percentile(tally.latencies, 0.99), tally.errors)
                    if flood:
                        hint_notes.append(tally.notes[-1])
            finally:
                server.stop()
        ratio = ratios(flooded, quiet)
        verdict = "met" if ratio <= 2.0 else "MISSED"
        print(
            f"(f) {kind}, 20 players acting, {args.flood_seconds:g} s: their action p99 without "
            f"the flood {1000 * quiet.median():.1f} ms (rounds {quiet.rounds('{:.3f} s')}), with "
            f"it {1000 * flooded.median():.1f} ms (rounds {flooded.rounds('{:.3f} s')}); with / "
            f"without = {ratio:.2f} — target <= 2: {verdict}; "
            f"{quiet.errors + flooded.errors} errors"
        )
        for note in hint_notes:
            print(f"        {note}")


def round_trip_section(dbs: Databases, kinds: list[str], args: argparse.Namespace) -> None:
    figures = {kind: Figures() for kind in kinds}
    for index in range(args.rounds):
        for kind in kinds if index % 2 == 0 else kinds[::-1]:
            server = start(dbs.new(kind), 1)
            try:
                asyncio.run(crowd(server, 1, 1.0))
                tally = asyncio.run(crowd(server, 1, args.round_trip_seconds))
            finally:
                server.stop()
            figures[kind].add(statistics.median(tally.latencies), tally.errors)
    parts = []
    for kind in kinds:
        median = figures[kind].median()
        verdict = ""
        if kind == "postgresql":
            verdict = " — target <= 5 ms: " + ("met" if median <= 0.005 else "MISSED")
        parts.append(
            f"{kind} median {1000 * median:.2f} ms (rounds "
            f"{figures[kind].rounds('{:.4f} s')}){verdict}"
        )
    print("(r) action round trip, one client: " + "; ".join(parts))


# ----- (l) latency beside the floors, (c) actions per core ------------------------------------

STATIC_PATH = "/js/core/app.js"  # one of the page's files, as the browser fetches it
HEALTH_BUDGET, STATIC_BUDGET = 1.3, 1.3  # times the one-line FastAPI route
ACTION_BUDGET = {"sqlite": 2.5, "postgresql": 3.0}
PER_CORE_BUDGET = 2.0  # times the checkout of --before


Measured = tuple[float, int]  # (the median answer's seconds, how many requests were answered)


async def sequential(server: Server, path: str, seconds: float, *, raw: bool = False) -> Measured:
    """``GET path`` answered over one keep-alive connection, one after the other, for
    ``seconds``."""
    conn = Connection(server.host, server.port)
    await conn.call("GET", path, raw=raw)  # the connection is open
    times: list[float] = []
    deadline = time.perf_counter() + seconds
    while time.perf_counter() < deadline:
        begin = time.perf_counter()
        status, _ = await conn.call("GET", path, raw=raw)
        times.append(time.perf_counter() - begin)
        if status != 200:
            raise SystemExit(f"GET {path}: {status}")
    conn.close()
    return statistics.median(times), len(times)


async def game_reads(server: Server, seconds: float) -> Measured:
    """Reading one's own game, over one keep-alive connection (the new game counts too)."""
    conn = Connection(server.host, server.port)
    status, game = await conn.call("POST", "/api/games", {"difficulty": "survival"})
    if status != 201:
        raise SystemExit(f"new game: {status} {game}")
    path = f"/api/games/{game['id']}"
    times: list[float] = []
    deadline = time.perf_counter() + seconds
    while time.perf_counter() < deadline:
        begin = time.perf_counter()
        status, _ = await conn.call("GET", path)
        times.append(time.perf_counter() - begin)
        if status != 200:
            raise SystemExit(f"GET {path}: {status}")
    conn.close()
    return statistics.median(times), len(times) + 1


async def actions(server: Server, seconds: float) -> Measured:
    """Actions of one player (the new games it starts count as requests too)."""
    tally = await crowd(server, 1, seconds)
    if tally.errors:
        raise SystemExit(f"actions: {tally.errors} errors: {tally.notes}")
    return statistics.median(tally.latencies), tally.actions + tally.others


Target = tuple[str, Server, "Callable[[], Coroutine[Any, Any, Measured]]"]


def floor_targets(servers: dict[str, Server], kinds: list[str], seconds: float) -> list[Target]:
    """(l)'s figures: the floors, then the game's requests (``before …``: the other checkout's,
    when it runs)."""
    bare, fastapi = servers["bare"], servers["fastapi"]
    targets: list[Target] = [
        ("bare ASGI app on uvicorn", bare, functools.partial(sequential, bare, "/", seconds)),
        (
            "one-line FastAPI route",
            fastapi,
            functools.partial(sequential, fastapi, "/ping", seconds),
        ),
    ]
    for prefix in ("", "before "):
        if f"{prefix}sqlite" not in servers:
            continue
        sqlite = servers[f"{prefix}sqlite"]
        health = functools.partial(sequential, sqlite, "/api/health", seconds)
        static = functools.partial(sequential, sqlite, STATIC_PATH, seconds, raw=True)
        targets += [
            (f"{prefix}GET /api/health", sqlite, health),
            (f"{prefix}GET {STATIC_PATH}", sqlite, static),
            (
                f"{prefix}read a game (SQLite)",
                sqlite,
                functools.partial(game_reads, sqlite, seconds),
            ),
        ]
        for kind in kinds:
            server = servers[f"{prefix}{kind}"]
            targets.append(
                (f"{prefix}action ({kind})", server, functools.partial(actions, server, seconds))
            )
    return targets


def floor_section(dbs: Databases, kinds: list[str], args: argparse.Namespace) -> None:
    """(l): every figure beside the floors, measured in the same rounds (ABBA order), with the
    server process's CPU time per request (user + system, over every request of the figure's
    kind: what the machine's load does not change much)."""
    seconds = args.floor_seconds
    servers = {"bare": start_floor("bare"), "fastapi": start_floor("fastapi")}
    codes = [("", None)] + ([("before ", args.before)] if args.before is not None else [])
    try:
        files = {}
        for prefix, code in codes:
            for kind in kinds:
                files[f"{prefix}{kind}"] = dbs.new(kind)
                servers[f"{prefix}{kind}"] = start(files[f"{prefix}{kind}"], 1, src=code)
        targets = floor_targets(servers, kinds, seconds)
        for prefix, _ in codes:
            for kind in kinds:  # warm: imports, connections, the first games
                asyncio.run(crowd(servers[f"{prefix}{kind}"], 1, 1.0))
        wal = 0
        for prefix, _ in codes:
            server, log = servers[f"{prefix}sqlite"], Path(files[f"{prefix}sqlite"] + "-wal")
            wal = warm_wal(server, log)
        figures = {label: Figures() for label, _, _ in targets}
        used = dict.fromkeys(figures, 0.0)  # the server's CPU seconds, over every round
        answered = dict.fromkeys(figures, 0)
        for index in range(args.rounds):
            for label, server, measure in targets if index % 2 == 0 else targets[::-1]:
                before = cpu_seconds(server.process.pid)
                median, count = asyncio.run(measure())
                used[label] += cpu_seconds(server.process.pid) - before
                answered[label] += count
                figures[label].add(median)
    finally:
        for server in servers.values():
            server.stop()
    floor, bare = figures["one-line FastAPI route"], figures["bare ASGI app on uvicorn"]
    cpu = {label: used[label] / answered[label] for label in figures}
    floor_cpu = cpu["one-line FastAPI route"]
    budgets = {"GET /api/health": HEALTH_BUDGET, f"GET {STATIC_PATH}": STATIC_BUDGET}
    budgets |= {f"action ({kind})": ACTION_BUDGET[kind] for kind in kinds}
    print(
        f"(l) one client, sequential, one keep-alive connection, {seconds:g} s each, "
        f"{args.rounds} rounds: median ms; x FastAPI = median of each round's ratio to the "
        "one-line FastAPI route (x bare: to the bare ASGI app); CPU = the server process's "
        "CPU time per request (ms), and x its ratio to the FastAPI route's"
        + (f"; before = {args.before}" if args.before else "")
    )
    print(
        f"    (SQLite's write-ahead log warmed to {wal // 1024} KB first, as a server's is after "
        "a while: until then each commit's sync also writes the log's new size)"
    )
    for label, _, _ in targets:
        mine = figures[label]
        per_request = cpu[label]
        budget = budgets.get(label)
        verdict = ""
        if budget is not None:  # on the server's CPU time a request: what the load changes least
            met = per_request / floor_cpu <= budget
            verdict = f" — budget <= {budget:g}x CPU: " + ("met" if met else "MISSED")
        print(
            f"    {label:<36} {1000 * mine.median():6.2f} ms  x FastAPI "
            f"{ratios(mine, floor):5.2f}  x bare {ratios(mine, bare):5.2f}  "
            f"CPU {1000 * per_request:5.3f} ms x {per_request / floor_cpu:5.2f}{verdict}  "
            f"(rounds {mine.rounds('{:.5f} s')})"
        )


def warm_wal(server: Server, wal: Path, most: float = 120.0) -> int:
    """Play on ``server`` until its SQLite write-ahead log ``wal`` stops growing (SQLite then
    writes it over from the start after each checkpoint, within the file's size); its size."""
    previous, deadline = -1, time.monotonic() + most
    while time.monotonic() < deadline:
        asyncio.run(crowd(server, 10, 2.0))
        size = wal.stat().st_size
        if size == previous:
            break
        previous = size
    return previous


def cpu_seconds(pid: int) -> float:
    """The CPU time (user + system) that process ``pid`` has used so far (Linux)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def per_core_section(dbs: Databases, args: argparse.Namespace) -> None:
    """(c): SQLite, one worker, ``--clients`` clients: actions per CPU-second of the server
    process (what one core gives, whatever else the machine runs), beside ``--before``'s."""
    codes: list[str | None] = [None] if args.before is None else [None, args.before]
    rates = {code: Figures() for code in codes}
    per_second = {code: Figures() for code in codes}
    for index in range(args.rounds):
        for code in codes if index % 2 == 0 else codes[::-1]:
            server = start(dbs.new("sqlite"), 1, src=code)
            try:
                asyncio.run(crowd(server, 10, 2.0))
                used = cpu_seconds(server.process.pid)
                tally = asyncio.run(crowd(server, args.clients, args.seconds))
                used = cpu_seconds(server.process.pid) - used
            finally:
                server.stop()
            rates[code].add(tally.actions / used, tally.errors)
            per_second[code].add(tally.actions / args.seconds)
    print(f"(c) SQLite, 1 worker, {args.clients} clients for {args.seconds:g} s:")
    for code in codes:
        label = "this code" if code is None else f"before ({code})"
        print(
            f"    {label}: {rates[code].median():.0f} actions per CPU-second of the server "
            f"({rates[code].errors} errors; rounds {rates[code].rounds('{:.0f}')}); "
            f"{per_second[code].median():.0f} actions/s"
        )
    if args.before is not None:
        ratio = ratios(rates[None], rates[args.before])
        verdict = "met" if ratio >= PER_CORE_BUDGET else "MISSED"
        print(f"    this / before = {ratio:.2f} — target >= {PER_CORE_BUDGET:g}: {verdict}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--seconds", type=float, default=30.0, help="length of (w), default 30")
    parser.add_argument("--clients", type=int, default=100, help="clients in (w), default 100")
    parser.add_argument("--flood-seconds", type=float, default=15.0, help="(f), default 15")
    parser.add_argument("--round-trip-seconds", type=float, default=5.0, help="(r), default 5")
    parser.add_argument("--rounds", type=int, default=2, help="rounds, default 2")
    parser.add_argument("--postgresql", metavar="URL|auto", default="auto")
    parser.add_argument("--floor-seconds", type=float, default=3.0, help="(l), default 3")
    parser.add_argument(
        "--only", choices=["l", "c", "w", "f", "r"], action="append", help="some parts"
    )
    parser.add_argument("--before", metavar="SRC", help="(l), (c), (w) also on this checkout's src")
    args = parser.parse_args()
    if args.before is not None:
        check_src(args.before)
    parts = args.only or ["l", "c", "w", "f", "r"]
    kinds = ["postgresql", "sqlite"] if args.postgresql != "none" else ["sqlite"]
    with tempfile.TemporaryDirectory(prefix="magdagdon-host-") as tmp, ExitStack() as stack:
        dbs = Databases(Path(tmp), None if args.postgresql == "none" else args.postgresql, stack)
        print(f"load average at the start: {load():.1f}; {os.cpu_count()} cores")
        if "l" in parts:
            floor_section(dbs, kinds, args)
        if "c" in parts:
            per_core_section(dbs, args)
        if "w" in parts:
            workers_section(dbs, kinds, args)
        if "f" in parts:
            flood_section(dbs, kinds, args)
        if "r" in parts:
            round_trip_section(dbs, kinds, args)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
