"""Server benchmark: the real ``magdagdon serve`` on port 0 with a temporary database.

(a) one action round trip on localhost, commit included: median and p95 over sequential
    actions with a keep-alive client (target: median <= 5 ms);
(b) 50 concurrent clients on 50 games for ``--seconds`` seconds with aiohttp: actions/s and
    errors (target: >= 500 actions/s, zero errors);
(c) the store alone: one ``games.play`` (load, engine, save, commit) on SQLite with
    synchronous=FULL and NORMAL (the durability choice), and on PostgreSQL.

Each server is measured in turn, ``--rounds`` times interleaved (the machine is shared: a
slow moment then hits every server alike), and the figures are the medians over the rounds:
    this code on SQLite;
    ``--before SRC``: another checkout's ``src`` on SQLite, side by side (e.g. main's, from
        ``git archive main src | tar -x -C /tmp/before``, then ``--before /tmp/before/src``);
    ``--postgresql URL``: this code on that database (its tables are emptied first!), or
        ``--postgresql auto``: on a PostgreSQL server started here (tests/pg.py, with its
        default durability: fsync on), reached on a Unix socket.
Every client plays real games from the state it is shown: roll, stage valid cells, confirm (or
unstage when stuck, or accept MAGDAGDON on a ruinable cell), a new game when it is over.
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp

from magdagdon.engine import Difficulty
from magdagdon.services import games
from magdagdon.sim.summary import percentile
from magdagdon.store import Store

DIFFICULTIES = ("peaceful", "survival", "nightmare")
SYNCHRONOUS = ("FULL", "NORMAL")


def next_action(state: dict[str, Any], rng: random.Random) -> dict[str, Any] | None:
    """The next action a quick player takes, from the game state JSON only; None when over."""
    phase = state["phase"]
    if phase == "roll":
        return {"type": "roll"}
    if phase == "magdagdon":
        return {"type": "ruin", "cell": rng.choice(state["ruinable"])}
    if phase == "place":
        if state["can_confirm"]:
            return {"type": "confirm"}
        if state["stuck"]:
            staged = [d["id"] for d in state["dice"] if d["cell"] is not None]
            return {"type": "unstage", "die": rng.choice(staged)}
        choices = [(int(die), cells) for die, cells in state["valid_cells"].items() if cells]
        die, cells = rng.choice(choices)
        return {"type": "stage", "die": die, "cell": rng.choice(cells)}
    return None


# the benchmark plays far faster than a person: no rate limits
NO_RATE_LIMITS = {"MAGDAGDON_RATE_LIMITS": "off"}


def check_src(src: str) -> None:
    """That ``PYTHONPATH=src`` imports that checkout's code, not this one's editable install."""
    check = [sys.executable, "-c", "import magdagdon; print(magdagdon.__file__)"]
    environ = {**os.environ, "PYTHONPATH": src}
    where = subprocess.run(check, env=environ, capture_output=True, text=True, check=True)
    if not where.stdout.startswith(str(Path(src).resolve())):
        raise SystemExit(f"PYTHONPATH {src}: python imports {where.stdout.strip()} instead")


def start_server(
    db: str | Path, env: dict[str, str] = NO_RATE_LIMITS
) -> tuple[subprocess.Popen[str], str, int]:
    """``magdagdon serve`` on a free port, with ``env`` over this process's environment; a
    ``PYTHONPATH`` there runs that checkout's code (checked: it comes before the editable
    install's path)."""
    command = [sys.executable, "-m", "magdagdon", "serve", "--port", "0", "--no-browser"]
    command += ["--db", str(db)]
    environ = {**os.environ, **env}
    src = env.get("PYTHONPATH")
    if src:
        check_src(src)
    process = subprocess.Popen(command, stdout=subprocess.PIPE, text=True, env=environ)
    assert process.stdout is not None
    line = process.stdout.readline()
    if not line.startswith("Serving on http://"):
        process.kill()
        raise SystemExit(f"the server did not start: {line!r}")
    host, port = line.strip().removeprefix("Serving on http://").rsplit(":", 1)
    return process, host, int(port)


