"""The store: migrations, the saved state against the replay of the log, atomic transactions."""

from __future__ import annotations

import json
import random
import sqlite3
import threading
from typing import TYPE_CHECKING

import pytest
from api_helpers import random_action, whole_game

from magdagdon.engine import (
    Confirm,
    Difficulty,
    GameState,
    IllegalActionError,
    Roll,
    replay,
    state_to_json,
)
from magdagdon.store import (
    LATEST,
    MIGRATIONS,
    GameMode,
    GameNotFoundError,
    GameStatus,
    SchemaTooNewError,
    Store,
    VersionConflictError,
    migrate,
)
from plans import plain_turn

if TYPE_CHECKING:
    from pathlib import Path

TABLES = {"players", "games", "actions", "highscores"}
INDEXES = {"games_by_player_status", "highscores_by_rank", "games_by_daily"}


def schema_names(path: Path, kind: str) -> set[str]:
    with sqlite3.connect(path) as conn:
        rows = conn.execute(
            "SELECT name FROM sqlite_master WHERE type = ? AND name NOT LIKE 'sqlite_%'", (kind,)
        ).fetchall()
    return {row[0] for row in rows}


def test_migration_steps_are_numbered_in_order() -> None:
    assert [step.version for step in MIGRATIONS] == list(range(1, LATEST + 1))
    assert all(step.statements for step in MIGRATIONS)


def test_an_empty_file_is_migrated_to_the_latest_schema(db_path: Path) -> None:
    with Store(db_path):
        pass
    with sqlite3.connect(db_path) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == LATEST
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert schema_names(db_path, "table") == TABLES
    assert schema_names(db_path, "index") == INDEXES


@pytest.mark.parametrize("old", range(LATEST))
def test_each_older_version_is_migrated_keeping_its_data(db_path: Path, old: int) -> None:
    conn = sqlite3.connect(db_path, isolation_level=None)
    assert migrate(conn, target=old) == old
    if old >= 1:  # the tables exist: put a game in it, as that version would have
        state = GameState.new(Difficulty.PEACEFUL, 5)
        conn.execute("INSERT INTO players VALUES ('tok', 'en', '2024-01-01T00:00:00.000Z')")
        conn.execute(
            "INSERT INTO games (id, player, difficulty, seed, state, created_at, updated_at) "
            "VALUES ('g1', 'tok', 'peaceful', 5, ?, 'then', 'then')",
            (json.dumps(state_to_json(state)),),
        )
    conn.close()
    with Store(db_path) as store:
        if old >= 1:
            player = store.player("tok")
            assert player is not None
            assert player.language == "en"
            game = store.current_game("tok")
            assert game is not None
            assert game.id == "g1"
            assert game.mode is GameMode.NORMAL  # games from before modes were normal games
            assert store.apply("g1", Roll()).version == 1
    with sqlite3.connect(db_path) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == LATEST
    assert schema_names(db_path, "index") == INDEXES


def test_a_newer_schema_is_refused(db_path: Path) -> None:
    with sqlite3.connect(db_path) as conn:
        conn.execute(f"PRAGMA user_version = {LATEST + 1}")
    with pytest.raises(SchemaTooNewError):
        Store(db_path)


def test_durability_pragmas(store: Store) -> None:
    conn = store._conn
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert conn.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL: see store.py


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5, 6])
@pytest.mark.parametrize("difficulty", list(Difficulty))
def test_saved_state_equals_the_replay_of_the_log(
    db_path: Path, seed: int, difficulty: Difficulty
) -> None:
    rng = random.Random(seed)
    with Store(db_path) as store:
        player = store.new_player()
        game = store.new_game(player.token, difficulty, seed)
        state = game.state
        while not state.is_over:
            record = store.apply(game.id, random_action(state, rng))
            state = record.state
            if rng.random() < 0.1:
                assert replay(difficulty, seed, store.actions(game.id)) == state
        assert len(store.actions(game.id)) == record.version
    with Store(db_path) as reopened:  # a fresh connection reads the same
        saved = reopened.game(game.id)
        assert saved is not None
        assert saved.state == state
        assert saved.status is GameStatus.FINISHED
        assert replay(difficulty, seed, reopened.actions(game.id)) == saved.state
        [entry] = reopened.highscores(player.token, difficulty)
        assert entry.score == state.score().total
        assert entry.powers_used == state.powers_used
        assert entry.turns == state.turn


