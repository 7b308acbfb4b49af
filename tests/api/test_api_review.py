"""``GET /api/games/{id}/review`` (docs/api.md; docs/rules.md "Modes and records" (Review)): 409
before the end, 404 for
another player's game, 202 with the progress while a background job computes it, then 200 with
the review, whose values are the hint's for the same states; a stale or failed job starts again.
"""

from __future__ import annotations

import sqlite3
import time
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any

import psycopg
import pytest

import compute_jobs
from api_helpers import post_action, whole_game
from magdagdon import clock
from magdagdon.bots.review import EXACT_FROM, REVIEW_FORMAT, mean_after_choice
from magdagdon.bots.value import Values, unstaged
from magdagdon.engine import (
    Action,
    Difficulty,
    GameState,
    Phase,
    Reroll,
    Ruin,
    Stage,
    Unstage,
    action_from_json,
    action_to_json,
)
from magdagdon.services import reviews
from magdagdon.services.retried_writes import KEPT_WRITES
from plans import plain_turn
from storage_helpers import until
from waits import EVENTUALLY

if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path

    from fastapi.testclient import TestClient

    from magdagdon.store import Store
    from pg import PostgresServer


def _new(client: TestClient, difficulty: str, seed: int) -> str:
    response = client.post("/api/games", json={"difficulty": difficulty, "seed": seed})
    assert response.status_code == 201
    game_id: str = response.json()["id"]
    return game_id


def _finished(client: TestClient, difficulty: str, seed: int) -> str:
    """A game played to the end with plain turns (no Powers)."""
    game_id = _new(client, difficulty, seed)
    for action in whole_game(GameState.new(Difficulty(difficulty), seed)):
        post_action(client, game_id, action_to_json(action))
    return game_id


def _done(client: TestClient, game_id: str, limit: float = EVENTUALLY) -> dict[str, Any]:
    """Poll the review until it is done; every answer before is a 202 with its progress."""
    deadline = time.monotonic() + limit
    last = -1.0
    while time.monotonic() < deadline:
        response = client.get(f"/api/games/{game_id}/review")
        if response.status_code == 200:
            body: dict[str, Any] = response.json()
            assert body["status"] == "done"
            return body
        assert response.status_code == 202, response.text
        pending = response.json()
        assert set(pending) == {"status", "progress"}
        assert pending["status"] == "pending"
        assert last <= pending["progress"] <= 1
        last = pending["progress"]
        time.sleep(0.05)
    raise AssertionError("the review took too long")


def test_a_review_follows_the_hints_values(client: TestClient) -> None:
    """A game that follows the hint, action by action, on even turns and plays plain turns on
    odd ones: each step's ``before`` is the hint's ``expected_value`` at that state, asked while
    playing (at KUMPIRMAHIN with the dice staged, too), but for a ROLL after a choice far from
    the computer's."""
    game_id = _new(client, "nightmare", 8)
    state = GameState.new(Difficulty.NIGHTMARE, 8)
    told: list[float] = []
    at: list[GameState] = []
    while not state.is_over:
        hint = client.get(f"/api/games/{game_id}/hint").json()
        if state.phase is Phase.ROLL or state.turn % 2 == 0:
            actions: list[Action] = [action_from_json(hint["action"])]
        else:
            actions = plain_turn(state)
        if not isinstance(actions[0], Stage) or len(actions) > 1:
            told.append(hint["expected_value"])  # a step starts here
            at.append(state)
        for action in actions:
            state = state.apply(action)
            post_action(client, game_id, action_to_json(action))
        if not state.is_over:
            assert client.get(f"/api/games/{game_id}/review").status_code == 409
    review = _done(client, game_id)
    steps = review["steps"]
    assert len(steps) == len(told)
    means = deeper = 0
    values = Values()
    for i, (step, value) in enumerate(zip(steps, told, strict=True)):
        # a ROLL after a choice EXACT_FROM or more from the computer's by the hint's values starts
        # at the exact mean of V over its outcomes (tests/bots/test_review_luck.py), and that
        # choice at the computer's valued alike (tests/bots/test_review.py)
        if step["type"] == "roll" and i and abs(told[i - 1] - value) >= EXACT_FROM:
            means += 1
            continue
        if i + 1 < len(told) and step["kind"] == "decision" and step["before"] != value:
            assert abs(told[i + 1] - value) >= EXACT_FROM, (i, step)
            position = unstaged(at[i])
            valued = mean_after_choice(values, position, values.advice(position))
            assert step["before"] == round(valued, 2), (i, step)
            deeper += 1
            continue
        assert step["before"] == value, (i, step)
    assert means < len(steps) // 2
    assert 0 < deeper <= means
    assert review["final"] == state.score().total
    assert abs(review["start"] + review["luck"] - review["given_up"] - review["final"]) <= 0.5
    # polled again: the stored review, at once
    again = client.get(f"/api/games/{game_id}/review")
    assert again.status_code == 200
    assert again.json() == review


