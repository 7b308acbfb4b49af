"""Import flood benchmark: 20 players act while new players import a 16 MB export again and
again (each import one after the other, on four connections at once: one runs, one waits, the
others meet the bounded queue's 503); the acting players' action p99 with the flood and without
it (target: within 2 times), and what became of the imports.

The file is as large as the import's body cap allows: real games (played to their end by a
plain policy: stage, confirm, a Power now and then, un-staging only when nothing else is
legal) until 16 MB. One server
process (``serve --workers 1``) on SQLite and on PostgreSQL (``tests/pg.py`` starts one), each
measured ``--rounds`` times, quiet and flooded interleaved (ABBA), as ``host_bench.py``'s (f).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import sys
import tempfile
import time
from contextlib import ExitStack
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from host_bench import Databases, Figures, Server, crowd, load, ratios, start
from magdagdon.engine import Action, Confirm, Difficulty, GameState, Unstage, action_to_json
from magdagdon.sim.summary import percentile

CAP = 16 * 1024 * 1024


def played(seed: int, rng: random.Random) -> dict[str, Any]:
    """One finished game of an export file."""
    state = GameState.new(Difficulty.PEACEFUL, seed)
    actions = []
    while not state.is_over:
        every = state.legal_actions()
        legal: list[Action] = [a for a in every if not isinstance(a, Unstage)] or list(every)
        confirm = [a for a in legal if isinstance(a, Confirm)]
        action = confirm[0] if confirm and rng.random() < 0.7 else rng.choice(legal)
        actions.append(action_to_json(action))
        state = state.apply(action)
    return {
        "id": f"bench{seed}",
        "difficulty": "peaceful",
        "seed": seed,
        "mode": "normal",
        "daily_date": None,
        "status": "finished",
        "created_at": "2026-12-01T08:00:00.000Z",
        "finished_at": "2026-12-01T08:05:00.000Z",
        "hints_used": 0,
        "actions": actions,
        "score": state.score().total,
    }


def export_file() -> bytes:
    """An export of as many games as 16 MB holds."""
    rng = random.Random(5)
    games: list[dict[str, Any]] = []
    size = 200
    while True:
        game = played(len(games) + 1, rng)
        grown = len(json.dumps(game, separators=(",", ":"))) + 1
        if size + grown > CAP - 1024:
            break
        games.append(game)
        size += grown
    document = {
        "format": "magdagdon-export",
        "version": 1,
        "exported_at": "2026-12-01T09:00:00.000Z",
        "player": {"language": "fil", "name": None},
        "games": games,
    }
    return json.dumps(document, separators=(",", ":")).encode()


async def post_raw(server: Server, body: bytes) -> int:
    """POST the file as a new player (no cookie) on a connection of its own: the status."""
    reader, writer = await asyncio.open_connection(server.host, server.port)
    head = (
        f"POST /api/player/import HTTP/1.1\r\nHost: {server.host}\r\n"
        f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n"
        "Connection: close\r\n\r\n"
    )
    writer.write(head.encode() + body)
    await writer.drain()
    status = int((await reader.readline()).split()[1])
    await reader.read()
    writer.close()
    return status


async def import_flood(
    server: Server, body: bytes, deadline: float, statuses: dict[int, int], took: list[float]
) -> None:
    async def one() -> None:
        while time.perf_counter() < deadline:
            begin = time.perf_counter()
            status = await post_raw(server, body)
            statuses[status] = statuses.get(status, 0) + 1
            if status == 200:
                took.append(time.perf_counter() - begin)
            else:
                await asyncio.sleep(0.5)

    await asyncio.gather(*(one() for _ in range(4)))


async def measure(server: Server, body: bytes | None, seconds: float) -> tuple[float, int, str]:
    deadline = time.perf_counter() + seconds
    statuses: dict[int, int] = {}
    took: list[float] = []
    tasks: list[Any] = [crowd(server, 20, seconds)]
    if body is not None:
        tasks.append(import_flood(server, body, deadline, statuses, took))
    tally, *_ = await asyncio.gather(*tasks)
    note = ""
    if body is not None:
        mean = sum(took) / len(took) if took else float("nan")
        note = f"imports by status {dict(sorted(statuses.items()))}, each {mean:.1f} s"
    return percentile(tally.latencies, 0.99), tally.errors, note


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--seconds", type=float, default=40.0, help="each measure, default 40")
    parser.add_argument("--rounds", type=int, default=2, help="rounds, default 2")
    parser.add_argument("--postgresql", metavar="URL|auto|none", default="auto")
    args = parser.parse_args()
    body = export_file()
    games = body.count(b'"seed"')
    kinds = ["postgresql", "sqlite"] if args.postgresql != "none" else ["sqlite"]
    print(f"load average at the start: {load():.1f}; {os.cpu_count()} cores")
    print(f"the file: {len(body) / 2**20:.1f} MB, {games} games")
    with tempfile.TemporaryDirectory(prefix="magdagdon-import-") as tmp, ExitStack() as stack:
        dbs = Databases(Path(tmp), None if args.postgresql == "none" else args.postgresql, stack)
        for kind in kinds:
            quiet, flooded = Figures(), Figures()
            notes = []
            for index in range(args.rounds):
                server = start(dbs.new(kind), 1)
                try:
                    asyncio.run(crowd(server, 5, 2.0))
                    for flood in [False, True] if index % 2 == 0 else [True, False]:
                        p99, errors, note = asyncio.run(
                            measure(server, body if flood else None, args.seconds)
                        )
                        (flooded if flood else quiet).add(p99, errors)
                        if note:
                            notes.append(note)
                finally:
                    server.stop()
            ratio = ratios(flooded, quiet)
            verdict = "met" if ratio <= 2.0 else "MISSED"
            print(
                f"{kind}, 20 players acting, {args.seconds:g} s: their action p99 without the "
                f"imports {1000 * quiet.median():.1f} ms (rounds {quiet.rounds('{:.3f} s')}), "
                f"with them {1000 * flooded.median():.1f} ms (rounds "
                f"{flooded.rounds('{:.3f} s')}); with / without = {ratio:.2f} — target <= 2: "
                f"{verdict}; {quiet.errors + flooded.errors} action errors"
            )
            for note in notes:
                print(f"        {note}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
