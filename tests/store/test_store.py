"""The store and the games service on both databases: the saved state against the replay of the
log, atomic transactions, the modes' abandon rules, hints, threads that race."""

from __future__ import annotations

import itertools
import random
import threading
from dataclasses import replace
from typing import TYPE_CHECKING

import pytest
from sqlalchemy import delete, insert
from sqlalchemy.exc import IntegrityError

from api_helpers import random_action, whole_game
from magdagdon import clock
from magdagdon.engine import (
    Confirm,
    Difficulty,
    IllegalActionError,
    Roll,
    replay,
)
from magdagdon.services import games
from magdagdon.services.errors import GameAbandonedError, GameNotFoundError, VersionConflictError
from magdagdon.store import GameMode, GameStatus, Store
from magdagdon.store.tables import highscores
from plans import plain_turn

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path

    from magdagdon.store import GameRecord


def status(store: Store, game: GameRecord) -> GameStatus:
    saved = store.game(game.id)
    assert saved is not None
    return saved.status


@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize("difficulty", list(Difficulty))
def test_saved_state_equals_the_replay_of_the_log(
    db_url: str, seed: int, difficulty: Difficulty
) -> None:
    rng = random.Random(seed)
    with Store(db_url) as store:
        player = store.new_player()
        game = games.start(store, player.token, difficulty, seed)
        state = game.state
        while not state.is_over:
            record = games.play(store, player.token, game.id, random_action(state, rng))
            state = record.state
            if rng.random() < 0.1:
                assert replay(difficulty, seed, store.actions(game.id)) == state
        assert len(store.actions(game.id)) == record.version
    with Store(db_url) as reopened:  # a fresh connection reads the same
        saved = reopened.game(game.id)
        assert saved is not None
        assert saved.state == state
        assert saved.status is GameStatus.FINISHED
        assert saved.finished_at == record.finished_at
        assert replay(difficulty, seed, reopened.actions(game.id)) == saved.state
        [entry] = reopened.highscores(player.token, difficulty)
        assert entry.score == state.score().total
        assert entry.powers_used == state.powers_used
        assert entry.turns == state.turn
        assert entry.date == saved.finished_at
        assert reopened.rank(game.id) == 1
        assert reopened.ranked_games(player.token, difficulty) == 1


def test_a_seed_keeps_all_53_bits(store: Store) -> None:
    player = store.new_player()
    game = games.start(store, player.token, Difficulty.PEACEFUL, 2**53 - 1)
    saved = store.game(game.id)
    assert saved is not None
    assert saved.seed == 2**53 - 1
    assert saved == game


def test_a_refused_action_changes_nothing(store: Store) -> None:
    player = store.new_player()
    game = games.start(store, player.token, Difficulty.PEACEFUL, 3)
    with pytest.raises(IllegalActionError):
        games.play(store, player.token, game.id, Confirm())
    with pytest.raises(VersionConflictError):
        games.play(store, player.token, game.id, Roll(), version=5)
    with pytest.raises(GameNotFoundError):
        games.play(store, player.token, "nope", Roll())
    with pytest.raises(GameNotFoundError):
        games.play(store, "someone else", game.id, Roll())
    with pytest.raises(GameNotFoundError):
        games.load(store, "someone else", game.id)
    assert store.game(game.id) == game
    assert store.actions(game.id) == []


def test_a_retry_of_the_applied_action_answers_the_game_and_applies_nothing(
    store: Store,
) -> None:
    player = store.new_player()
    game = games.start(store, player.token, Difficulty.PEACEFUL, 3)
    rolled = games.play(store, player.token, game.id, Roll(), version=0)
    stage = plain_turn(rolled.state)[0]
    staged = games.play(store, player.token, game.id, stage, version=1)
    assert games.play(store, player.token, game.id, Roll(), version=0) == staged
    assert games.play(store, player.token, game.id, stage, version=1) == staged
    with pytest.raises(VersionConflictError):  # not the action applied at version 0
        games.play(store, player.token, game.id, stage, version=0)
    with pytest.raises(VersionConflictError):  # not yet reached
        games.play(store, player.token, game.id, Roll(), version=7)
    assert store.actions(game.id) == [Roll(), stage]


