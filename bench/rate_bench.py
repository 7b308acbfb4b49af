"""What a rate-limited request pays for its count: one request's 4 counters (2 rates by address,
2 by player) counted in the database (``store/counters.py``), on SQLite and on a PostgreSQL
started for the run (``tests/pg.py``, with its durable defaults), against this process's memory
(``LocalCounters``). Prints the best and the median of rounds of 50 counts, in microseconds.

    .venv/bin/python bench/rate_bench.py

Figures (2 cores shared with a load average of 20, two runs): SQLite best 172-204 µs, median
519-746 µs; PostgreSQL (one round trip) best 265-312 µs, median 621-991 µs; memory best
18-26 µs, median 35-38 µs. The medians are the load's: the best rounds are what the count
itself costs. Only the rate-limited requests (starting games, hints, device links) pay it; the
actions of a game are never counted.
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import TYPE_CHECKING

from limits import parse

from magdagdon.api.edge.ratelimit import Counter, LocalCounters
from magdagdon.store import Store
from magdagdon.store.counters import Count, Counters

if TYPE_CHECKING:
    from collections.abc import Callable

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from pg import PostgresServer

ROUNDS, EACH = 40, 50
UNLIMITED = 10**9


def rounds(hit: Callable[[], object]) -> tuple[float, float]:
    for _ in range(EACH * 4):  # warm: connections opened, statements prepared
        hit()
    times = []
    for _ in range(ROUNDS):
        start = time.perf_counter()
        for _ in range(EACH):
            hit()
        times.append((time.perf_counter() - start) / EACH * 1e6)
    return min(times), statistics.median(times)


def database(db: str) -> tuple[float, float]:
    Store(db).close()  # migrated
    counters = Counters(db)
    counts = [
        Count(f"games/address/192.0.2.1/{period}", UNLIMITED, period) for period in (60, 3600)
    ]
    counts += [Count(f"games/player/token/{period}", UNLIMITED, period) for period in (60, 3600)]
    try:
        return rounds(lambda: counters.hit(counts))
    finally:
        counters.close()


def memory() -> tuple[float, float]:
    local = LocalCounters()
    rates = parse(f"{UNLIMITED}/minute"), parse(f"{UNLIMITED}/hour")
    counters: list[Counter] = [(rate, ("games", "address", "192.0.2.1")) for rate in rates]
    counters += [(rate, ("games", "player", "token")) for rate in rates]
    return rounds(lambda: local.hit_now(counters))


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        figures = {"sqlite": database(str(Path(folder) / "rates.sqlite3"))}
    server = PostgresServer(settings={})
    try:
        figures["postgresql"] = database(server.create_database(migrated=False))
    finally:
        server.stop()
    figures["memory"] = memory()
    for name, (best, median) in figures.items():
        print(f"{name:>10}: best {best:7.0f} µs, median {median:7.0f} µs a request (4 counters)")


if __name__ == "__main__":
    main()
