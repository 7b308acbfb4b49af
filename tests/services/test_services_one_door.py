"""One door for a move (``services/games.py``, ``services/sync.py``, ``engine/replays.py``): a
sync of a game is one write transaction, every action of it goes through the one function that
applies an action (``games.apply_action``, the route's and the group commit's too), and a sync,
an import and the page's engine worker replay a log through the engine's one replay."""

from __future__ import annotations

import json
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

import pytest

from api_helpers import whole_game
from magdagdon import clock
from magdagdon.engine import Difficulty, GameState, Roll, action_to_json, host, replays
from magdagdon.services import games, logs, sync
from magdagdon.store import GameMode, Store

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

    from magdagdon.store import Rows

ACTIONS = 30


def offline_game(game_id: str, upto: int) -> dict[str, Any]:
    actions = [action_to_json(a) for a in whole_game(GameState.new(Difficulty.SURVIVAL, 3))]
    assert len(actions) >= upto
    return {
        "id": game_id,
        "difficulty": "survival",
        "seed": 3,
        "mode": "normal",
        "daily_date": None,
        "actions": actions[:upto],
    }


class Counted:
    """The store's write transactions and the actions applied, counted."""

    def __init__(self, store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
        self.writes = self.applied = 0
        write = store.write

        @contextmanager
        def counted_write() -> Iterator[Rows]:
            self.writes += 1
            with write() as rows:
                yield rows

        apply_action = games.apply_action

        def counted_apply(rows: Rows, *args: Any, **kwargs: Any) -> Any:
            self.applied += 1
            return apply_action(rows, *args, **kwargs)

        monkeypatch.setattr(store, "write", counted_write)
        monkeypatch.setattr(games, "apply_action", counted_apply)


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_a_sync_of_30_actions_is_one_transaction_through_the_one_door(
    kind: str, make_db: Callable[..., str], monkeypatch: pytest.MonkeyPatch
) -> None:
    with Store(make_db(kind)) as store:
        player = store.new_player().token
        counted = Counted(store, monkeypatch)
        synced = sync.sync(store, player, offline_game("door-1", ACTIONS))
        assert (synced.outcome, synced.game.version) == ("stored", ACTIONS)
        assert (counted.writes, counted.applied) == (1, ACTIONS)
        # the rest of a game already stored: one more transaction, the new actions only
        synced = sync.sync(store, player, offline_game("door-1", ACTIONS + 3))
        assert (synced.outcome, synced.game.version) == ("extended", ACTIONS + 3)
        assert (counted.writes, counted.applied) == (2, ACTIONS + 3)
        # an action of a route goes through the same door
        game = games.start(store, player, Difficulty.PEACEFUL, 1)
        games.play(store, player, game.id, Roll())
        assert counted.applied == ACTIONS + 4
        whole = offline_game("door-1", ACTIONS + 3)["actions"]
        assert store.actions("door-1") == list(
            replays.replay_log(Difficulty.SURVIVAL, 3, whole).actions
        )


def test_a_sync_an_import_and_the_engine_worker_replay_through_one_function(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    calls: list[int] = []
    replay_log = replays.replay_log

    def counted(*args: Any, **kwargs: Any) -> replays.Replayed:
        calls.append(1)
        return replay_log(*args, **kwargs)

    monkeypatch.setattr(logs, "replay_log", counted)
    monkeypatch.setattr(host, "replay_log", counted)
    game = offline_game("door-2", 10)
    # the services' check of a sent log (a sync's and an import's)
    logs.replayed(
        Difficulty.SURVIVAL, 3, GameMode.NORMAL, None, game["actions"], today=clock.today()
    )
    # the page's engine worker opening a game from its log
    request = {"difficulty": "survival", "seed": 3, "game_id": "g", "actions": game["actions"]}
    opened = json.loads(host.open_game(json.dumps(request)))
    assert opened["record"]["version"] == 10
    assert len(calls) == 2


def test_a_log_that_does_not_replay_names_its_action_everywhere() -> None:
    game = offline_game("door-3", 6)
    game["actions"][2] = {"type": "roll"}
    with pytest.raises(replays.ReplayError) as refused:
        replays.replay_log(Difficulty.SURVIVAL, 3, game["actions"])
    request = {"difficulty": "survival", "seed": 3, "game_id": "g", "actions": game["actions"]}
    answer = json.loads(host.open_game(json.dumps(request)))
    assert answer["error"] == {
        "code": refused.value.code,
        "message": str(refused.value),
        "status": 422,  # as a sync or an import answers a log that does not replay
    }
    assert refused.value.action == 3
