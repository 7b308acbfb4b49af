"""On a generated PostgreSQL database of 24k players and 20k ranked attempts today
(``scale_data.py``): the day's table, STATISTIKA, High Scores and the clean-up each read their
index (``EXPLAIN``, after ANALYZE), never a sequential scan of ``games``, ``game_results`` or
``players``, and answer what a brute-force computation over every row answers; the clean-up
removes exactly what the rules say, in batches of at most ``BATCH``."""

from __future__ import annotations

import itertools
from collections import defaultdict
from dataclasses import dataclass
from datetime import UTC, datetime, time, timedelta
from typing import TYPE_CHECKING, Any

import pytest
from sqlalchemy import select

from magdagdon import clock
from magdagdon.engine import Difficulty
from magdagdon.services import daily, players
from magdagdon.store import Store
from magdagdon.store import cleanup as store_cleanup
from magdagdon.store import daily as store_daily
from magdagdon.store import results as store_results
from magdagdon.store import statements as sql
from magdagdon.store.tables import actions, game_results, games, highscores
from magdagdon.store.tables import players as players_table
from scale_data import Shape, generate

if TYPE_CHECKING:
    from collections.abc import Iterator

    from sqlalchemy import Connection

    from pg import PostgresServer

SHAPE = Shape(players=24_000, attempts=20_000)
DAY = SHAPE.day.isoformat()
BIG_TABLES = ("games", "game_results", "players")
# the clean-up's cutoff on the generated day: untouched for 30 days
CUTOFF = clock.stamp(datetime.combine(SHAPE.day, time(), UTC) - timedelta(days=30))


@dataclass
class Everything:
    """Every row of the tables the queries read, read plainly."""

    players: dict[str, dict[str, Any]]
    games: dict[str, dict[str, Any]]
    results: dict[str, dict[str, Any]]
    highscores: list[dict[str, Any]]
    logged: set[str]  # games with an action log


def read_all(conn: Connection) -> Everything:
    def rows(table: Any) -> list[dict[str, Any]]:
        return [dict(row._mapping) for row in conn.execute(select(table))]

    return Everything(
        {row["token"]: row for row in rows(players_table)},
        {row["id"]: row for row in rows(games)},
        {row["game_id"]: row for row in rows(game_results)},
        rows(highscores),
        set(conn.execute(select(actions.c.game_id).distinct()).scalars()),
    )


@pytest.fixture(scope="module")
def generated(pg_server: PostgresServer) -> Iterator[str]:
    url = pg_server.create_database()
    with Store(url) as store:
        generate(store, SHAPE)
    yield url
    pg_server.drop_database(url)


@pytest.fixture
def store(generated: str) -> Iterator[Store]:
    with Store(generated) as opened:
        yield opened


@pytest.fixture
def everything(store: Store) -> Everything:
    with store.engine.connect() as conn:
        return read_all(conn)


