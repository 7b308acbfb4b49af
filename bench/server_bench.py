"""Server benchmark: the real ``magdagdon serve`` on port 0 with a temporary database.

(a) one action round trip on localhost, SQLite commit included: median and p95 over sequential
    actions with a keep-alive client (target: median <= 5 ms);
(b) 50 concurrent clients on 50 games for ``--seconds`` seconds with aiohttp: actions/s and
    errors (target: >= 500 actions/s, zero errors);
(c) the store alone: one ``Store.apply`` with synchronous=FULL and with NORMAL (the durability
    choice).
Every client plays real games from the state it is shown: roll, stage valid cells, confirm (or
unstage when stuck, or accept MAGDAGDON on a ruinable cell), a new game when it is over.
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import json
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import aiohttp

from magdagdon.engine import Difficulty
from magdagdon.sim.stats import percentile
from magdagdon.store import Store

DIFFICULTIES = ("peaceful", "survival", "nightmare")


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


def start_server(db: Path) -> tuple[subprocess.Popen[str], str, int]:
    command = [sys.executable, "-m", "magdagdon", "serve", "--port", "0", "--no-browser"]
    process = subprocess.Popen([*command, "--db", str(db)], stdout=subprocess.PIPE, text=True)
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


def store_apply_times(directory: Path, synchronous: str, count: int) -> list[float]:
    """(c): ``Store.apply`` alone (commit included) with the given ``synchronous``."""
    rng = random.Random(2)
    times: list[float] = []
    with Store(directory / f"store-{synchronous}.sqlite3", synchronous=synchronous) as store:
        from magdagdon.engine import Confirm, Phase, Roll, Ruin, Stage, Unstage

        player = store.new_player()
        game = store.new_game(player.token, Difficulty.PEACEFUL, 1)
        while len(times) < count:
            state = game.state
            if state.is_over:
                game = store.new_game(player.token, Difficulty.PEACEFUL, len(times))
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
            game = store.apply(game.id, action)
            times.append(time.perf_counter() - start)
    return times


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.2f} ms"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--seconds", type=float, default=30.0, help="length of (b), default 30")
    parser.add_argument("--actions", type=int, default=2000, help="actions in (a), default 2000")
    parser.add_argument("--clients", type=int, default=50, help="clients in (b), default 50")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="magdagdon-bench-") as tmp:
        directory = Path(tmp)
        for synchronous in ("FULL", "NORMAL"):
            times = store_apply_times(directory, synchronous, 2000)
            print(
                f"(c) Store.apply, synchronous={synchronous}: median {ms(statistics.median(times))}"
                f", p95 {ms(percentile(times, 0.95))} over {len(times)} actions"
            )
        process, host, port = start_server(directory / "server.sqlite3")
        try:
            round_trips(host, port, 100)  # warm-up
            times, errors = round_trips(host, port, args.actions)
            median = statistics.median(times)
            print(
                f"(a) action round trip: median {ms(median)}, p95 {ms(percentile(times, 0.95))} "
                f"over {len(times)} actions, {errors} errors (target: median <= 5 ms) "
                f"{'OK' if median <= 0.005 and not errors else 'MISSED'}"
            )
            counts = asyncio.run(concurrency(host, port, args.clients, args.seconds))
            rate = counts["actions"] / args.seconds
            print(
                f"(b) {args.clients} concurrent clients for {args.seconds:g} s: "
                f"{rate:.0f} actions/s ({counts['actions']} actions, {counts['games']} new games), "
                f"{counts['errors']} errors (target: >= 500 actions/s, 0 errors) "
                f"{'OK' if rate >= 500 and not counts['errors'] else 'MISSED'}"
            )
        finally:
            process.terminate()
            process.wait(15)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