def test_a_labelled_decision_carries_the_better_choice(client: TestClient) -> None:
    """Each labelled decision's ``suggested`` is the computer's choice at that position, legal
    there, and worth ``best`` (valued as the player's choice: ``review.mean_after_choice``):
    ``given_up`` = ``best`` − ``after`` is what the sentence under the
    label says it was worth (the page rounds it, js/review/step.js)."""
    game_id = _finished(client, "peaceful", 7)
    review = _done(client, game_id)
    values = Values()
    state = GameState.new(Difficulty.PEACEFUL, 7)
    steps = iter(review["steps"])
    labelled = 0
    for action in whole_game(state):
        step = None if isinstance(action, Stage | Unstage) else next(steps)
        if step is not None and step["kind"] == "decision":  # plain turns: no Power, no reroll
            assert step["best"] - step["after"] == pytest.approx(step["given_up"], abs=0.011)
            if step["label"]:
                labelled += 1
                assert step["given_up"] >= 5
                assert step["suggested"] != step["played"]
                position = unstaged(state)
                better = position
                for suggested in step["suggested"]:
                    better = better.apply(action_from_json(suggested))  # legal there
                chosen = values.advice(position)
                shown = better if chosen.placement or isinstance(chosen.action, Ruin) else None
                if shown is not None:  # a placement or a RUIN: V of where it leads, valued
                    # as the player's choice is (the exact mean over the roll after it)
                    assert round(values.expected(shown), 2) == step["best"]
        state = state.apply(action)
    assert labelled >= 3
    assert sum(review["labels"].values()) == labelled


def test_no_review_before_the_end(client: TestClient) -> None:
    game_id = _new(client, "peaceful", 3)
    for body in ({}, {"type": "roll"}):
        if body:
            post_action(client, game_id, body)
        response = client.get(f"/api/games/{game_id}/review")
        assert response.status_code == 409
        assert response.json()["error"]["code"] == "game_not_over"


def test_another_player_s_game_has_no_review(client: TestClient, other_client: TestClient) -> None:
    game_id = _finished(client, "nightmare", 2)
    for asked in (f"/api/games/{game_id}/review", "/api/games/0123456789abcdef/review"):
        response = other_client.get(asked)
        assert response.status_code == 404
        assert response.json()["error"]["code"] == "not_found"
    for odd in ("x" * 300, "%00", "..%2F..%2Fetc"):
        response = client.get(f"/api/games/{odd}/review")
        assert response.status_code == 404, odd
        assert response.json()["error"]["code"] == "not_found"


def _store(client: TestClient) -> Store:
    store: Store = client.app.state.store  # type: ignore[attr-defined]
    return store


def _at(file: Path, moment: datetime) -> None:
    file.write_text(moment.isoformat().replace("+00:00", "Z"), encoding="utf-8")