def test_the_high_score_is_in_the_same_transaction_as_the_last_action(store: Store) -> None:
    player = store.new_player()
    game = games.start(store, player.token, Difficulty.NIGHTMARE, 12)
    actions = whole_game(game.state)
    for action in actions[:-1]:
        games.play(store, player.token, game.id, action)
    before = store.game(game.id)
    # a row already holding this game's High Score: the final action's insert must fail
    blocker = {
        "game_id": game.id,
        "player": player.token,
        "difficulty": "nightmare",
        **dict.fromkeys(("score", "turns", "powers_used", "ruins", "hints_used"), 0),
        "date": "then",
    }
    with store.engine.begin() as conn:
        conn.execute(insert(highscores).values(**blocker))
    with pytest.raises(IntegrityError):
        games.play(store, player.token, game.id, actions[-1])
    assert store.game(game.id) == before  # the final action was rolled back with it
    assert len(store.actions(game.id)) == len(actions) - 1
    with store.engine.begin() as conn:
        conn.execute(delete(highscores))
    final = games.play(store, player.token, game.id, actions[-1])
    assert final.status is GameStatus.FINISHED
    assert [h.game_id for h in store.highscores(player.token, Difficulty.NIGHTMARE)] == [game.id]
    assert store.rank(game.id) == 1


def test_a_new_game_abandons_only_the_players_unfinished_games(store: Store) -> None:
    alice, bob = store.new_player(), store.new_player()
    a1 = games.start(store, alice.token, Difficulty.PEACEFUL, 1)
    b1 = games.start(store, bob.token, Difficulty.PEACEFUL, 1)
    a2 = games.start(store, alice.token, Difficulty.SURVIVAL, 2)
    assert status(store, a1) is GameStatus.ABANDONED
    assert status(store, b1) is GameStatus.PLAYING
    assert store.current_game(alice.token) == a2
    with pytest.raises(GameAbandonedError):
        games.play(store, alice.token, a1.id, Roll())