class SyncPlayer:
    def __init__(self, host: str, port: int) -> None:
        self.conn = http.client.HTTPConnection(host, port)
        self.conn.connect()
        # http.client sends the headers and the body in two writes: without TCP_NODELAY, Nagle's
        # algorithm and the peer's delayed ACK add ~40 ms to every request (a client artefact)
        self.conn.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.cookie = ""

    def call(self, method: str, path: str, body: Any) -> tuple[int, Any]:
        headers = {"content-type": "application/json", "cookie": self.cookie}
        self.conn.request(method, path, body=json.dumps(body), headers=headers)
        response = self.conn.getresponse()
        data = json.loads(response.read())
        cookie = response.getheader("set-cookie")
        if cookie:
            self.cookie = cookie.split(";")[0]
        return response.status, data


def round_trips(host: str, port: int, count: int) -> tuple[list[float], int]:
    """(a): ``count`` sequential actions; answer their round-trip times and the errors."""
    rng = random.Random(1)
    player = SyncPlayer(host, port)
    status, state = player.call("POST", "/api/games", {"difficulty": "peaceful"})
    times: list[float] = []
    errors = 0
    while len(times) < count:
        action = next_action(state, rng)
        if action is None:
            status, state = player.call("POST", "/api/games", {"difficulty": "peaceful"})
            continue
        start = time.perf_counter()
        status, answer = player.call("POST", f"/api/games/{state['id']}/actions", action)
        times.append(time.perf_counter() - start)
        if status == 200:
            state = answer
        else:
            errors += 1
            _, state = player.call("GET", f"/api/games/{state['id']}", None)
    player.conn.close()
    return times, errors


def report_error(counts: dict[str, int], what: str) -> None:
    counts["errors"] += 1
    if counts["errors"] <= 5:
        print(f"    error: {what}", file=sys.stderr)


async def concurrent_client(base: str, index: int, deadline: float, counts: dict[str, int]) -> None:
    rng = random.Random(index)
    difficulty = DIFFICULTIES[index % 3]
    connector = aiohttp.TCPConnector(limit=1)
    jar = aiohttp.CookieJar(unsafe=True)  # keep cookies of an IP address host
    async with aiohttp.ClientSession(base, connector=connector, cookie_jar=jar) as session:
        state: dict[str, Any] = {"phase": "over"}
        while time.perf_counter() < deadline:
            action = next_action(state, rng)
            try:
                if action is None:
                    async with session.post("/api/games", json={"difficulty": difficulty}) as r:
                        if r.status != 201:
                            report_error(counts, f"new game: {r.status} {await r.text()}")
                            continue
                        state = await r.json()
                        counts["games"] += 1
                    continue
                path = f"/api/games/{state['id']}/actions"
                async with session.post(path, json=action) as response:
                    answer = await response.json()
                    if response.status == 200:
                        state = answer
                        counts["actions"] += 1
                        continue
                    report_error(counts, f"{action}: {response.status} {answer}")
                async with session.get(f"/api/games/{state['id']}") as again:
                    state = await again.json()
            except (aiohttp.ClientError, TimeoutError) as exc:
                report_error(counts, repr(exc))


async def concurrency(host: str, port: int, clients: int, seconds: float) -> dict[str, int]:
    """(b): ``clients`` players on their own games for ``seconds``."""
    counts = {"actions": 0, "errors": 0, "games": 0}
    deadline = time.perf_counter() + seconds
    base = f"http://{host}:{port}"
    await asyncio.gather(*(concurrent_client(base, i, deadline, counts) for i in range(clients)))
    return counts


def store_play_times(db: str, synchronous: str, count: int) -> list[float]:
    """(c): ``games.play`` alone (read, engine, write, commit) with the given ``synchronous``."""
    rng = random.Random(2)
    times: list[float] = []
    with Store(db, synchronous=synchronous) as store:
        from magdagdon.engine import Confirm, Phase, Roll, Ruin, Stage, Unstage

        player = store.new_player().token
        game = games.start(store, player, Difficulty.PEACEFUL, 1)
        while len(times) < count:
            state = game.state
            if state.is_over:
                game = games.start(store, player, Difficulty.PEACEFUL, len(times))
                continue
            legal = list(state.legal_actions())
            if state.phase is Phase.ROLL:
                action: Any = Roll()
            elif state.phase is Phase.MAGDAGDON:
                action = rng.choice([a for a in legal if isinstance(a, Ruin)])
            elif state.can_confirm:
                action = Confirm()
            elif state.stuck:
                action = rng.choice([a for a in legal if isinstance(a, Unstage)])
            else:
                action = rng.choice([a for a in legal if isinstance(a, Stage)])
            start = time.perf_counter()
            game = games.play(store, player, game.id, action)
            times.append(time.perf_counter() - start)
    return times


