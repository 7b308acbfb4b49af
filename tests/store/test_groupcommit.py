"""SQLite's group commit (``store/groupcommit.py``): the actions waiting together share one
transaction, an action that raises is rolled back alone, a transaction that fails saves none of
its actions, and every answer comes only after the commit."""

from __future__ import annotations

import sqlite3
import threading
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import pytest

from magdagdon.engine import Difficulty, IllegalActionError, Roll
from magdagdon.services import games
from magdagdon.store import Store
from magdagdon.store.failures import StorageUnavailableError

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path

    from magdagdon.store import GameRecord, Rows

WAIT = 60.0  # seconds: only a broken writer thread takes this long


class Outcome:
    """What ``done`` was called with, and the rows object of the transaction it ran in."""

    def __init__(self) -> None:
        self.answered = threading.Event()
        self.result: Any = None
        self.error: BaseException | None = None
        self.rows: Rows | None = None
        self.saved_when_answered: GameRecord | None = None

    def done(self, result: Any, error: BaseException | None) -> None:
        self.result, self.error = result, error
        self.answered.set()

    def wait(self) -> Outcome:
        assert self.answered.wait(WAIT)
        return self


def new_games(store: Store, count: int) -> list[GameRecord]:
    return [
        games.start(store, store.new_player().token, Difficulty.PEACEFUL, i) for i in range(count)
    ]


def roll(game: GameRecord, outcome: Outcome) -> Callable[[Rows], GameRecord]:
    def work(rows: Rows) -> GameRecord:
        outcome.rows = rows
        return games.apply_action(rows, game.player, game.id, Roll())

    return work


def submit_together(store: Store, works: list[Callable[[Rows], Any]]) -> list[Outcome]:
    """Submit ``works`` while the writer is busy with an action before them, so that it finds
    them all waiting when it is free: they make one group."""
    assert store.group is not None
    busy, go = threading.Event(), threading.Event()

    def first_work(rows: Rows) -> None:
        busy.set()
        assert go.wait(WAIT)

    first = Outcome()
    outcomes = [Outcome() for _ in works]
    store.group.submit(first_work, first.done)
    assert busy.wait(WAIT)
    for work, outcome in zip(works, outcomes, strict=True):
        store.group.submit(work, outcome.done)
    go.set()
    assert first.wait().error is None
    return [outcome.wait() for outcome in outcomes]


@pytest.fixture
def sqlite_store(tmp_path: Path) -> Store:
    return Store(tmp_path / "group.sqlite3")


def test_actions_waiting_together_commit_in_one_transaction(sqlite_store: Store) -> None:
    with sqlite_store as store:
        played = new_games(store, 5)
        outcomes = [Outcome() for _ in played]
        done = submit_together(store, [roll(g, o) for g, o in zip(played, outcomes, strict=True)])
        assert all(o.error is None for o in done)
        assert len({id(o.rows) for o in done}) == 1  # one transaction
        for game, outcome in zip(played, done, strict=True):
            saved = store.game(game.id)
            assert saved is not None
            assert saved.version == 1 == outcome.result.version
            assert saved.state == outcome.result.state


def test_an_action_that_raises_is_rolled_back_alone(sqlite_store: Store) -> None:
    with sqlite_store as store:
        a, b, c = new_games(store, 3)
        outcomes = [Outcome() for _ in range(3)]

        def saved_then_fails(rows: Rows) -> None:
            games.apply_action(rows, b.player, b.id, Roll())  # written, then undone
            raise RuntimeError("after the write")

        def illegal(rows: Rows) -> None:
            games.apply_action(rows, c.player, c.id, Roll())
            games.apply_action(rows, c.player, c.id, Roll())  # a second roll: refused

        done = submit_together(store, [roll(a, outcomes[0]), saved_then_fails, illegal])
        assert done[0].error is None
        assert isinstance(done[1].error, RuntimeError)
        assert isinstance(done[2].error, IllegalActionError)
        versions = {g.id: store.game(g.id).version for g in (a, b, c)}  # type: ignore[union-attr]
        assert versions == {a.id: 1, b.id: 0, c.id: 0}
        assert store.actions(b.id) == store.actions(c.id) == []


def test_a_failed_transaction_saves_none_of_its_actions(sqlite_store: Store) -> None:
    with sqlite_store as store:
        a, b = new_games(store, 2)
        full = sqlite3.OperationalError("database or disk is full")
        full.sqlite_errorcode = sqlite3.SQLITE_FULL

        def disk_full(rows: Rows) -> None:
            raise full

        done = submit_together(store, [roll(a, Outcome()), disk_full, roll(b, Outcome())])
        assert all(isinstance(o.error, StorageUnavailableError) for o in done)
        assert all(store.game(g.id).version == 0 for g in (a, b))  # type: ignore[union-attr]
        # the writer goes on: the next action commits
        again = Outcome()
        assert store.group is not None
        store.group.submit(roll(a, again), again.done)
        assert again.wait().error is None
        assert store.game(a.id).version == 1  # type: ignore[union-attr]


def test_each_answer_comes_after_its_commit(sqlite_store: Store, tmp_path: Path) -> None:
    """When ``done`` is called, another connection (another process would see the same) reads
    the action saved."""
    with sqlite_store as store, Store(tmp_path / "group.sqlite3") as other:
        (game,) = new_games(store, 1)
        outcome = Outcome()
        seen: list[int] = []

        def done(result: Any, error: BaseException | None) -> None:
            saved = other.game(game.id)
            assert saved is not None
            seen.append(saved.version)
            outcome.done(result, error)

        assert store.group is not None
        store.group.submit(roll(game, outcome), done)
        assert outcome.wait().error is None
        assert seen == [1]


def test_an_action_that_waited_too_long_is_refused_unsaved(sqlite_store: Store) -> None:
    with sqlite_store as store:
        (game,) = new_games(store, 1)
        store.waits = replace(store.waits, queue=0.0)  # every action is late at once
        outcome = Outcome()
        assert store.group is not None
        store.group.submit(roll(game, outcome), outcome.done)
        assert isinstance(outcome.wait().error, StorageUnavailableError)
        assert store.game(game.id).version == 0  # type: ignore[union-attr]


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_only_sqlite_has_a_group_commit(make_db: Callable[..., str], kind: str) -> None:
    """On PostgreSQL the writers lock only their own rows: each action its own transaction."""
    with Store(make_db(kind)) as store:
        assert store.dialect == kind
        assert (store.group is not None) == (kind == "sqlite")


def test_a_store_used_again_after_closing_has_its_writer_again(sqlite_store: Store) -> None:
    """A closed store opens its connections again when used (an app's lifespan closes it, and
    another client of the same app goes on): its actions are committed, never left waiting."""
    with sqlite_store as store:
        assert store.group is not None
        first, second = new_games(store, 2)
        before = Outcome()
        store.group.submit(roll(first, before), before.done)
        assert before.wait().error is None
        store.close()
        after = Outcome()
        store.group.submit(roll(second, after), after.done)
        assert after.wait().error is None
        saved = store.game(second.id)
        assert saved is not None
        assert saved.version == 1