@pytest.fixture
def today(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    file = tmp_path / "clock"
    file.write_text(f"{DAY}T12:00:00.000Z")
    monkeypatch.setenv(clock.ENV_VAR, str(file))


def plan(store: Store, statement: Any, values: dict[str, Any]) -> str:
    """PostgreSQL's plan of ``statement`` with ``values``."""
    with store.engine.connect() as conn:
        state = statement.compile(dialect=conn.dialect).construct_expanded_state(values)
        found = conn.exec_driver_sql(f"EXPLAIN {state.statement}", state.parameters)
        return "\n".join(str(row[0]) for row in found)


def assert_indexed(found: str, index: str) -> None:
    assert index in found, found
    for table in BIG_TABLES:
        assert f"Seq Scan on {table}" not in found, found


def brute_table(all_: Everything, difficulty: Difficulty) -> list[dict[str, Any]]:
    """The day's table by the rules, over every row: ranked attempts of the day played here."""
    ranked = [
        (result, all_.games[game_id])
        for game_id, result in all_.results.items()
        if all_.games[game_id]["mode"] == "daily"
        and all_.games[game_id]["status"] == "finished"
        and not all_.games[game_id]["imported"]
        and all_.games[game_id]["daily_date"] == DAY
        and all_.games[game_id]["difficulty"] == difficulty.value
    ]
    ranked.sort(key=lambda pair: (-pair[0]["score"], pair[1]["finished_at"], pair[1]["id"]))
    return [
        {
            "rank": rank,
            "tag": players.player_tag(game["player"]),
            "score": result["score"],
            "turns": result["turns"],
            "hints": game["hints_used"],
            "game_id": game["id"],
            "player": game["player"],
        }
        for rank, (result, game) in enumerate(ranked, 1)
    ]


def shown(entry: daily.TableEntry) -> tuple[int, str, int, int, int]:
    return entry.rank, entry.tag, entry.score, entry.turns, entry.hints


def expected(row: dict[str, Any]) -> tuple[int, str, int, int, int]:
    return row["rank"], row["tag"], row["score"], row["turns"], row["hints"]


@pytest.mark.usefixtures("today")
def test_the_days_table_reads_its_index_and_equals_brute_force(
    store: Store, everything: Everything
) -> None:
    for difficulty in Difficulty:
        truth = brute_table(everything, difficulty)
        assert len(truth) > 6000
        with store.read() as reads:  # the day's scores, counted again after the bulk rows
            assert reads.day_attempts(DAY, difficulty) == len(truth)
        # a player far down the table sees the top 100 and their own row below
        far = truth[len(truth) // 2]
        entries = daily.table(store, far["player"], difficulty)
        assert [shown(e) for e in entries] == [expected(r) for r in (*truth[:100], far)]
        assert entries[-1].game_id == far["game_id"]
        assert all(e.game_id is None for e in entries[:-1])
    # every page of one difficulty, by keyset, is the whole table in order
    truth = brute_table(everything, Difficulty.NIGHTMARE)
    paged: list[daily.TableEntry] = []
    after = None
    while True:
        page = daily.table(store, "nobody", Difficulty.NIGHTMARE, after=after)
        if not page:
            break
        paged += page
        after = page[-1].after
    assert [shown(e) for e in paged] == [expected(r) for r in truth]
    assert any(a.score == b.score and a.rank + 1 == b.rank for a, b in itertools.pairwise(paged))


def test_the_days_table_plans_use_its_index(store: Store, everything: Everything) -> None:
    truth = brute_table(everything, Difficulty.SURVIVAL)
    middle = everything.results[truth[len(truth) // 2]["game_id"]]
    of_day = {"day": DAY, "difficulty": "survival", "limit": 100}
    at = {"score": middle["score"], "finished_at": middle["finished_at"]}
    index = "game_results_by_day"
    assert_indexed(plan(store, store_daily.TABLE, of_day), index)
    assert_indexed(plan(store, store_daily.TABLE_FROM, of_day | at), index)
    mine = of_day | {"player": middle["player"]}
    assert_indexed(plan(store, store_daily.MY_ATTEMPT, mine), "game_results_by_player")
    counted = of_day | at | {"game_id": middle["game_id"]}
    assert_indexed(plan(store, store_daily.AHEAD, counted), index)


def test_statistics_and_high_scores_read_their_indexes_and_equal_brute_force(
    store: Store, everything: Everything
) -> None:
    modes = ("normal", "daily", "practice")
    by_player: dict[tuple[str, str], list[dict[str, Any]]] = defaultdict(list)
    for result in everything.results.values():
        by_player[result["player"], result["difficulty"]].append(result)
    for token in ("scale-000000000", "scale-000004242", "scale-000019999"):
        for difficulty in Difficulty:
            mine = [r for r in by_player[token, difficulty.value] if r["mode"] in modes]
            with store.read() as reads:
                assert reads.scores(token, difficulty, modes) == sorted(r["score"] for r in mine)
                assert reads.totals(token, difficulty, modes)[0] == sum(r["ruins"] for r in mine)
                started = sum(
                    1
                    for g in everything.games.values()
                    if g["player"] == token
                    and g["difficulty"] == difficulty.value
                    and g["mode"] in modes
                )
                assert reads.started(token, difficulty, modes) == started
            entries = sorted(
                (h for h in everything.highscores if h["player"] == token),
                key=lambda h: (-h["score"], h["id"]),
            )
            entries = [h for h in entries if h["difficulty"] == difficulty.value]
            found = store.highscores(token, difficulty)
            assert [(h.score, h.game_id) for h in found] == [
                (h["score"], h["game_id"]) for h in entries
            ]
            for rank, entry in enumerate(entries, 1):
                assert store.rank(entry["game_id"]) == rank
    player = {"player": "scale-000004242", "difficulty": "peaceful", "modes": list(modes)}
    for statement in (store_results.SCORES, store_results.TOTALS):
        assert_indexed(plan(store, statement, player), "game_results_by_player")
    best = player | {"score": 0}
    assert_indexed(plan(store, store_results.BEST_GAME, best), "game_results_by_player")
    assert_indexed(plan(store, store_results.STARTED, player), "games_by_player_status")
    ranked = {"player": "scale-000004242", "difficulty": "peaceful", "limit": 100}
    assert_indexed(plan(store, sql.HIGH_SCORES, ranked), "highscores_by_rank")
    assert_indexed(plan(store, sql.RANKED_GAMES, ranked), "highscores_by_rank")
    assert_indexed(plan(store, sql.RANK, {"game_id": "scale-000004242-n0"}), "highscores")


def test_the_clean_up_plans_use_their_indexes(store: Store) -> None:
    page = {"status": "abandoned", "cutoff": CUTOFF, "created": "", "id": ""}
    assert_indexed(plan(store, store_cleanup.GAME_PAGE, page), "games_by_status_created")
    some = ["scale-000000001-s", "scale-000000003-s"]
    stale = {"ids": some, "cutoff": CUTOFF}
    assert_indexed(plan(store, store_cleanup.STALE_AMONG, stale), "games_pkey")
    new = {"cutoff": CUTOFF, "created": "", "token": ""}
    assert_indexed(plan(store, store_cleanup.PLAYER_PAGE, new), "players_by_created")
    tokens = {"tokens": ["scale-000000001", "scale-000000003"], "cutoff": CUTOFF}
    assert_indexed(plan(store, store_cleanup.EMPTY_AMONG, tokens), "players_pkey")


def test_the_clean_up_removes_exactly_what_the_rules_say_in_batches(
    pg_server: PostgresServer, generated: str
) -> None:
    # a copy of the generated database (a file copy): the other tests keep theirs
    name = generated.split("?")[0].rsplit("/", 1)[-1]
    copy = f"{name}_cleanup"
    pg_server._admin(f'CREATE DATABASE "{copy}" TEMPLATE "{name}" STRATEGY FILE_COPY')
    url = generated.replace(f"/{name}?", f"/{copy}?")
    assert url != generated
    try:
        with Store(url) as store:
            with store.engine.connect() as conn:
                before = read_all(conn)
            # the rules, over every row
            named = {r["game_id"] for r in before.results.values()} | {
                h["game_id"] for h in before.highscores
            }
            stale = {
                game_id
                for game_id, game in before.games.items()
                if game["status"] in ("playing", "abandoned")
                and game["created_at"] < CUTOFF
                and game["updated_at"] < CUTOFF
                and game_id not in named
            }
            owners = defaultdict(set)
            for game_id, game in before.games.items():
                if game_id not in stale:
                    owners[game["player"]].add(game_id)
            holders = {h["player"] for h in before.highscores} | {
                r["player"] for r in before.results.values()
            }
            empty = {
                token
                for token, player in before.players.items()
                if player["created_at"] < CUTOFF and not owners[token] and token not in holders
            }
            assert len(stale) > 500
            assert len(empty) > 200
            steps = list(store_cleanup.batches(store, CUTOFF))
            assert all(step.games <= store_cleanup.BATCH for step in steps)
            assert all(step.players <= store_cleanup.BATCH for step in steps)
            total = sum(steps, store_cleanup.NOTHING)
            assert total == store_cleanup.Removed(len(stale), len(empty))
            with store.engine.connect() as conn:
                after = read_all(conn)
            assert set(after.games) == set(before.games) - stale
            assert set(after.players) == set(before.players) - empty
            assert not (after.logged & stale)
            assert after.logged == before.logged - stale
            # nothing left: a second run reads a page or two and removes nothing
            again = list(store_cleanup.batches(store, CUTOFF))
            assert sum(again, store_cleanup.NOTHING) == store_cleanup.NOTHING
            assert len(again) <= 2
    finally:
        pg_server._admin(f'DROP DATABASE IF EXISTS "{copy}" WITH (FORCE)')
