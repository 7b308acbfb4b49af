"""Every request's cost as the data grows: a database of N players is generated (real engine
games in the store's own row format, ``COPY`` on PostgreSQL: ``tests/scale_data.py``), then each
request is timed against it, in this process through the services a request calls (the HTTP
edge costs the same at every size), and the time to "Serving on" of ``magdagdon serve`` on it.
The sizes are printed side by side, with the growth from the smallest to the largest.

    uv run --locked python bench/scale_bench.py --sizes 10000,100000
    uv run --locked python bench/scale_bench.py --sizes 10000,1000000 --flat-only
    uv run --locked python bench/scale_bench.py --sizes 1000000 --flat-only --keep /var/tmp/scale
    uv run --locked python bench/scale_bench.py --db sqlite --sizes 10000

Each size has one ranked attempt at today's challenge a player (a third on each difficulty),
one finished ordinary game a player, and the shares of stale, recent and empty ones of
``scale_data.Shape``. ``--flat-only``: only the requests that must stay flat however many
players (the day's table, the clean-up with nothing to remove, the start), on a database with
nothing stale whose clean-up mark is where the previous day's run would have left it.
PostgreSQL runs with its own defaults (fsync on), from ``tests/pg.py``. ``--keep DIR``: the
server's files stay in DIR, and a size generated there before is measured again without being
generated (a million players take minutes to make); the schema is migrated on opening, and the
migration's time printed.

The start is timed against an empty database's in the same run, in the order ABBA (empty, big,
big, empty; twice), so that a load that changes during the run weighs on both alike.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

import psycopg

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from magdagdon import clock
from magdagdon.engine import Difficulty, Roll
from magdagdon.services import daily, games, stats
from magdagdon.store import Store
from magdagdon.store.cleanup import mark_of, remove
from scale_data import Shape, generate

if TYPE_CHECKING:
    from collections.abc import Callable

ROOT = Path(__file__).resolve().parent.parent
TIMES = 30


def timed(work: Callable[[int], object], times: int = TIMES) -> list[float]:
    """Milliseconds of each of ``times`` runs (``work`` gets the run's number)."""
    spent = []
    for number in range(times):
        began = time.perf_counter()
        work(number)
        spent.append((time.perf_counter() - began) * 1000)
    return spent


def summary(spent: list[float]) -> tuple[float, float]:
    ordered = sorted(spent)
    return statistics.median(ordered), ordered[max(0, round(0.95 * len(ordered)) - 1)]


def serving_time(db: str) -> float:
    """Seconds from ``magdagdon serve`` to its "Serving on" line (2 workers)."""
    command = [sys.executable, "-m", "magdagdon", "serve", "--no-browser", "--port", "0"]
    command += ["--workers", "2", "--db", db]
    began = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        assert process.stdout is not None
        for line in process.stdout:
            if line.startswith("Serving on"):
                return time.perf_counter() - began
        raise RuntimeError("the server ended before serving")
    finally:
        process.terminate()
        process.wait(30)


def cutoff_of(shape: Shape) -> str:
    return clock.stamp(datetime.combine(shape.day, datetime.min.time(), UTC) - timedelta(30))


def measure(
    store: Store, db: str, empty_db: str, shape: Shape, flat_only: bool
) -> dict[str, list[float]]:
    results: dict[str, list[float]] = {}
    far = f"scale-{shape.attempts // 6 * 3:09d}"  # a peaceful attempt, halfway down
    difficulty = Difficulty.PEACEFUL
    results["day's table: top 100 + own row"] = timed(
        lambda n: daily.table(store, f"scale-{(n * 7919) % shape.attempts:09d}", difficulty)
    )
    results["day's table: own row halfway down"] = timed(
        lambda _: daily.table(store, far, difficulty)
    )
    deep = daily.table(store, far, difficulty)[-1].after  # the page after the asking player's
    results["day's table: a page by keyset, halfway"] = timed(
        lambda _: daily.table(store, far, difficulty, after=deep)
    )
    cutoff = cutoff_of(shape)
    began = time.perf_counter()
    first = remove(store, cutoff)
    results["clean-up: first run (s)"] = [time.perf_counter() - began]
    print(f"  first clean-up removed {first}", file=sys.stderr)
    results["clean-up: nothing to remove"] = timed(lambda _: remove(store, cutoff), 10)
    if not flat_only:
        player = "scale-000000000"
        results["STATISTIKA"] = timed(
            lambda n: stats.statistics(
                store, player, Difficulty(("peaceful", "survival", "nightmare")[n % 3])
            )
        )
        results["High Scores"] = timed(lambda n: store.highscores(f"scale-{n:09d}", difficulty))
        started: list[str] = []
        results["a new game"] = timed(
            lambda n: started.append(games.start(store, f"scale-{n:09d}", difficulty, n).id)
        )
        results["an action (roll)"] = timed(
            lambda n: games.play(store, f"scale-{n:09d}", started[n], Roll())
        )
        results["reading a game"] = timed(lambda n: store.game(started[n]))
    starts: dict[str, list[float]] = {empty_db: [], db: []}
    for target in (empty_db, db, db, empty_db) * 2:  # ABBA, twice
        starts[target].append(serving_time(target))
        which = "empty" if target == empty_db else f"{shape.players:,} players"
        print(
            f"  start, {which}: {starts[target][-1]:.2f} s (load {os.getloadavg()[0]:.1f})",
            file=sys.stderr,
        )
    results["start: to Serving on, empty database (s)"] = starts[empty_db]
    results["start: to Serving on (s)"] = starts[db]
    return results


def explain(store: Store, shape: Shape) -> None:
    """``EXPLAIN ANALYZE`` of the day's table's statements (PostgreSQL), on standard error."""
    from magdagdon.store import daily as table

    far = daily.table(store, f"scale-{shape.attempts // 6 * 3:09d}", Difficulty.PEACEFUL)[-1]
    _, at = daily.parse_after(far.after)
    of_day = {"day": shape.day.isoformat(), "difficulty": "peaceful", "limit": 100}
    key = {"score": at.score, "finished_at": at.finished_at}
    mine = f"scale-{shape.attempts // 6 * 3:09d}-d"
    for name, statement, values in (
        ("top 100", table.TABLE, of_day),
        ("the page after a row", table.TABLE_FROM, of_day | key),
        ("attempts ahead of a row", table.AHEAD, of_day | key | {"game_id": mine}),
        ("the day's attempts", table.ATTEMPTS, of_day),
    ):
        with store.engine.connect() as conn:
            state = statement.compile(dialect=conn.dialect).construct_expanded_state(values)
            found = conn.exec_driver_sql(
                f"EXPLAIN (ANALYZE, BUFFERS) {state.statement}", state.parameters
            )
            print(f"-- {name}", file=sys.stderr)
            for row in found:
                print(f"   {row[0]}", file=sys.stderr)


def kept_database(server: Any, shape: Shape, flat_only: bool) -> tuple[str, bool]:
    """The kept server's database of ``shape`` (its URL), and whether it was there before."""
    name = f"scale_{shape.players}{'_flat' if flat_only else ''}"
    with psycopg.connect(server.conninfo("postgres"), autocommit=True) as conn:
        found = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone()
        if found is None:
            conn.execute(f'CREATE DATABASE "{name}" TEMPLATE template0')
    return server.url(name), found is not None


def run_size(
    kind: str, players: int, flat_only: bool, server: Any, empty_db: str
) -> dict[str, list[float]]:
    shape = Shape(players=players, attempts=players)
    if flat_only:  # nothing stale: the first clean-up is one with nothing to remove
        shape = Shape(players=players, attempts=players, stale=0, never=0, leavers=0)
    made = False
    if kind == "postgresql" and server.kept is not None:
        db, made = kept_database(server, shape, flat_only)
    elif kind == "postgresql":
        db = server.create_database()
    else:
        db = str(Path(tempfile.mkdtemp(prefix="magdagdon-scale-")) / "scale.sqlite3")
    began = time.perf_counter()
    with Store(db) as store:
        if made:
            print(
                f"{players} players: kept, opened (migrated) in "
                f"{time.perf_counter() - began:.1f} s",
                file=sys.stderr,
            )
        else:
            generate(store, shape)
            if flat_only:  # as a previous day's run leaves it: every older player checked
                with store.write() as rows:
                    rows.move_players_mark(mark_of(cutoff_of(shape), ""))
            print(
                f"{players} players: generated in {time.perf_counter() - began:.0f} s "
                f"(load {os.getloadavg()[0]:.1f})",
                file=sys.stderr,
            )
        if kind == "postgresql":
            explain(store, shape)
        found = measure(store, db, empty_db, shape, flat_only)
    if kind == "postgresql" and server.kept is None:
        server.drop_database(db)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--db", choices=("postgresql", "sqlite"), default="postgresql")
    parser.add_argument("--sizes", default="10000,100000")
    parser.add_argument("--flat-only", action="store_true")
    parser.add_argument("--keep", type=Path, help="PostgreSQL: keep its files (and sizes) here")
    args = parser.parse_args()
    sizes = [int(size) for size in args.sizes.split(",")]
    clock_file = Path(tempfile.mkdtemp(prefix="magdagdon-clock-")) / "clock"
    clock_file.write_text(f"{Shape(1, 1).day.isoformat()}T12:00:00.000Z")
    os.environ[clock.ENV_VAR] = str(clock_file)
    server = None
    if args.db == "postgresql":
        from pg import PostgresServer

        server = PostgresServer(settings={}, kept=args.keep)  # PostgreSQL's defaults: fsync on
    empty_db = server.create_database() if server else str(clock_file.parent / "empty.sqlite3")
    Store(empty_db).close()
    try:
        by_size = {
            size: run_size(args.db, size, args.flat_only, server, empty_db) for size in sizes
        }
    finally:
        if server is not None:
            server.drop_database(empty_db)
            server.stop()
    names = list(by_size[sizes[0]])
    print(f"\n{args.db}, load {os.getloadavg()[0]:.1f}; median / p95 in ms (s where said)")
    header = "| request | " + " | ".join(f"{size:,} players" for size in sizes) + " | growth |"
    print(header)
    print("|" + "---|" * (len(sizes) + 2))
    for name in names:
        cells, medians = [], []
        for size in sizes:
            median, p95 = summary(by_size[size][name])
            medians.append(median)
            cells.append(f"{median:.2f} / {p95:.2f}")
        growth = medians[-1] / medians[0] if medians[0] else float("nan")
        print(f"| {name} | " + " | ".join(cells) + f" | {growth:.2f}× |")


if __name__ == "__main__":
    main()
