"""The day's scores (``day_scores``) against brute force, on SQLite and PostgreSQL: after random
attempts written through the store's own path (ranked ones, practices, imported ones, ordinary
games, attempts finished after their day, many ties of score and some of the same millisecond),
after players are forgotten and after the clean-up, the counts equal a GROUP BY of the ranked
attempts and the rules' own count over the games; every attempt's rank and place among its
ties equal those of the table sorted by brute force, and the keyset pages are the table."""

from __future__ import annotations

import random
from collections import Counter
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any

import pytest
from sqlalchemy import func, select, text

from magdagdon.engine import Difficulty, GameState
from magdagdon.services import moderation, players
from magdagdon.store import Store, migrate
from magdagdon.store import cleanup as store_cleanup
from magdagdon.store.daily import Position, TableRow
from magdagdon.store.records import GameMode, GameRecord, GameStatus, Player
from magdagdon.store.results import GameResult
from magdagdon.store.tables import day_scores, game_results, games

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

DAY = "2026-12-03"
MIDNIGHT = datetime(2026, 12, 3, tzinfo=UTC)
SCORES = (40, 55, 55, 61, 70, 70, 70, 88)  # few scores: many ties
PLAYERS = 90
ATTEMPTS = 240


def stamp(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"


@pytest.fixture(params=["sqlite", "postgresql"])
def store(request: pytest.FixtureRequest, make_db: Callable[..., str]) -> Iterator[Store]:
    with Store(make_db(request.param)) as opened:
        yield opened


def play_day(store: Store, rng: random.Random) -> None:
    """Random games of the day, each written as a finished game is (``Rows.insert_result``),
    a few at a time in one transaction."""
    tokens = [f"day-player-{n:03d}" for n in range(PLAYERS)]
    with store.write() as rows:
        for token in tokens:
            rows.insert_player(Player(token, "en"), stamp(MIDNIGHT - timedelta(days=60)))
    ends = [MIDNIGHT + timedelta(milliseconds=rng.randrange(0, 50 * ATTEMPTS)) for _ in range(40)]
    for start in range(0, ATTEMPTS, 7):
        with store.write() as rows:
            for number in range(start, min(start + 7, ATTEMPTS)):
                difficulty = rng.choice((Difficulty.PEACEFUL, Difficulty.SURVIVAL))
                mode = rng.choice((GameMode.DAILY,) * 6 + (GameMode.PRACTICE, GameMode.NORMAL))
                end = rng.choice(ends)  # often the same millisecond as another
                if rng.random() < 0.08:  # finished after its day: ranks nowhere
                    end += timedelta(days=1)
                game = GameRecord(
                    id=f"day-game-{number:04d}",
                    player=rng.choice(tokens),
                    difficulty=difficulty,
                    seed=number,
                    state=GameState.new(difficulty, number),
                    version=1,
                    hints_used=number % 3,
                    status=GameStatus.FINISHED,
                    created_at=stamp(MIDNIGHT),
                    updated_at=stamp(end),
                    finished_at=stamp(end),
                    mode=mode,
                    daily_date=None if mode is GameMode.NORMAL else DAY,
                )
                rows.insert_game(game, imported=rng.random() < 0.08)
                result = GameResult(rng.choice(SCORES), 0, 0, 20, 0, 0, 0)
                rows.insert_result(game, result)
    # a stale unfinished game and its player, left with nothing: the clean-up's to remove
    old = stamp(MIDNIGHT - timedelta(days=60))
    with store.write() as rows:
        rows.insert_player(Player("day-leaver", "en"), old)
        state = GameState.new(Difficulty.PEACEFUL, 1)
        status = GameStatus.ABANDONED
        left = GameRecord(
            "day-left", "day-leaver", state.difficulty, 1, state, 0, 0, status, old, old, None
        )
        rows.insert_game(left)


def counts(store: Store) -> dict[tuple[str, str, int], int]:
    with store.engine.connect() as conn:
        rows = conn.execute(select(day_scores)).all()
    return {(row[0], row[1], row[2]): row[3] for row in rows}


def grouped(store: Store) -> dict[tuple[str, str, int], int]:
    """A GROUP BY of the ranked attempts' summaries."""
    r = game_results.c
    key = (r.daily_date, r.difficulty, r.score)
    statement = select(*key, func.count()).where(r.daily_date.isnot(None)).group_by(*key)
    with store.engine.connect() as conn:
        return {(row[0], row[1], row[2]): row[3] for row in conn.execute(statement)}


def ranked_by_rules(store: Store) -> list[dict[str, Any]]:
    """The day's ranked attempts by the rules, over the games: a daily game played here,
    finished on its own day."""
    g, r = games.c, game_results.c
    statement = select(g.id, g.player, g.difficulty, g.finished_at, g.mode, g.imported, r.score)
    statement = statement.select_from(games.join(game_results, r.game_id == g.id))
    with store.engine.connect() as conn:
        everything = [dict(row._mapping) for row in conn.execute(statement)]
    return [
        row
        for row in everything
        if row["mode"] == "daily" and not row["imported"] and row["finished_at"][:10] == DAY
    ]


def check_against_brute_force(store: Store) -> None:
    ranked = ranked_by_rules(store)
    by_rules = Counter((DAY, row["difficulty"], row["score"]) for row in ranked)
    assert counts(store) == grouped(store) == dict(by_rules)
    for difficulty in (Difficulty.PEACEFUL, Difficulty.SURVIVAL, Difficulty.NIGHTMARE):
        table = sorted(
            (row for row in ranked if row["difficulty"] == difficulty.value),
            key=lambda row: (-row["score"], row["finished_at"], row["id"]),
        )
        with store.snapshot() as reads:
            assert reads.day_attempts(DAY, difficulty) == len(table)
            for rank, row in enumerate(table, 1):
                ties = [
                    other
                    for other in table[:rank]
                    if (other["score"], other["finished_at"]) == (row["score"], row["finished_at"])
                ]
                mine = TableRow(
                    row["score"], 20, row["id"], row["player"], None, 0, row["finished_at"]
                )
                found = reads.place(DAY, difficulty, mine)
                assert found == (rank, Position(row["score"], row["finished_at"], len(ties)))
            # keyset pages of 5 from the top, each after the last row's position
            paged: list[str] = []
            after: Position | None = None
            while page := reads.day_table(DAY, difficulty, 5, after):
                paged += [found.game_id for found in page]
                last = page[-1]
                after = reads.place(DAY, difficulty, last)[1]
            assert paged == [row["id"] for row in table]


def test_the_days_scores_equal_brute_force_through_writes_forgets_and_the_clean_up(
    store: Store,
) -> None:
    rng = random.Random(41)
    play_day(store, rng)
    ranked = ranked_by_rules(store)
    assert len(ranked) > 100
    assert len({(row["score"], row["finished_at"]) for row in ranked}) < len(ranked)  # ties
    check_against_brute_force(store)
    # players forgotten: their attempts leave the counts, a score left with none goes
    forgotten = sorted({row["player"] for row in ranked})[::9]
    for token in forgotten:  # as an operator does (``magdagdon admin forget``)
        moderation.forget(store, "operator", players.player_id(token))
    assert all(row["player"] not in forgotten for row in ranked_by_rules(store))
    check_against_brute_force(store)
    removed = store_cleanup.remove(store, stamp(MIDNIGHT - timedelta(days=30)))
    # the stale game, its player and those who never played: none with an attempt
    assert removed.games == 1
    assert removed.players >= 1
    check_against_brute_force(store)


def test_a_database_from_before_the_days_scores_counts_its_ranked_attempts(
    store: Store,
) -> None:
    play_day(store, random.Random(11))
    with store.engine.begin() as conn:  # as revision 0010 left it: no counts
        conn.execute(text("DROP TABLE day_scores"))
        conn.execute(text("UPDATE alembic_version SET version_num = '0010'"))
    with Store(store.db) as upgraded:
        assert upgraded.revision == migrate.head()
        assert len(counts(upgraded)) > 4
        check_against_brute_force(upgraded)