def test_modes_abandon_as_plan_says(
    store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A tutorial abandons only tutorials; any other game abandons every unfinished game but
    a ranked daily attempt; the current game is never a tutorial."""
    token = store.new_player().token
    # each game a millisecond after the one before (the stored times' grain): "most recent"
    # is then the order the games were started in, however fast this machine is
    file = tmp_path / "clock"
    monkeypatch.setenv(clock.ENV_VAR, str(file))
    moments = (f"2026-12-01T12:00:00.{n:03d}Z" for n in itertools.count())

    def start(mode: GameMode, day: str | None = None) -> GameRecord:
        file.write_text(next(moments), encoding="utf-8")
        return games.start(store, token, Difficulty.PEACEFUL, 1, mode=mode, daily_date=day)

    normal = start(GameMode.NORMAL)
    tutorial = start(GameMode.TUTORIAL)
    assert status(store, normal) is GameStatus.PLAYING  # the game under way waits
    assert store.current_game(token) == normal
    second_tutorial = start(GameMode.TUTORIAL)
    assert status(store, tutorial) is GameStatus.ABANDONED
    daily = start(GameMode.DAILY, "2026-12-01")
    assert status(store, normal) is GameStatus.ABANDONED
    assert status(store, second_tutorial) is GameStatus.ABANDONED
    assert store.current_game(token) == daily
    practice = start(GameMode.PRACTICE, "2026-12-01")
    assert status(store, daily) is GameStatus.PLAYING  # a ranked daily is never abandoned
    assert store.current_game(token) == practice
    again = start(GameMode.NORMAL)
    assert status(store, practice) is GameStatus.ABANDONED
    assert status(store, daily) is GameStatus.PLAYING
    assert store.current_game(token) == again
    saved = store.game(daily.id)
    assert saved is not None
    assert (saved.mode, saved.daily_date) == (GameMode.DAILY, "2026-12-01")


@pytest.mark.parametrize(
    ("mode", "ranked"),
    [(GameMode.NORMAL, True), (GameMode.DAILY, True), (GameMode.PRACTICE, False),
     (GameMode.TUTORIAL, False)],
)  # fmt: skip
def test_only_normal_and_daily_games_get_a_high_score(
    store: Store, mode: GameMode, ranked: bool
) -> None:
    token = store.new_player().token
    day = "2026-12-02" if mode in (GameMode.DAILY, GameMode.PRACTICE) else None
    game = games.start(store, token, Difficulty.NIGHTMARE, 4, mode=mode, daily_date=day)
    for action in whole_game(game.state):
        final = games.play(store, token, game.id, action)
    assert final.status is GameStatus.FINISHED
    listed = [h.game_id for h in store.highscores(token, Difficulty.NIGHTMARE)]
    assert listed == ([game.id] if ranked else [])
    assert store.rank(game.id) == (1 if ranked else None)


def test_hints_are_counted_except_in_phase_roll(store: Store) -> None:
    player = store.new_player()
    game = games.start(store, player.token, Difficulty.PEACEFUL, 1)
    assert games.hint_given(store, game) == 0  # phase roll: I-ROLL is the only move
    rolled = games.play(store, player.token, game.id, Roll())
    assert [games.hint_given(store, rolled) for _ in range(3)] == [1, 2, 3]
    saved = store.game(game.id)
    assert saved is not None
    assert (saved.hints_used, saved.version) == (3, 1)
    with pytest.raises(GameNotFoundError):
        store.count_hint("nope")


def test_language(store: Store) -> None:
    player = store.new_player()
    assert player.language == "fil"
    assert store.set_language(player.token, "en").language == "en"
    assert store.player(player.token) == player.__class__(player.token, "en", None)
    with pytest.raises(ValueError, match="language"):
        store.set_language(player.token, "de")
    with pytest.raises(LookupError):
        store.set_language("nobody", "en")


def test_threads_never_lose_an_update(store: Store) -> None:
    """Eight threads race on one game with versions, and on their own games without."""
    player = store.new_player()
    shared = games.start(store, player.token, Difficulty.PEACEFUL, 77)
    owners = [store.new_player().token for _ in range(8)]
    own = [games.start(store, owners[s], Difficulty.SURVIVAL, s) for s in range(8)]
    accepted = [0] * 8
    errors: list[BaseException] = []

    def work(worker: int) -> None:
        rng = random.Random(worker)
        try:
            for _ in range(25):
                record = store.game(shared.id)
                assert record is not None
                if not record.state.is_over:
                    action = random_action(record.state, rng)
                    try:
                        games.play(store, player.token, shared.id, action, version=record.version)
                        accepted[worker] += 1
                    except VersionConflictError:
                        pass
                mine = store.game(own[worker].id)
                assert mine is not None
                if not mine.state.is_over:
                    games.play(store, owners[worker], mine.id, plain_turn(mine.state)[0])
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
    assert final.version == len(store.actions(shared.id))
    assert replay(Difficulty.PEACEFUL, 77, store.actions(shared.id)) == final.state
    # a retried action (same action at an old version) answers 200 without being applied, so
    # the accepted count can exceed the log only by such retries: never fall short of it
    assert final.version <= sum(accepted)
    for game in own:
        mine = store.game(game.id)
        assert mine is not None
        assert mine.version == 25 or mine.state.is_over
        assert replay(Difficulty.SURVIVAL, game.seed, store.actions(game.id)) == mine.state


def test_a_key_with_a_nul_names_nothing(store: Store) -> None:
    """PostgreSQL's text cannot hold NUL; a key from outside that has one finds nothing."""
    assert store.player("to\x00ken") is None
    assert store.game("ga\x00me") is None
    with pytest.raises(GameNotFoundError):
        games.play(store, "p", "ga\x00me", Roll())


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_a_move_saved_over_a_stale_version_writes_nothing(
    kind: str, make_db: Callable[..., str]
) -> None:
    """The guard under the lock: a move saved over a version the game is no longer at is a
    conflict, and neither its state nor its log entry is written (PostgreSQL writes both in
    one statement, SQLite in two, each prepared on the driver's cursor)."""
    with Store(make_db(kind)) as store:
        player = store.new_player()
        game = games.start(store, player.token, Difficulty.PEACEFUL, 5)
        played = games.play(store, player.token, game.id, Roll())
        stale = replace(played, state=played.state.apply(plain_turn(played.state)[0]))
        begin = store.write
        with pytest.raises(VersionConflictError), begin() as rows:
            rows.save_move(stale, Roll())  # claims the game was at version 0: it is at 1
        saved = store.game(game.id)
        assert saved is not None
        assert saved.version == 1
        assert saved.state == played.state
        assert store.actions(game.id) == [Roll()]
        after = replace(stale, version=2)
        with begin() as rows:  # over the right version both are written
            rows.save_move(after, plain_turn(played.state)[0])
        assert store.actions(game.id) == [Roll(), plain_turn(played.state)[0]]
        saved = store.game(game.id)
        assert saved is not None
        assert (saved.version, saved.state) == (2, after.state)