# (c) on either code: the old store played with Store.apply, this one with games.play. CPU time
# of the thread (no disk wait: synchronous=NORMAL), so a busy disk does not blur the comparison.
STORE_CPU_SCRIPT = """
import random, sys, time
from magdagdon.engine import Confirm, Difficulty, Phase, Roll, Ruin, Stage, Unstage
from magdagdon.store import Store
store = Store(sys.argv[1], synchronous="NORMAL")
token = store.new_player().token
old = hasattr(store, "apply")
if old:
    start = lambda seed: store.new_game(token, Difficulty.PEACEFUL, seed)
    play = lambda game, action: store.apply(game.id, action, player=token)
else:
    from magdagdon.services import games
    start = lambda seed: games.start(store, token, Difficulty.PEACEFUL, seed)
    play = lambda game, action: games.play(store, token, game.id, action)
rng, game, spent, count = random.Random(2), start(1), 0.0, 0
while count < int(sys.argv[2]):
    state = game.state
    if state.is_over:
        game = start(count)
        continue
    legal = list(state.legal_actions())
    if state.phase is Phase.ROLL:
        action = Roll()
    elif state.phase is Phase.MAGDAGDON:
        action = rng.choice([a for a in legal if isinstance(a, Ruin)])
    elif state.can_confirm:
        action = Confirm()
    elif state.stuck:
        action = rng.choice([a for a in legal if isinstance(a, Unstage)])
    else:
        action = rng.choice([a for a in legal if isinstance(a, Stage)])
    begin = time.thread_time()
    if old:  # its action route read the player first; this code's acts with the cookie's token
        store.player(token)
    game = play(game, action)
    spent += time.thread_time() - begin
    count += 1
print(spent / count)
"""


def store_cpu(db: str, src: str | None, count: int) -> float:
    """(c) CPU seconds an action of the store alone, on this code or ``src``'s."""
    env = dict(os.environ, **({"PYTHONPATH": src} if src else {}))
    command = [sys.executable, "-c", STORE_CPU_SCRIPT, db, str(count)]
    result = subprocess.run(command, env=env, capture_output=True, text=True, check=True)
    return float(result.stdout.strip().splitlines()[-1])


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.2f} ms"


@dataclass
class Target:
    """One server to measure: its name, database and code; the figures of every round."""

    name: str
    db: str
    src: str | None = None
    medians: list[float] = field(default_factory=list)
    p95s: list[float] = field(default_factory=list)
    rates: list[float] = field(default_factory=list)
    cpus: list[float] = field(default_factory=list)
    errors: int = 0


