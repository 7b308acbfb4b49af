"""A game played offline last month and synced today (``services/sync.py``, dated by the
device's ``played_at``): the clean-up counts from when the server last touched a game, so an
unfinished one is not stale at once — it goes only once it has been left 30 days after the
sync. On SQLite and PostgreSQL; the server's clock is moved by the test."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pytest

from api_helpers import whole_game
from import_helpers import document, game_entry
from magdagdon import clock
from magdagdon.engine import Difficulty, GameState, action_to_json
from magdagdon.services import cleanup, sync, transfer
from magdagdon.store import GameStatus, Store
from magdagdon.store.cleanup import NOTHING

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path

PLAYED = "2026-10-20T08:00:00.000Z"  # some 44 days before the sync


@pytest.fixture
def set_clock(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Callable[[str], None]:
    file = tmp_path / "clock"
    monkeypatch.setenv(clock.ENV_VAR, str(file))

    def move(moment: str) -> None:
        file.write_text(moment, encoding="utf-8")

    return move


def begun_offline(game_id: str, upto: int | None = None) -> dict[str, Any]:
    actions = [action_to_json(a) for a in whole_game(GameState.new(Difficulty.SURVIVAL, 4))]
    return {
        "id": game_id,
        "difficulty": "survival",
        "seed": 4,
        "mode": "normal",
        "daily_date": None,
        "actions": actions[:upto],
        "played_at": PLAYED,
    }


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_a_game_synced_today_that_was_played_last_month_is_not_stale(
    kind: str, make_db: Callable[..., str], set_clock: Callable[[str], None]
) -> None:
    set_clock("2026-12-03T12:00:00Z")
    with Store(make_db(kind)) as store:
        player = store.new_player().token
        under_way = sync.sync(store, player, begun_offline("o-stale", upto=6)).game
        assert (under_way.created_at, under_way.status) == (PLAYED, GameStatus.PLAYING)
        unrolled = sync.sync(store, store.new_player().token, begun_offline("o-new", upto=0))
        assert unrolled.game.created_at == PLAYED
        finished = sync.sync(store, store.new_player().token, begun_offline("o-done"))
        assert finished.game.created_at == PLAYED

        assert cleanup.run(store, 30) == NOTHING  # dated last month, touched today
        assert store.game("o-stale") is not None
        assert store.game("o-new") is not None
        set_clock("2026-12-30T12:00:00Z")  # 27 days after the sync: still not stale
        assert cleanup.run(store, 30).games == 0
        set_clock("2027-01-03T12:00:01Z")  # 30 days untouched since the sync: it goes
        assert cleanup.run(store, 30).games == 2
        assert store.game("o-stale") is None
        assert store.game("o-done") is not None  # a finished game is kept for ever


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_an_unfinished_game_imported_today_that_was_begun_last_month_is_not_stale(
    kind: str, make_db: Callable[..., str], set_clock: Callable[[str], None]
) -> None:
    set_clock("2026-12-03T12:00:00Z")
    entry = game_entry("survival", 4, created_at=PLAYED, finished_at=None)
    entry |= {"status": "playing", "actions": entry["actions"][:6], "score": None}
    with Store(make_db(kind)) as store:
        player = store.new_player()
        assert transfer.import_document(store, player, document([entry])).imported == 1
        # kept as an abandoned game (an import never takes the place of the game under way)
        [kept] = transfer.export(store, player, player.token)["games"]
        assert (kept["created_at"], kept["status"]) == (PLAYED, GameStatus.ABANDONED.value)
        assert cleanup.run(store, 30) == NOTHING  # begun last month, imported today
        assert store.game(kept["id"]) is not None
        set_clock("2027-01-03T12:00:01Z")  # 30 days untouched since the import: it goes
        assert cleanup.run(store, 30).games == 1
        assert store.game(kept["id"]) is None
