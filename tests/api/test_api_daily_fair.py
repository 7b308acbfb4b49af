"""A provably fair daily (docs/rules.md "Modes and records", Daily challenge): a day's dice are
the server's secret until they are rolled — no answer that carries a ranked attempt tells
anything of a die not rolled yet (each is the same whatever the seed); the seed's commitment
is told from the start of the day and the seed once the day is over, matching it; every attempt
of that day then replays from it (``magdagdon daily verify``); two processes drawing a day's
seed at once get one seed, on SQLite and PostgreSQL."""

from __future__ import annotations

import dataclasses
import hashlib
import random
import threading
from datetime import date
from typing import TYPE_CHECKING, Any

import pytest
from daily_helpers import Clock, day_seed, play_out, published, start_daily, state_of

from api_helpers import post_action, random_action
from magdagdon import cli
from magdagdon.api.game_state import game_view
from magdagdon.bots import hints
from magdagdon.engine import Difficulty, GameState, action_to_json, state_from_json, state_to_json
from magdagdon.services import daily, verify
from magdagdon.store import Store
from magdagdon.store.migrate import head
from storage_helpers import back_to_0007

if TYPE_CHECKING:
    from pathlib import Path

    from fastapi.testclient import TestClient

DAY, NEXT = "2026-12-05", "2026-12-06"


