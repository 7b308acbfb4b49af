"""``magdagdon db copy`` at N players, both ways: its time and its peak memory (the process's
maximum resident set), on a generated database with every game's action log
(``tests/scale_data.py``).

    uv run --locked python bench/copy_bench.py --players 100000
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from magdagdon.store import Store
from scale_data import Shape, generate


def copy(source: str, target: str) -> tuple[float, float]:
    """Seconds and peak MB of one ``magdagdon db copy``, in a process of its own."""
    command = [sys.executable, "-m", "magdagdon", "db", "copy", "--from", source, "--to", target]
    began = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    spent = time.perf_counter() - began
    if done.returncode != 0:
        raise RuntimeError(done.stderr)
    print(done.stdout.strip(), file=sys.stderr)
    peak_kb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss  # the largest child's
    return spent, peak_kb / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--players", type=int, default=100_000)
    args = parser.parse_args()
    from pg import PostgresServer

    server = PostgresServer(settings={})  # PostgreSQL's defaults: fsync on
    folder = Path(tempfile.mkdtemp(prefix="magdagdon-copy-"))
    try:
        source = server.create_database()
        began = time.perf_counter()
        with Store(source) as store:
            generate(store, Shape(players=args.players, attempts=args.players, logs=True))
        print(f"generated in {time.perf_counter() - began:.0f} s", file=sys.stderr)
        to_sqlite = str(folder / "copy.sqlite3")
        Store(to_sqlite).close()
        pg_to_sqlite = copy(source, to_sqlite)
        back = server.create_database()
        sqlite_to_pg = copy(to_sqlite, back)
        size = os.path.getsize(to_sqlite) / 2**20
        print(
            f"\n{args.players:,} players ({size:.0f} MB as SQLite); load {os.getloadavg()[0]:.1f}"
        )
        print(f"PostgreSQL → SQLite: {pg_to_sqlite[0]:.0f} s, peak {pg_to_sqlite[1]:.0f} MB")
        print(
            f"SQLite → PostgreSQL: {sqlite_to_pg[0]:.0f} s, peak {sqlite_to_pg[1]:.0f} MB "
            "(peak: the largest copy process so far)"
        )
    finally:
        server.stop()
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