def test_a_refused_action_changes_nothing(store: Store) -> None:
    player = store.new_player()
    game = store.new_game(player.token, Difficulty.PEACEFUL, 3)
    with pytest.raises(IllegalActionError):
        store.apply(game.id, Confirm())
    with pytest.raises(VersionConflictError):
        store.apply(game.id, Roll(), version=5)
    with pytest.raises(GameNotFoundError):
        store.apply("nope", Roll())
    with pytest.raises(GameNotFoundError):
        store.apply(game.id, Roll(), player="someone else")
    assert store.game(game.id) == game
    assert store.actions(game.id) == []


def test_the_high_score_is_in_the_same_transaction_as_the_last_action(store: Store) -> None:
    player = store.new_player()
    game = store.new_game(player.token, Difficulty.NIGHTMARE, 12)
    actions = whole_game(game.state)
    for action in actions[:-1]:
        store.apply(game.id, action)
    before = store.game(game.id)
    store._conn.execute(
        "CREATE TRIGGER refuse BEFORE INSERT ON highscores BEGIN SELECT RAISE(ABORT, 'no'); END"
    )
    with pytest.raises(sqlite3.IntegrityError):
        store.apply(game.id, actions[-1])
    assert store.game(game.id) == before  # the final action was rolled back with it
    assert len(store.actions(game.id)) == len(actions) - 1
    store._conn.execute("DROP TRIGGER refuse")
    final = store.apply(game.id, actions[-1])
    assert final.status is GameStatus.FINISHED
    assert [h.game_id for h in store.highscores(player.token, Difficulty.NIGHTMARE)] == [game.id]
    assert store.rank(game.id) == 1


def test_a_new_game_abandons_only_the_players_unfinished_games(store: Store) -> None:
    alice, bob = store.new_player(), store.new_player()
    a1 = store.new_game(alice.token, Difficulty.PEACEFUL, 1)
    b1 = store.new_game(bob.token, Difficulty.PEACEFUL, 1)
    a2 = store.new_game(alice.token, Difficulty.SURVIVAL, 2)
    assert store.game(a1.id).status is GameStatus.ABANDONED  # type: ignore[union-attr]
    assert store.game(b1.id).status is GameStatus.PLAYING  # type: ignore[union-attr]
    assert store.current_game(alice.token).id == a2.id  # type: ignore[union-attr]


def test_count_hint(store: Store) -> None:
    player = store.new_player()
    game = store.new_game(player.token, Difficulty.PEACEFUL, 1)
    assert [store.count_hint(game.id) for _ in range(3)] == [1, 2, 3]
    assert store.game(game.id).hints_used == 3  # type: ignore[union-attr]
    assert store.game(game.id).version == 0  # type: ignore[union-attr]
    with pytest.raises(GameNotFoundError):
        store.count_hint("nope")


def test_threads_never_lose_an_update(store: Store) -> None:
    """Eight threads race on one game with versions, and on their own games without."""
    player = store.new_player()
    shared = store.new_game(player.token, Difficulty.PEACEFUL, 77)
    own = [store.new_game(store.new_player().token, Difficulty.SURVIVAL, s) for s in range(8)]
    accepted = [0] * 8
    errors: list[BaseException] = []

    def work(worker: int) -> None:
        rng = random.Random(worker)
        try:
            for _ in range(40):
                record = store.game(shared.id)
                assert record is not None
                if not record.state.is_over:
                    action = random_action(record.state, rng)
                    try:
                        store.apply(shared.id, action, version=record.version)
                        accepted[worker] += 1
                    except VersionConflictError:
                        pass
                mine = store.game(own[worker].id)
                assert mine is not None
                if not mine.state.is_over:
                    store.apply(mine.id, plain_turn(mine.state)[0])
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(w,)) for w in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    final = store.game(shared.id)
    assert final is not None
    assert final.version == sum(accepted) == len(store.actions(shared.id))
    assert replay(Difficulty.PEACEFUL, 77, store.actions(shared.id)) == final.state
    for game in own:
        mine = store.game(game.id)
        assert mine is not None
        assert mine.version == 40 or mine.state.is_over
        assert replay(Difficulty.SURVIVAL, game.seed, store.actions(game.id)) == mine.state
