"""The fair daily's costs: ``GET /api/daily`` (it reads the day's seeds, and draws them on the
first request of a day), and ``magdagdon daily verify`` replaying a past day's attempts.

In-process (TestClient) on a temporary SQLite file, with the clock file moved by the script:
    (a) ``GET /api/daily``: the first request of a day (seeds drawn and written) and the median
        and p95 of ``--repeat`` more (seeds read);
    (b) ``--attempts`` players each play the day's PEACEFUL challenge to its end through the API
        (a quick random player), then, the day over, ``services.verify.verify_store`` replays
        every attempt: its time, and per attempt.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics as pystats
import tempfile
import time
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING

from fastapi.testclient import TestClient

from magdagdon import clock
from magdagdon.api.app import create_app
from magdagdon.engine import Confirm, Difficulty, Roll, Ruin, Stage, action_to_json
from magdagdon.services import verify
from magdagdon.settings import Settings

if TYPE_CHECKING:
    from magdagdon.store import Store

DAY, NEXT = "2026-12-05", "2026-12-06"


def choose(state: object, rng: random.Random) -> object:
    """A quick random player: KUMPIRMAHIN when it may, else a random stage, else what is left."""
    legal = state.legal_actions()  # type: ignore[attr-defined]
    for kind in (Roll, Confirm):
        found = [a for a in legal if isinstance(a, kind)]
        if found:
            return found[0]
    stages = [a for a in legal if isinstance(a, Stage)]
    if stages:
        return rng.choice(stages)
    ruins = [a for a in legal if isinstance(a, Ruin)]
    return rng.choice(ruins or list(legal))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=200)
    parser.add_argument("--attempts", type=int, default=40)
    args = parser.parse_args()
    rng = random.Random(1)
    with tempfile.TemporaryDirectory() as tmp:
        clock_file = Path(tmp) / "clock"
        clock_file.write_text(f"{DAY}T12:00:00Z", encoding="utf-8")
        os.environ[clock.ENV_VAR] = str(clock_file)
        db = str(Path(tmp) / "bench.sqlite3")
        app = create_app(db, settings=Settings(rate_limits=False))
        with TestClient(app) as client:
            started = time.perf_counter()
            assert client.get("/api/daily").status_code == 200
            first = time.perf_counter() - started
            times = []
            for _ in range(args.repeat):
                started = time.perf_counter()
                client.get("/api/daily")
                times.append(time.perf_counter() - started)
            times.sort()
            p95 = times[int(len(times) * 0.95)]
            print(
                f"GET /api/daily: first of the day {first * 1000:.1f} ms; then median "
                f"{pystats.median(times) * 1000:.2f} ms, p95 {p95 * 1000:.2f} ms"
            )
            store: Store = app.state.store
            for _ in range(args.attempts):
                player = TestClient(app)
                game = player.post("/api/daily", json={"difficulty": "peaceful"}).json()
                record = store.game(game["id"])
                assert record is not None
                state = record.state
                while not state.is_over:
                    action = choose(state, rng)
                    body = {**action_to_json(action), "version": game["version"]}  # type: ignore[arg-type]
                    game = player.post(f"/api/games/{game['id']}/actions", json=body).json()
                    state = state.apply(action)  # type: ignore[arg-type]
            clock_file.write_text(f"{NEXT}T00:00:01Z", encoding="utf-8")
            started = time.perf_counter()
            verdict = verify.verify_store(store, date.fromisoformat(DAY), Difficulty.PEACEFUL)
            spent = time.perf_counter() - started
            assert verdict.ok, verdict.wrong
            print(
                f"daily verify: {verdict.checked} attempts replayed in {spent * 1000:.0f} ms "
                f"({spent / verdict.checked * 1000:.1f} ms each), 0 mismatches"
            )
    print(f"load average: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