def process_cpu(pid: int) -> float:
    """The CPU seconds a process has used, all its threads (Linux's /proc): what an action
    costs the server apart from waiting for the disk, which a busy machine makes noisy."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def measure(target: Target, args: argparse.Namespace) -> None:
    """One round of (a) and (b) on a fresh server of ``target``."""
    env = NO_RATE_LIMITS if target.src is None else {**NO_RATE_LIMITS, "PYTHONPATH": target.src}
    process, host, port = start_server(target.db, env)
    try:
        round_trips(host, port, 100)  # warm-up
        cpu = process_cpu(process.pid)
        times, errors = round_trips(host, port, args.actions)
        target.cpus.append((process_cpu(process.pid) - cpu) / len(times))
        target.medians.append(statistics.median(times))
        target.p95s.append(percentile(times, 0.95))
        counts = asyncio.run(concurrency(host, port, args.clients, args.seconds))
        target.rates.append(counts["actions"] / args.seconds)
        target.errors += errors + counts["errors"]
    finally:
        process.terminate()
        process.wait(15)


def report(target: Target, args: argparse.Namespace) -> None:
    median, rate = statistics.median(target.medians), statistics.median(target.rates)
    rounds = ", ".join(ms(m) for m in target.medians)
    ok = median <= 0.005 and rate >= 500 and not target.errors
    print(
        f"{target.name:>22}: (a) median {ms(median)} (rounds: {rounds}), "
        f"p95 {ms(statistics.median(target.p95s))}, server CPU "
        f"{ms(statistics.median(target.cpus))} an action; (b) {rate:.0f} actions/s "
        f"(rounds: {', '.join(f'{r:.0f}' for r in target.rates)}); {target.errors} errors "
        f"{'OK' if ok else 'MISSED'}"
    )


def postgresql_database(url: str, stack: ExitStack) -> str:
    """The PostgreSQL database to use: ``url``, emptied, or one on a server started here."""
    if url != "auto":
        with Store(url) as store, store.engine.begin() as conn:
            conn.exec_driver_sql("TRUNCATE highscores, actions, games, players")
        return url
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
    from pg import PostgresServer

    server = PostgresServer(settings={})  # PostgreSQL's defaults: fsync on
    stack.callback(server.stop)
    return server.create_database(migrated=False)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--seconds", type=float, default=10.0, help="length of (b), default 10")
    parser.add_argument("--actions", type=int, default=1000, help="actions in (a), default 1000")
    parser.add_argument("--clients", type=int, default=50, help="clients in (b), default 50")
    parser.add_argument("--rounds", type=int, default=3, help="rounds per server, default 3")
    parser.add_argument("--before", metavar="SRC", help="also run this checkout's src on SQLite")
    parser.add_argument("--postgresql", metavar="URL|auto", help="also run on PostgreSQL")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="magdagdon-bench-") as tmp, ExitStack() as stack:
        directory = Path(tmp)
        postgresql = postgresql_database(args.postgresql, stack) if args.postgresql else None
        stores = [(f"SQLite {s}", str(directory / f"store-{s}.sqlite3"), s) for s in SYNCHRONOUS]
        if postgresql:
            stores.append(("PostgreSQL", postgresql, "FULL"))
        for name, db, synchronous in stores:
            times = store_play_times(db, synchronous, 2000)
            print(
                f"(c) games.play, {name}: median {ms(statistics.median(times))}"
                f", p95 {ms(percentile(times, 0.95))} over {len(times)} actions"
            )
        if args.before:
            pairs = [
                (
                    store_cpu(str(directory / f"cpu-after-{i}.sqlite3"), None, 2000),
                    store_cpu(str(directory / f"cpu-before-{i}.sqlite3"), args.before, 2000),
                )
                for i in range(args.rounds)
            ]
            after_cpu = statistics.median(a for a, _ in pairs)
            before_cpu = statistics.median(b for _, b in pairs)
            print(
                f"(c) store CPU an action as the action route uses it (synchronous=NORMAL): "
                f"this code {ms(after_cpu)}, --before {ms(before_cpu)}: "
                f"+{(after_cpu - before_cpu) * 1e6:.0f} µs"
            )
        targets = [Target("SQLite, this code", str(directory / "after.sqlite3"))]
        if args.before:
            targets.append(
                Target("SQLite, --before", str(directory / "before.sqlite3"), args.before)
            )
        if postgresql:
            targets.append(Target("PostgreSQL, this code", postgresql))
        for index in range(args.rounds):
            # ABBA order: a load that drifts during a round hits every server alike
            for target in targets if index % 2 == 0 else targets[::-1]:
                measure(target, args)
        print(
            f"(a) round trip over {args.actions} sequential actions (target: median <= 5 ms); "
            f"(b) {args.clients} clients for {args.seconds:g} s (target: >= 500 actions/s)"
        )
        for target in targets:
            report(target, args)
        if args.before:
            # the ratio of each round's pair, then their median: robust to a machine whose load
            # changes from round to round
            after, before = targets[:2]
            trips = [a / b for a, b in zip(after.medians, before.medians, strict=True)]
            rates = [a / b for a, b in zip(after.rates, before.rates, strict=True)]
            cpus = [a / b for a, b in zip(after.cpus, before.cpus, strict=True)]
            print(
                f"this code against --before, the median of the rounds' ratios: (a) round trip "
                f"{100 * (statistics.median(trips) - 1):+.1f} %, server CPU an action "
                f"{100 * (statistics.median(cpus) - 1):+.1f} %; (b) actions/s "
                f"{100 * (statistics.median(rates) - 1):+.1f} %"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
