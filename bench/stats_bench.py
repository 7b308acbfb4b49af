"""Statistics, export and import of a player with many finished games (the budget:
``GET /api/stats`` for 10,000 finished games within 100 ms).

The games are made by a quick random player through the engine (random valid stages up to the
turn's minimum, KUMPIRMAHIN, a random RUIN), written as an export document and imported, so the
import itself is measured too (every game replayed through the engine, one transaction). Then:
    (a) ``services.stats.statistics`` alone, and ``GET /api/stats`` in-process (TestClient),
        median and p95 of ``--repeat`` calls;
    (b) ``GET /api/player/export`` of all those games, and its size;
    (c) the import, once.
On SQLite (a temporary file) and, with ``--postgresql auto``, on a PostgreSQL server started here
(tests/pg.py, fsync on).
"""

from __future__ import annotations

import argparse
import random
import statistics as pystats
import sys
import tempfile
import time
from contextlib import ExitStack
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from magdagdon.api.app import create_app
from magdagdon.api.cookies import COOKIE
from magdagdon.engine import (
    Action,
    Confirm,
    Difficulty,
    GameState,
    Ruin,
    Stage,
    action_from_json,
    action_to_json,
    replay,
)
from magdagdon.services import stats, transfer
from magdagdon.settings import Settings
from magdagdon.store import Store


def quick_game(difficulty: Difficulty, seed: int, rng: random.Random) -> list[dict[str, Any]]:
    """The actions of one game by a random placer."""
    state = GameState.new(difficulty, seed)
    log: list[dict[str, Any]] = []
    while not state.is_over:
        legal = state.legal_actions()
        action: Action
        if state.phase.value == "place" and not state.can_confirm and not state.stuck:
            action = rng.choice([a for a in legal if isinstance(a, Stage)])
        elif state.phase.value == "place" and state.can_confirm:
            action = Confirm()
        elif state.phase.value == "magdagdon":
            action = rng.choice([a for a in legal if isinstance(a, Ruin)])
        else:
            action = legal[0]  # roll, or the first way out of being stuck (unstage)
        state = state.apply(action)
        log.append(action_to_json(action))
    return log


def document(count: int, difficulty: Difficulty) -> dict[str, Any]:
    rng = random.Random(1)
    found = []
    for index in range(count):
        seed = rng.randrange(2**53)
        actions = quick_game(difficulty, seed, rng)
        state = replay(difficulty, seed, [action_from_json(data) for data in actions])
        stamp = f"2026-12-01T{index // 3600 % 24:02d}:{index // 60 % 60:02d}:{index % 60:02d}.000Z"
        found.append(
            {
                "id": f"bench{index:06d}",
                "difficulty": difficulty.value,
                "seed": seed,
                "mode": "normal",
                "daily_date": None,
                "status": "finished",
                "created_at": stamp,
                "finished_at": stamp,
                "hints_used": 0,
                "actions": actions,
                "score": state.score().total,
            }
        )
    return {
        "format": transfer.FORMAT,
        "version": transfer.VERSION,
        "exported_at": "2026-12-01T00:00:00.000Z",
        "player": {"language": "fil", "name": None},
        "games": found,
    }


def timed(call: Any, repeat: int) -> tuple[float, float]:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        call()
        times.append((time.perf_counter() - start) * 1000)
    times.sort()
    return pystats.median(times), times[min(len(times) - 1, int(0.95 * len(times)))]


def measure(db: str, label: str, doc: dict[str, Any], repeat: int) -> None:
    difficulty = Difficulty(doc["games"][0]["difficulty"])
    with Store(db) as store:
        player = store.new_player()
        start = time.perf_counter()
        result = transfer.import_document(store, player, doc)
        imported = time.perf_counter() - start
        assert result.imported == len(doc["games"]), result
        alone = timed(lambda: stats.statistics(store, player.token, difficulty), repeat)
        app = create_app(store, settings=Settings(rate_limits=False))
        with TestClient(app) as client:
            client.cookies.set(COOKIE, player.token)
            params = {"difficulty": difficulty.value}
            found = client.get("/api/stats", params=params).json()
            assert found["finished"] == len(doc["games"]), found
            http = timed(lambda: client.get("/api/stats", params=params), repeat)
            start = time.perf_counter()
            exported = client.get("/api/player/export")
            export_s = time.perf_counter() - start
        print(
            f"{label}: {len(doc['games'])} finished games; statistics alone median "
            f"{alone[0]:.1f} ms, p95 {alone[1]:.1f} ms; GET /api/stats median {http[0]:.1f} ms, "
            f"p95 {http[1]:.1f} ms (mean {found['mean']}, {repeat} calls)"
        )
        print(
            f"{label}: export {export_s * 1000:.0f} ms, {len(exported.content) / 1e6:.1f} MB "
            f"({len(exported.content) / len(doc['games']):.0f} bytes a game); import "
            f"{imported:.1f} s ({len(doc['games']) / imported:.0f} games/s, replayed and stored)"
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--difficulty", default="peaceful")
    parser.add_argument("--repeat", type=int, default=30)
    parser.add_argument("--postgresql", default=None, help="'auto': start one here")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    doc = document(args.games, Difficulty(args.difficulty))
    print(f"made {args.games} games in {time.perf_counter() - start:.1f} s")
    with tempfile.TemporaryDirectory() as tmp, ExitStack() as stack:
        measure(str(Path(tmp) / "bench.sqlite3"), "SQLite", doc, args.repeat)
        if args.postgresql:
            url = args.postgresql
            if url == "auto":
                sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
                from pg import PostgresServer

                server = PostgresServer(settings={})  # PostgreSQL's defaults: fsync on
                stack.callback(server.stop)
                url = server.create_database(migrated=False)
            measure(url, "PostgreSQL", doc, args.repeat)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