def test_a_stale_job_starts_again(
    client: TestClient, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A pending row that nothing has reported on for longer than STALE (its worker died) and
    that no job of this process computes is started again; a fresh one is left to its job."""
    game_id = _finished(client, "nightmare", 2)
    store = _store(client)
    file = tmp_path / "clock"
    moment = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
    _at(file, moment)
    monkeypatch.setenv(clock.ENV_VAR, str(file))
    with store.write() as rows:  # as a worker that died after reporting 30 %
        rows.start_review(game_id, REVIEW_FORMAT, clock.stamp())
        rows.review_progress(game_id, 0.3, clock.stamp())
    _at(file, moment + reviews.STALE - timedelta(seconds=1))
    pending = client.get(f"/api/games/{game_id}/review")
    assert (pending.status_code, pending.json()) == (202, {"status": "pending", "progress": 0.3})
    _at(file, moment + reviews.STALE + timedelta(seconds=1))
    review = _done(client, game_id)
    assert review["final"] == client.get(f"/api/games/{game_id}").json()["score"]["total"]
    with store.read() as reads:
        row = reads.review(game_id)
    assert row is not None
    assert (row.status, row.attempts, row.progress) == ("done", 2, 1.0)


def test_progress_is_shown_while_the_job_runs(
    client: TestClient, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The job runs in a compute process of its own: its reports reach the poll."""
    game_id = _finished(client, "nightmare", 2)
    gate = tmp_path / "gate"
    monkeypatch.setenv("MAGDAGDON_TEST_GATE", str(gate))
    monkeypatch.setattr(reviews, "compute", compute_jobs.gated_review)
    first = client.get(f"/api/games/{game_id}/review")
    assert (first.status_code, first.json()) == (202, {"status": "pending", "progress": 0.0})
    deadline = time.monotonic() + EVENTUALLY
    while (middle := client.get(f"/api/games/{game_id}/review").json())["progress"] == 0.0:
        assert time.monotonic() < deadline, "the job's progress never arrived"
        time.sleep(0.02)
    assert middle == {"status": "pending", "progress": 0.5}
    gate.touch()
    assert _done(client, game_id)["steps"]


def test_a_failing_review_is_tried_again_then_refused(
    client: TestClient, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    game_id = _finished(client, "nightmare", 2)
    calls = tmp_path / "calls"
    monkeypatch.setenv("MAGDAGDON_TEST_CALLS", str(calls))
    monkeypatch.setattr(reviews, "compute", compute_jobs.broken_review)
    deadline = time.monotonic() + EVENTUALLY
    while time.monotonic() < deadline:
        response = client.get(f"/api/games/{game_id}/review")
        if response.status_code == 503:
            break
        assert response.status_code == 202
        time.sleep(0.02)
    assert response.status_code == 503
    assert response.json()["error"]["code"] == "review_failed"
    assert calls.read_text().splitlines() == ["nightmare 2"] * reviews.ATTEMPTS


def test_a_review_with_powers_and_rerolls(client: TestClient) -> None:
    """PEACEFUL with BAWAS/DAGDAG and I-ROLL ULIT through the API: one chance step after each
    reroll decision, and the summary adds up."""
    game_id = _new(client, "peaceful", 2)
    state = GameState.new(Difficulty.PEACEFUL, 2)
    while not state.is_over:
        action = action_from_json(client.get(f"/api/games/{game_id}/hint").json()["action"])
        if isinstance(action, Unstage):
            raise AssertionError("a hint from a position never returns a die")
        state = state.apply(action)
        post_action(client, game_id, action_to_json(action))
    review = _done(client, game_id)
    kinds = [(s["kind"], s["type"]) for s in review["steps"]]
    for i, kind in enumerate(kinds):
        if kind == ("decision", "reroll"):
            assert kinds[i + 1] == ("chance", "reroll")
    assert ("decision", "adjust") in kinds
    played = [action_from_json(a) for s in review["steps"] if "played" in s for a in s["played"]]
    assert any(isinstance(a, Reroll) for a in played)
    assert all(s["given_up"] == 0 for s in review["steps"] if s["kind"] == "decision")
    assert abs(review["start"] + review["luck"] - review["given_up"] - review["final"]) <= 0.5


@contextmanager
def _reviews_locked(db_url: str, request: pytest.FixtureRequest) -> Iterator[None]:
    """Another program holds the lock that a write of a review needs (reads go on)."""
    if db_url.startswith("postgresql://"):
        server: PostgresServer = request.getfixturevalue("pg_server")
        other = psycopg.connect(server.conninfo(db_url.split("/")[3].split("?")[0]))
        other.execute("LOCK TABLE reviews IN EXCLUSIVE MODE")
        try:
            yield
        finally:
            other.rollback()
            other.close()
        return
    held = sqlite3.connect(db_url, isolation_level=None)
    held.execute("BEGIN IMMEDIATE")
    try:
        yield
    finally:
        held.execute("ROLLBACK")
        held.close()


def test_a_review_finished_while_the_database_refuses_it_is_stored_later(
    client: TestClient, db_url: str, request: pytest.FixtureRequest
) -> None:
    """The job ends while another program locks the database: the review is kept in the server
    and written again until the database takes it; the poll answers pending until then."""
    game_id = _finished(client, "nightmare", 2)
    store = _store(client)
    assert client.get(f"/api/games/{game_id}/review").status_code == 202  # the job starts
    kept = reviews._kept(store, game_id)
    with _reviews_locked(db_url, request):
        until(lambda: KEPT_WRITES.holds(kept), timeout=300.0)
        with store.read() as reads:
            row = reads.review(game_id)
        assert row is not None
        assert row.status == "pending"
        pending = client.get(f"/api/games/{game_id}/review")
        assert pending.status_code == 202
        assert pending.json()["status"] == "pending"
    review = _done(client, game_id, limit=300.0)
    assert review["final"] == client.get(f"/api/games/{game_id}").json()["score"]["total"]
    assert not KEPT_WRITES.holds(kept)
    with store.read() as reads:
        row = reads.review(game_id)
    assert row is not None
    assert row.status == "done"
