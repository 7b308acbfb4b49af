"""What one action costs the store: the statements it sends to the database (BEGIN and COMMIT
included, as the engine's events see them) and its CPU time, on SQLite and on PostgreSQL
(``tests/pg.py``'s server, PostgreSQL's default durability), for ``games.play`` over a
``Store`` in this process: the store's share of an action's round trip, without HTTP.

Each game is played to its end with random legal actions (a finished game also writes its
result and High Score); the figures are per action, over ``--actions`` actions.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

from sqlalchemy import event

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from magdagdon.engine import Difficulty
from magdagdon.services import games
from magdagdon.store import Store


def count_statements(store: Store, counts: Counter[str]) -> None:
    """Count what ``store``'s engines send: each statement by its first word, BEGIN, COMMIT."""
    engines = {id(e): e for e in (store.engine, store._write_engine)}
    for engine in engines.values():

        @event.listens_for(engine, "before_cursor_execute")
        def on_execute(*args: Any) -> None:
            counts[str(args[2]).split(None, 1)[0].upper()] += 1

        @event.listens_for(engine, "begin")
        def on_begin(conn: Any) -> None:
            counts["BEGIN"] += 1

        @event.listens_for(engine, "commit")
        def on_commit(conn: Any) -> None:
            counts["COMMIT"] += 1


def play(store: Store, actions: int, seed: int) -> tuple[Counter[str], float]:
    """(statements by kind, CPU seconds) of ``actions`` actions, after one that opens the
    connections (not counted)."""
    rng = random.Random(seed)
    token = store.new_player().token
    game = games.start(store, token, Difficulty.SURVIVAL, rng.randrange(10**6))
    game = games.play(store, token, game.id, game.state.legal_actions()[0])
    counts: Counter[str] = Counter()
    count_statements(store, counts)
    cpu = 0.0
    for _ in range(actions):
        if game.state.is_over:  # a new game's statements are not an action's
            before = counts.copy()
            game = games.start(store, token, Difficulty.SURVIVAL, rng.randrange(10**6))
            counts.clear()
            counts.update(before)
        action = rng.choice(game.state.legal_actions())
        begin = time.process_time()
        game = games.play(store, token, game.id, action, version=game.version)
        cpu += time.process_time() - begin
    return counts, cpu


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--actions", type=int, default=2000, help="actions, default 2000")
    parser.add_argument("--postgresql", choices=["auto", "none"], default="auto")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="magdagdon-statements-") as tmp:
        databases = [("sqlite", str(Path(tmp) / "db.sqlite3"))]
        server = None
        if args.postgresql == "auto":
            from pg import PostgresServer

            server = PostgresServer(settings={})
            databases.append(("postgresql", server.create_database()))
        try:
            for kind, db in databases:
                with Store(db) as store:
                    counts, cpu = play(store, args.actions, seed=1)
                played = args.actions
                per = ", ".join(f"{k} {v / played:.2f}" for k, v in sorted(counts.items()))
                print(
                    f"{kind}: {sum(counts.values()) / played:.2f} statements per action ({per}); "
                    f"{1000 * cpu / played:.3f} ms of CPU per action in this process "
                    f"({played} actions)"
                )
        finally:
            if server is not None:
                server.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
