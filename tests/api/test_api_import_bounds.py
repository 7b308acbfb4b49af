"""An import that is out of every bound a game played on a server keeps is refused (422 naming
the game and the field) and changes nothing: no player made, no game; imported daily attempts
keep their history (High Scores, Statistics) but never rank on a day's table nor make a streak
(docs/rules.md "Modes and records" (Where a rank comes from))."""

from __future__ import annotations

import copy
import threading
import time
from typing import TYPE_CHECKING, Any

import pytest
from daily_helpers import Clock, play_out, start_daily
from sqlalchemy import func, select

import compute_jobs as jobs
from import_helpers import document, game_entry
from loop import run_apart
from magdagdon.engine import (
    Action,
    Difficulty,
    GameState,
    Roll,
    Stage,
    Unstage,
    action_to_json,
)
from magdagdon.services.import_checks import MAX_ACTIONS, MAX_GAMES
from magdagdon.store.tables import games, players
from storage_helpers import held_by_another_program
from waits import EVENTUALLY

if TYPE_CHECKING:
    from pathlib import Path

    from fastapi.testclient import TestClient

    from magdagdon.store import Store


@pytest.fixture
def clock(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Clock:
    return Clock(tmp_path, monkeypatch, "2026-12-08")


def counts(client: TestClient) -> tuple[int, int]:
    store: Store = client.app.state.store  # type: ignore[attr-defined]
    with store.engine.connect() as conn:
        made = conn.execute(select(func.count()).select_from(players)).scalar_one()
        kept = conn.execute(select(func.count()).select_from(games)).scalar_one()
    return int(made), int(kept)


def unstage_loop(pairs: int) -> list[dict[str, Any]]:
    """A legal log: I-ROLL, then one die staged and un-staged ``pairs`` times."""
    state = GameState.new(Difficulty.PEACEFUL, 7).apply(Roll())
    stage = next(a for a in state.legal_actions() if isinstance(a, Stage))
    log: list[Action] = [Roll()]
    for _ in range(pairs):
        log += [stage, Unstage(stage.die)]
    return [action_to_json(action) for action in log]


def out_of_bounds() -> list[tuple[str, dict[str, Any], str]]:
    """(what, file, the field the refusal names)."""
    cases: list[tuple[str, dict[str, Any], str]] = []

    def case(what: str, field: str, **changes: Any) -> None:
        cases.append((what, document([game_entry(**changes)]), field))

    case("year 1, +14:00", "created_at", created_at="0001-01-01T00:00:00+14:00")
    case("year 9999, -14:00", "finished_at", finished_at="9999-12-31T23:59:59-14:00")
    case("before MAGDAGDON", "created_at", created_at="1999-12-31T23:59:59Z")
    case("in the future", "finished_at", finished_at="2026-12-08T12:00:01Z")
    case(
        "finished before it began",
        "finished_at",
        created_at="2026-12-03T08:00:00Z",
        finished_at="2026-12-03T07:59:59Z",
    )
    case(
        "a daily attempt begun before its day",
        "created_at",
        mode="daily",
        day="2026-12-05",
        created_at="2026-12-04T23:59:59Z",
        finished_at="2026-12-05T00:10:00Z",
    )
    case("hints past the game's decisions", "hints_used", hints_used=2147483647)
    long_game = game_entry()
    long_game.update(actions=unstage_loop(MAX_ACTIONS), status="playing", score=None)
    long_game["finished_at"] = None
    cases.append(("a log past the longest game", document([long_game]), "actions"))
    tiny = {**game_entry(), "actions": [], "status": "playing", "score": None}
    tiny["finished_at"] = None
    many = [{**tiny, "id": f"g{index}"} for index in range(MAX_GAMES + 1)]
    cases.append(("more games than a file holds", document(many), "games"))
    return cases


@pytest.mark.usefixtures("clock")
def test_a_file_out_of_bounds_is_422_naming_the_field_and_changes_nothing(
    client: TestClient, other_client: TestClient
) -> None:
    played = client.post("/api/games", json={"difficulty": "peaceful"})
    assert played.status_code == 201  # someone is there already
    before = counts(client)
    for what, body, field in out_of_bounds():
        # without a cookie: a refused file makes no player either
        answer = other_client.post("/api/player/import", json=body)
        assert answer.status_code == 422, (what, answer.text)
        error = answer.json()["error"]
        assert (error["code"], error["field"]) == ("import_invalid", field), what
        assert field in error["message"], what
        assert "set-cookie" not in answer.headers, what
        assert counts(client) == before, what
        # with one: the player's own games stay as they were
        answer = client.post("/api/player/import", json=body)
        assert answer.status_code == 422, what
        assert counts(client) == before, what


@pytest.mark.usefixtures("clock")
def test_a_real_game_at_the_bounds_is_imported(other_client: TestClient) -> None:
    game = game_entry(
        created_at="2026-12-08T11:00:00+14:00", finished_at="2026-12-08T12:00:00.000Z"
    )
    decisions = sum(1 for action in game["actions"] if action["type"] != "roll")
    game["hints_used"] = decisions  # a hint at every decision: the most a game can count
    undone = game_entry(seed=8)
    roll, *rest = undone["actions"]
    loop = unstage_loop((MAX_ACTIONS - len(undone["actions"])) // 2)[1:]
    undone["actions"] = [roll, *loop, *rest]  # staged and un-staged up to the bound
    assert len(undone["actions"]) <= MAX_ACTIONS
    answer = other_client.post("/api/player/import", json=document([game, undone]))
    assert answer.status_code == 200, answer.text
    assert answer.json() == {"imported": 2, "skipped": 0}
    entries = other_client.get("/api/highscores", params={"difficulty": "peaceful"}).json()
    assert decisions in [entry["hints_used"] for entry in entries]
    assert {entry["date"] for entry in entries} >= {"2026-12-08T12:00:00.000Z"}


def table(client: TestClient, day: str) -> list[dict[str, Any]]:
    answer = client.get("/api/daily/table", params={"difficulty": "peaceful", "date": day})
    assert answer.status_code == 200, answer.text
    found: list[dict[str, Any]] = answer.json()
    return [{k: v for k, v in row.items() if k != "game_id"} for row in found]


def test_imported_daily_attempts_rank_nowhere_but_keep_their_history(
    clock: Clock, client: TestClient, other_client: TestClient
) -> None:
    # a player who played today's challenge here, and on 2026-12-05
    for day in ("2026-12-05", "2026-12-08"):
        clock.set(day, "09:00:00")
        play_out(client, start_daily(client, "peaceful"))
    clock.set("2026-12-08", "12:00:00")
    today_before, past_before = table(client, "2026-12-08"), table(client, "2026-12-05")
    assert len(today_before) == len(past_before) == 1
    # today's attempt "finished" in 2020 would rank first (ties go to the one that ended first)
    forged = game_entry(
        mode="daily",
        day="2026-12-08",
        created_at="2026-12-08T00:00:00Z",
        finished_at="2026-12-08T00:00:01Z",
    )
    # five back-dated attempts: a streak of five, and the first place on 5 December
    streak = [
        game_entry(
            mode="daily",
            day=f"2026-12-0{day}",
            created_at=f"2026-12-0{day}T00:00:00Z",
            finished_at=f"2026-12-0{day}T00:01:00Z",
        )
        for day in range(3, 8)
    ]
    answer = other_client.post("/api/player/import", json=document([forged, *streak]))
    assert answer.status_code == 200, answer.text
    assert answer.json()["imported"] == 6
    assert table(other_client, "2026-12-08") == today_before
    assert table(other_client, "2026-12-05") == past_before
    daily = other_client.get("/api/daily").json()
    assert daily["streak"] == {"current": 0, "best": 0}
    stats = other_client.get("/api/stats", params={"difficulty": "peaceful"}).json()
    assert stats["streak"] == {"current": 0, "best": 0}
    assert stats["finished"] == 6  # Statistics count them
    # High Scores keep every one of them, dated as they ended
    entries = other_client.get("/api/highscores", params={"difficulty": "peaceful"}).json()
    assert sorted(e["date"] for e in entries) == sorted(
        g["finished_at"].replace("Z", ".000Z") for g in [forged, *streak]
    )
    # the imported attempt is still today's attempt: another here is practice
    again = start_daily(other_client, "peaceful")
    assert again["mode"] == "practice"
    assert copy.deepcopy(table(other_client, "2026-12-08")) == today_before


@pytest.mark.usefixtures("clock")
def test_one_import_per_player_at_a_time(client: TestClient) -> None:
    assert client.post("/api/games", json={"difficulty": "peaceful"}).status_code == 201
    token = client.cookies["magdagdon_player"]
    compute = client.app.state.compute  # type: ignore[attr-defined]
    big = document([game_entry(seed=seed) for seed in range(3000)])
    answers: list[int] = []
    before = counts(client)
    first = threading.Thread(
        target=lambda: answers.append(client.post("/api/player/import", json=big).status_code)
    )
    first.start()
    while not compute.computing("import", token):  # the first is under way
        assert first.is_alive(), answers
        time.sleep(0.01)
    second = client.post("/api/player/import", json=document([game_entry(seed=9999)]))
    assert second.status_code == 429
    assert second.json()["error"]["code"] == "rate_limited"
    assert second.headers["retry-after"] == "1"
    first.join()
    assert answers == [200]
    assert counts(client)[1] == before[1] + 3000


@pytest.mark.usefixtures("clock")
def test_a_full_import_queue_answers_503_busy_and_makes_no_player(
    client: TestClient, tmp_path: Path
) -> None:
    compute = client.app.state.compute  # type: ignore[attr-defined]
    gate = tmp_path / "gate"
    holders = [
        threading.Thread(
            target=run_apart,
            args=(compute.run("import", jobs.wait_for_file, str(gate), player=f"held{n}"),),
        )
        for n in range(2)  # the one import process and its one waiting place
    ]
    for holder in holders:
        holder.start()
    try:
        while not compute.full("import"):
            time.sleep(0.01)
        before = counts(client)
        answer = client.post("/api/player/import", json=document([game_entry(seed=9999)]))
        assert answer.status_code == 503, answer.text
        assert answer.json()["error"]["code"] == "busy"
        assert answer.headers["retry-after"] == "1"
        assert "magdagdon_player" not in client.cookies
        assert counts(client) == before
    finally:
        gate.touch()
        for holder in holders:
            holder.join()
    answer = client.post("/api/player/import", json=document([game_entry(seed=9999)]))
    assert answer.status_code == 200, answer.text


@pytest.mark.usefixtures("clock")
def test_an_import_waits_out_a_database_held_a_while(
    client: TestClient, db_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    # Chunks the database refuses as busy (a lock held elsewhere; on a loaded machine a chunk
    # over the server's statement wait) are tried again smaller: the import ends whole.
    assert client.post("/api/games", json={"difficulty": "peaceful"}).status_code == 201
    before = counts(client)
    answers: list[Any] = []
    file = document([game_entry(seed=seed) for seed in range(40)])
    importing = threading.Thread(
        target=lambda: answers.append(client.post("/api/player/import", json=file))
    )
    with held_by_another_program(db_url, tables=("games",)):  # the player is still read
        importing.start()
        deadline = time.monotonic() + EVENTUALLY
        while not any("database unavailable" in r.getMessage() for r in caplog.records):
            assert importing.is_alive(), answers[0].text
            assert time.monotonic() < deadline, "no chunk was refused"
            time.sleep(0.01)
    importing.join()
    assert answers[0].status_code == 200, answers[0].text
    assert answers[0].json()["imported"] == 40
    assert counts(client)[1] == before[1] + 40
