"""``magdagdon db copy --from A --to B``: everything, between either kinds of database, ranks and
logs intact; a target already in use is refused and left as it was."""

from __future__ import annotations

import subprocess
import sys
from typing import TYPE_CHECKING

import pytest
from sqlalchemy import select

from api_helpers import whole_game
from magdagdon.engine import Difficulty, replay
from magdagdon.services import games
from magdagdon.store import GameMode, Store
from magdagdon.store.copy import copy_database
from magdagdon.store.tables import (
    actions,
    daily_seeds,
    day_scores,
    game_results,
    highscores,
    players,
)
from magdagdon.store.tables import games as games_table
from plans import plain_turn
from waits import EVENTUALLY

if TYPE_CHECKING:
    from collections.abc import Callable

    from sqlalchemy import Table

PAIRS = [("sqlite", "postgresql"), ("postgresql", "sqlite"), ("sqlite", "sqlite")]


def fill(db: str) -> list[str]:
    """Two players: finished games with tied and untied High Scores, a game under way, an
    abandoned one, a tutorial and a daily attempt. Answer the game ids."""
    made: list[str] = []
    with Store(db) as store:
        alice, bob = store.new_player(), store.new_player("en")
        for token, seed, mode in [
            (alice.token, 21, GameMode.NORMAL),
            (alice.token, 21, GameMode.NORMAL),  # the same game again: a tie
            (alice.token, 22, GameMode.TUTORIAL),
            (bob.token, 23, GameMode.DAILY),
        ]:
            day = "2026-12-01" if mode is GameMode.DAILY else None
            game = games.start(store, token, Difficulty.PEACEFUL, seed, mode=mode, daily_date=day)
            for action in whole_game(game.state):
                games.play(store, token, game.id, action)
            made.append(game.id)
        abandoned = games.start(store, bob.token, Difficulty.NIGHTMARE, 5)
        under_way = games.start(store, bob.token, Difficulty.SURVIVAL, 6)
        for action in plain_turn(under_way.state)[:2]:
            games.play(store, bob.token, under_way.id, action)
        store.count_hint(under_way.id)
        made += [abandoned.id, under_way.id]
        with store.write() as seeds:  # a day's secret seed, drawn once
            seeds.keep_day_seed("2026-12-02", "survival", 77, "2026-12-02T00:00:01.000Z")
    return made


def rows(db: str, table: Table) -> list[tuple[object, ...]]:
    with Store(db) as store, store.engine.connect() as conn:
        query = select(table).order_by(*table.primary_key.columns)
        return [tuple(row) for row in conn.execute(query)]


@pytest.mark.parametrize(("source_kind", "target_kind"), PAIRS)
def test_everything_is_copied_as_it_was(
    make_db: Callable[..., str], source_kind: str, target_kind: str
) -> None:
    source, target = make_db(source_kind), make_db(target_kind, migrated=False)
    ids = fill(source)
    copied = copy_database(source, target)
    assert (copied.players, copied.games, copied.highscores, copied.results) == (2, 6, 3, 4)
    for table in (players, games_table, actions, highscores, game_results, day_scores, daily_seeds):
        assert rows(target, table) == rows(source, table), table.name
    assert len(rows(target, daily_seeds)) == 1
    with Store(source) as before, Store(target) as after:
        for game_id in ids:
            game = after.game(game_id)
            assert game == before.game(game_id)
            assert game is not None
            assert after.rank(game_id) == before.rank(game_id)
            assert replay(game.difficulty, game.seed, after.actions(game_id)) == game.state
        # the copy goes on like the original: a new High Score gets a new id
        first = after.game(ids[0])
        assert first is not None
        token = first.player  # alice: her two ranked games of seed 21 tie
        game = games.start(after, token, Difficulty.PEACEFUL, 21)
        for action in whole_game(game.state):
            games.play(after, token, game.id, action)
        entries = after.highscores(token, Difficulty.PEACEFUL)
        assert [e.game_id for e in entries][-1] == game.id  # the tie that ended last ranks last


@pytest.mark.parametrize("target_kind", ["sqlite", "postgresql"])
def test_a_target_in_use_is_refused_and_left_as_it_was(
    make_db: Callable[..., str], target_kind: str
) -> None:
    source, target = make_db("sqlite"), make_db(target_kind)
    fill(source)
    with Store(target) as store:
        store.new_player()
    before = rows(target, players)
    result = subprocess.run(
        [sys.executable, "-m", "magdagdon", "db", "copy", "--from", source, "--to", target],
        capture_output=True,
        text=True,
        timeout=EVENTUALLY,
    )
    assert result.returncode == 1
    assert "already holds players" in result.stderr
    assert "Traceback" not in result.stderr
    assert rows(target, players) == before


def test_the_command_copies_and_says_what(make_db: Callable[..., str]) -> None:
    source, target = make_db("sqlite"), make_db("postgresql", migrated=False)
    fill(source)
    result = subprocess.run(
        [sys.executable, "-m", "magdagdon", "db", "copy", "--from", source, "--to", target],
        capture_output=True,
        text=True,
        timeout=EVENTUALLY,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("copied 2 players, 6 games (")
    assert "and 3 High Scores" in result.stdout
    assert rows(target, games_table) == rows(source, games_table)
