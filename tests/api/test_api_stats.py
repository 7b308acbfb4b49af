"""Statistics: over the player's normal, daily and practice games of one
difficulty, checked against the engine's own final states; the summaries they read are written
when a game ends, and the migration that made them fills them in for older games."""

from __future__ import annotations

import itertools
import random
import statistics
from typing import TYPE_CHECKING, Any

from daily_helpers import Clock
from sqlalchemy import delete, text

from api_helpers import random_action
from magdagdon.bots.strength import COMPUTER_MEAN
from magdagdon.engine import Difficulty
from magdagdon.services import games
from magdagdon.store import GameMode, GameRecord, Store
from magdagdon.store.migrate import head
from magdagdon.store.tables import game_results
from storage_helpers import back_to_0007

if TYPE_CHECKING:
    from pathlib import Path

    import pytest
    from fastapi.testclient import TestClient


def play_random(store: Store, player: str, game: GameRecord, rng: random.Random) -> GameRecord:
    state = game.state
    while not state.is_over:
        action = random_action(state, rng)
        game = games.play(store, player, game.id, action)
        state = game.state
    return game


def fill(store: Store, player: str, rng: random.Random) -> list[GameRecord]:
    """The player's games: finished ones of every mode, one abandoned, one under way, others
    of another difficulty. Answer the finished PEACEFUL games that Statistics cover."""
    covered = []
    plan = [
        (GameMode.NORMAL, None),
        (GameMode.NORMAL, None),
        (GameMode.DAILY, "2026-12-01"),
        (GameMode.PRACTICE, "2026-12-01"),
        (GameMode.NORMAL, None),
    ]
    for mode, day in plan:
        game = games.start(store, player, Difficulty.PEACEFUL, mode=mode, daily_date=day)
        covered.append(play_random(store, player, game, rng))
    tutorial = games.start(store, player, Difficulty.PEACEFUL, 5, mode=GameMode.TUTORIAL)
    play_random(store, player, tutorial, rng)  # not counted
    play_random(store, player, games.start(store, player, Difficulty.SURVIVAL), rng)
    games.start(store, player, Difficulty.PEACEFUL)  # abandoned by the next one
    games.start(store, player, Difficulty.PEACEFUL)  # under way
    return covered


def expected(finished: list[GameRecord], started: int) -> dict[str, Any]:
    scores = sorted(g.state.score().total for g in finished)
    lines = [
        line.combo for g in finished for line in (*g.state.score().rows, *g.state.score().columns)
    ]
    return {
        "games": started,
        "finished": len(finished),
        "mean": round(statistics.mean(scores), 2),
        "median": float(statistics.median(scores)),
        "best": max(scores),
        "ruins_per_game": round(sum(g.state.score().ruins for g in finished) / len(finished), 2),
        "powers_per_game": round(sum(g.state.powers_used for g in finished) / len(finished), 2),
        "combos": {
            "straight": lines.count("straight"),
            "four_of_a_kind": lines.count("four_of_a_kind"),
            "two_pairs": lines.count("two_pairs"),
        },
        "computer_mean": COMPUTER_MEAN[Difficulty.PEACEFUL],
    }


def read_stats(client: TestClient, difficulty: str = "peaceful") -> dict[str, Any]:
    response = client.get("/api/stats", params={"difficulty": difficulty})
    assert response.status_code == 200, response.text
    data: dict[str, Any] = response.json()
    return data


def token_of(client: TestClient) -> str:
    """The client's player's token (a settings change makes the player when it has none)."""
    client.put("/api/player", json={"language": "fil"})
    return client.cookies["magdagdon_player"]


def test_statistics_are_the_engines_figures_over_the_covered_games(
    client: TestClient, other_client: TestClient, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock = Clock(tmp_path, monkeypatch, "2026-12-01")  # the daily attempts end on their day
    store: Store = client.app.state.store  # type: ignore[attr-defined]
    finished = fill(store, token_of(client), random.Random(5))
    fill(store, token_of(other_client), random.Random(6))  # another player's: not counted
    clock.set("2026-12-02")
    found = read_stats(client)
    assert {key: found[key] for key in expected(finished, 7)} == expected(finished, 7)
    assert found["difficulty"] == "peaceful"
    best = max(finished, key=lambda g: g.state.score().total)
    assert found["best_game_id"] in {
        g.id for g in finished if g.state.score().total == best.state.score().total
    }
    assert found["streak"] == {"current": 1, "best": 1}  # yesterday's ranked attempt
    histogram = found["histogram"]
    assert sum(b["count"] for b in histogram) == len(finished)
    assert histogram[-1] == {"from": 500, "to": 549, "count": histogram[-1]["count"]}
    assert all(b["to"] - b["from"] == 49 for b in histogram)
    assert all(a["to"] + 1 == b["from"] for a, b in itertools.pairwise(histogram))
    for game in finished:
        score = game.state.score().total
        (bin_,) = [b for b in histogram if b["from"] <= score <= b["to"]]
        assert bin_["count"] >= 1
    assert histogram[0]["from"] == min(0, min(g.state.score().total for g in finished) // 50 * 50)


def test_statistics_of_no_game(client: TestClient) -> None:
    found = read_stats(client, "nightmare")
    assert found["games"] == found["finished"] == 0
    assert found["mean"] is found["median"] is found["best"] is found["best_game_id"] is None
    assert found["ruins_per_game"] is found["powers_per_game"] is None
    assert found["combos"] == {"straight": 0, "four_of_a_kind": 0, "two_pairs": 0}
    assert [b["count"] for b in found["histogram"]] == [0] * 11
    assert found["computer_mean"] == 229.0
    assert client.get("/api/stats", params={"difficulty": "easy"}).status_code == 422
    assert client.get("/api/stats").status_code == 422


def test_the_migration_fills_in_the_games_finished_before_it(
    db_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    Clock(tmp_path, monkeypatch, "2026-12-01")  # the daily attempt ends on its day
    with Store(db_url) as store:
        player = store.new_player().token
        finished = fill(store, player, random.Random(7))
        with store.engine.connect() as conn:
            written = conn.execute(game_results.select().order_by("game_id")).all()
        # back to revision 0004, with the games kept: as a database of the MAGDAGDON before
        with store.write() as rows:
            back_to_0007(rows.conn)
            rows.conn.execute(delete(game_results))
            rows.conn.execute(text("DROP TABLE game_results"))
            rows.conn.execute(text("ALTER TABLE games DROP COLUMN imported"))  # rev 0006's
            rows.conn.execute(text("DROP TABLE rate_counters"))  # rev 0007's
            rows.conn.execute(text("UPDATE alembic_version SET version_num = '0004'"))
    with Store(db_url) as store:
        assert store.revision == head()
        with store.engine.connect() as conn:
            assert conn.execute(game_results.select().order_by("game_id")).all() == written
        assert len(written) == len(finished) + 2  # the tutorial and the SURVIVAL game too
