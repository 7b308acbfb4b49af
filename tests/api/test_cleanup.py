"""Unfinished games untouched for 30 days go, with their log; finished games
stay; a player left with nothing goes. Time is the server's clock, moved by the test."""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING

import pytest
from sqlalchemy import func, select
from test_server_process import Player

from api_helpers import whole_game
from magdagdon import clock
from magdagdon.engine import Difficulty, Roll
from magdagdon.services import cleanup, games
from magdagdon.store import GameStatus, Store
from magdagdon.store.cleanup import BATCH, Removed
from magdagdon.store.tables import actions, players
from waits import EVENTUALLY

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path

    from server_process import ServerProcess

START = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)


@pytest.fixture
def set_clock(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Callable[[datetime], None]:
    """Move the server's clock (this process's, and that of servers started after)."""
    file = tmp_path / "clock"
    monkeypatch.setenv(clock.ENV_VAR, str(file))

    def move(moment: datetime) -> None:
        file.write_text(clock.stamp(moment))

    move(START)
    return move


def count(store: Store, table: object, *where: object) -> int:
    query = select(func.count()).select_from(table).where(*where)  # type: ignore[arg-type]
    with store.engine.connect() as conn:
        return int(conn.execute(query).scalar_one())


def finish(store: Store, player: str, game_id: str) -> None:
    game = store.game(game_id)
    assert game is not None
    for action in whole_game(game.state):
        games.play(store, player, game_id, action)


def test_unfinished_games_go_after_30_days_untouched_and_finished_ones_stay(
    store: Store, set_clock: Callable[[datetime], None]
) -> None:
    keeper = store.new_player().token  # finishes one game, leaves another
    leaver = store.new_player().token  # only leaves games
    idle = store.new_player().token  # never plays
    finished = games.start(store, keeper, Difficulty.PEACEFUL, 1)
    finish(store, keeper, finished.id)
    left = games.start(store, keeper, Difficulty.PEACEFUL, 2)  # left under way
    games.play(store, keeper, left.id, Roll())
    abandoned = games.start(store, leaver, Difficulty.SURVIVAL, 3)
    games.play(store, leaver, abandoned.id, Roll())
    played_on = games.start(store, leaver, Difficulty.SURVIVAL, 4)  # abandons the one before
    set_clock(START + timedelta(days=20))
    games.play(store, leaver, played_on.id, Roll())  # touched 20 days in

    set_clock(START + timedelta(days=29, hours=23))
    assert cleanup.run(store, 30) == Removed(games=0, players=0)

    set_clock(START + timedelta(days=30, minutes=1))
    recent_player = store.new_player().token  # made now: kept, though it has nothing
    removed = cleanup.run(store, 30)
    assert removed == Removed(games=2, players=1)
    assert store.game(left.id) is None
    assert store.game(abandoned.id) is None
    assert count(store, actions, actions.c.game_id.in_([left.id, abandoned.id])) == 0
    kept = store.game(finished.id)
    assert kept is not None
    assert kept.status is GameStatus.FINISHED
    assert len(store.actions(finished.id)) == kept.version  # its whole log
    assert [h.game_id for h in store.highscores(keeper, Difficulty.PEACEFUL)] == [finished.id]
    assert store.game(played_on.id) is not None  # touched 20 days in: not yet
    assert store.player(keeper) is not None
    assert store.player(leaver) is not None  # its game played 20 days in is left
    assert store.player(idle) is None
    assert store.player(recent_player) is not None

    set_clock(START + timedelta(days=50, minutes=2))
    assert cleanup.run(store, 30) == Removed(games=1, players=1)
    assert store.player(leaver) is None
    assert store.player(keeper) is not None
    assert cleanup.run(store, 30) == Removed(games=0, players=0)


def test_many_games_and_players_go_in_batches(
    store: Store, set_clock: Callable[[datetime], None]
) -> None:
    many = 2 * BATCH + 7
    for index in range(many):
        player = store.new_player().token
        games.play(store, player, games.start(store, player, Difficulty.PEACEFUL, index).id, Roll())
    before = count(store, players)
    set_clock(START + timedelta(days=31))
    assert cleanup.run(store, 30) == Removed(games=many, players=many)
    assert count(store, players) == before - many
    assert count(store, actions) == 0


def test_a_server_cleans_up_when_it_starts(
    start_server: Callable[[str], ServerProcess],
    db_url: str,
    set_clock: Callable[[datetime], None],
) -> None:
    server = start_server(db_url)
    player = Player(server)
    status, left = player.call("POST", "/api/games", {"difficulty": "peaceful"})
    assert status == 201
    assert player.call("POST", f"/api/games/{left['id']}/actions", {"type": "roll"})[0] == 200
    player.close()
    server.stop()
    set_clock(START + timedelta(days=31))
    server = start_server(db_url)
    player = Player(server, player.cookie)
    deadline = time.monotonic() + EVENTUALLY
    with Store(db_url) as store:
        # the game goes first, then its player
        while player.call("GET", f"/api/games/{left['id']}")[0] != 404 or count(store, players):
            assert time.monotonic() < deadline, "the abandoned game or its player is still there"
            time.sleep(0.1)