@pytest.fixture
def clock(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Clock:
    return Clock(tmp_path, monkeypatch, DAY)


def with_seed(state: GameState, seed: int) -> GameState:
    """The same position in a game of another seed: the same dice rolled so far, others to
    come."""
    return state_from_json({**state_to_json(state), "seed": seed})


def blind(client: TestClient, game_id: str) -> dict[str, Any]:
    """The answer the server would give for the game were its seed another: what an answer
    may tell without telling anything of the dice to come."""
    store: Store = client.app.state.store  # type: ignore[attr-defined]
    record = store.game(game_id)
    assert record is not None
    other = (record.seed + 1) % 2**53
    return dict(game_view(dataclasses.replace(record, state=with_seed(record.state, other)), store))


def test_no_answer_about_a_ranked_attempt_tells_a_die_before_its_roll(
    clock: Clock, client: TestClient
) -> None:
    game = start_daily(client, "peaceful")
    assert game["mode"] == "daily"
    seed = day_seed(client, DAY, "peaceful")
    answers: list[str] = []
    rng = random.Random(5)
    state = state_of(client, game)
    hinted = 0
    while not state.is_over:
        for path in (f"/api/games/{game['id']}", f"/api/games/{game['id']}/log"):
            response = client.get(path)
            assert response.status_code == 200
            answers.append(response.text)
        # the state the page is shown is the same whatever dice are to come
        assert client.get(f"/api/games/{game['id']}").json() == blind(client, game["id"])
        log = client.get(f"/api/games/{game['id']}/log").json()
        assert log["seed"] is None  # the page's engine cannot roll today's dice
        if hinted < 3 and state.turn in (1, 2) and state.phase.value in ("place", "roll"):
            # the hint is the computer's expectation over the dice to come, never the dice
            answer = client.get(f"/api/games/{game['id']}/hint")
            assert answer.status_code == 200
            answers.append(answer.text)
            other = with_seed(state, (seed + 1) % 2**53)
            advised, _steps, value = hints.best(other)
            assert answer.json()["action"] == advised
            assert answer.json()["expected_value"] == value
            hinted += 1
        review = client.get(f"/api/games/{game['id']}/review")
        assert review.status_code == 409  # a review is of a whole game, once it is over
        answers.append(review.text)
        exported = client.get("/api/player/export").json()
        assert [g["id"] for g in exported["games"]] == []  # today's: not before the day is over
        answers.append(str(exported))
        action = random_action(state, rng)
        answers.append(str(post_action(client, game["id"], action_to_json(action))))
        state = state_of(client, game)
    assert hinted >= 1
    share = client.get(f"/api/games/{game['id']}/share")
    assert share.status_code == 200
    answers.append(share.text)
    overview = client.get("/api/daily")
    answers.append(overview.text)
    for text in answers:
        assert str(seed) not in text
    assert {c["seed"] for c in overview.json()["challenges"]} == {None}


def _committed(day: str, difficulty: str, seed: int) -> str:
    text = f"MAGDAGDON daily {day} {difficulty} {seed}"  # docs/rules.md, as any client makes it
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def test_the_seed_is_published_once_the_day_is_over_and_matches_the_commitment(
    clock: Clock, client: TestClient, other_client: TestClient
) -> None:
    clock.set(DAY, "00:00:00")
    told = {c["difficulty"]: c for c in client.get("/api/daily").json()["challenges"]}
    assert all(c["seed"] is None and len(c["commitment"]) == 64 for c in told.values())
    # the same commitment for every player, all day
    clock.set(DAY, "12:00:00")
    game = play_out(client, start_daily(client, "survival"), random.Random(1))
    assert published(other_client, DAY, "survival") == {**told["survival"], "status": "new"}
    clock.set(DAY, "23:59:59.999")
    assert published(client, DAY, "survival")["seed"] is None
    assert client.get(f"/api/games/{game['id']}/log").json()["seed"] is None
    clock.set(NEXT, "00:00:00")
    for difficulty, before in told.items():
        after = published(other_client, DAY, difficulty)
        assert after["commitment"] == before["commitment"]
        assert type(after["seed"]) is int
        assert _committed(DAY, difficulty, after["seed"]) == before["commitment"]
    seed = published(client, DAY, "survival")["seed"]
    assert seed == day_seed(client, DAY, "survival")
    # what the page's engine needs to replay the day, and the export, now carry it
    assert client.get(f"/api/games/{game['id']}/log").json()["seed"] == seed
    exported = client.get("/api/player/export").json()["games"]
    assert [(g["id"], g["seed"]) for g in exported] == [(game["id"], seed)]
    # and the new day has its own secret
    today = client.get("/api/daily").json()
    assert today["date"] == NEXT
    assert {c["seed"] for c in today["challenges"]} == {None}
    assert {c["commitment"] for c in today["challenges"]}.isdisjoint(
        c["commitment"] for c in told.values()
    )


def test_every_attempt_of_a_past_day_replays_from_the_published_seed(
    clock: Clock,
    app: Any,
    client: TestClient,
    other_client: TestClient,
    db_url: str,
    capsys: pytest.CaptureFixture[str],
) -> None:
    games = []
    for n, player in enumerate((client, other_client)):
        games.append(play_out(player, start_daily(player), random.Random(n)))  # ranked
        games.append(play_out(player, start_daily(player), random.Random(10 + n)))  # practice
    unfinished = start_daily(client)
    post_action(client, unfinished["id"], {"type": "roll"})
    assert [g["mode"] for g in games] == ["daily", "practice", "daily", "practice"]
    args = ["daily", "verify", "--date", DAY, "--difficulty", "peaceful", "--db", db_url]
    assert cli.main(args) == 1  # not before the day is over: the seed is a secret
    assert "not over" in capsys.readouterr().err
    clock.set(NEXT)
    assert cli.main(args) == 0
    out = capsys.readouterr().out
    seed = day_seed(client, DAY, "peaceful")
    assert f"commitment {_committed(DAY, 'peaceful', seed)}, seed {seed}" in out
    assert "5 attempts replayed, 0 mismatches" in out
    # what anyone can check with the server's answers and a player's own export
    answer = client.get("/api/daily", params={"date": DAY}).json()
    exported = client.get("/api/player/export").json()["games"]
    found = verify.verify_published(answer, date.fromisoformat(DAY), Difficulty.PEACEFUL, exported)
    assert (found.ok, found.checked, found.seed) == (True, 3, seed)
    # a seed changed after the day (or a game changed after it was played) is caught
    store: Store = app.state.store
    with store.write() as rows:
        rows.conn.exec_driver_sql(
            "UPDATE daily_seeds SET seed = seed + 1 WHERE day = '2026-12-05' "
            "AND difficulty = 'peaceful'"
        )
    assert cli.main(args) == 1
    assert capsys.readouterr().out.count("MISMATCH") == 5
    lied = {**answer, "challenges": [{**c, "seed": c["seed"] + 1} for c in answer["challenges"]]}
    assert not verify.verify_published(lied, date.fromisoformat(DAY), Difficulty.PEACEFUL).ok


def test_two_processes_drawing_the_days_seed_at_once_get_one_seed(
    clock: Clock, db_url: str
) -> None:
    days = [date(2026, 12, 1 + n) for n in range(4)]
    with Store(db_url) as one, Store(db_url) as two:
        found: dict[int, list[dict[Difficulty, int]]] = {0: [], 1: []}
        start = threading.Barrier(2)

        def draw(store: Store, index: int) -> None:
            for day in days:
                start.wait()
                found[index].append(daily.day_seeds(store, day))

        threads = [threading.Thread(target=draw, args=(s, i)) for i, s in enumerate((one, two))]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert found[0] == found[1]
        assert len({seed for seeds in found[0] for seed in seeds.values()}) == 4 * len(Difficulty)
        with one.read() as reads:
            kept = [reads.day_seed(day.isoformat(), "nightmare") for day in days]
        assert kept == [seeds[Difficulty.NIGHTMARE] for seeds in found[0]]


def test_the_migration_keeps_the_seed_of_the_days_already_played(clock: Clock, db_url: str) -> None:
    with Store(db_url) as store:
        player = store.new_player().token
        game = daily.start(store, player, Difficulty.SURVIVAL)
        # back to revision 0007, with the game kept: a database of the MAGDAGDON before
        with store.write() as rows:
            back_to_0007(rows.conn)
    with Store(db_url) as store:
        assert store.revision == head()
        with store.read() as reads:
            assert reads.day_seed(DAY, "survival") == game.seed  # its games still replay
            assert reads.day_seed(DAY, "nightmare") is None  # drawn when first needed
        assert daily.day_seeds(store, date.fromisoformat(DAY))[Difficulty.SURVIVAL] == game.seed


def test_an_attempt_finished_after_its_day_ranks_nowhere(
    clock: Clock, client: TestClient, other_client: TestClient
) -> None:
    # one attempt finished on its day, one begun that day and finished the next, when the
    # day's seed is published and every die to come can be known
    on_time = play_out(other_client, start_daily(other_client, "peaceful"), random.Random(3))
    late = start_daily(client, "peaceful")
    post_action(client, late["id"], {"type": "roll"})
    clock.set(NEXT, "00:00:01")
    assert client.get(f"/api/games/{late['id']}/log").json()["seed"] is not None
    finished = play_out(client, late, random.Random(4))
    assert finished["mode"] == "daily"
    table = client.get(f"/api/daily/table?difficulty=peaceful&date={DAY}").json()
    assert [row["score"] for row in table] == [on_time["score"]["total"]]
    assert late["id"] not in {row.get("game_id") for row in table}
    assert client.get("/api/daily").json()["streak"]["current"] == 0
    assert other_client.get("/api/daily").json()["streak"]["current"] == 1
