"""A finished game's review (docs/rules.md "Modes and records" (Review)), over the store and a
runner of background jobs.

The review itself is ``bots/review.py``'s pure function of the game's difficulty, seed and log.
A whole game takes seconds, so it is computed in the background, and its row in ``reviews``
(``store/reviews.py``) tells any server process that a player's poll reaches how far it is:

- no row, or a review of an older format: a job starts, and the poll answers pending;
- ``pending``: its progress, unless the job looks dead (no report for :data:`STALE`, and not
  running in this process — its worker may have died): then it starts again;
- ``done``: the review;
- ``failed``: it starts again, up to :data:`ATTEMPTS` jobs, then :class:`ReviewFailedError`.

A job's end that the database refuses (an outage) is kept in this process and written again
until it is taken (``retried_writes.py``); meanwhile the row stays ``pending`` and is not taken
for dead here.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any, Protocol

from magdagdon import clock
from magdagdon.bots.review import REVIEW_FORMAT, review_game
from magdagdon.bots.value import Values
from magdagdon.engine import Difficulty, action_from_json, action_to_json
from magdagdon.services import games
from magdagdon.services.errors import GameNotOverError, ReviewFailedError
from magdagdon.services.retried_writes import KEPT_WRITES

if TYPE_CHECKING:
    from collections.abc import Callable

    from magdagdon.store import GameRecord, Store
    from magdagdon.store.reviews import ReviewRow

log = logging.getLogger("magdagdon.services.reviews")

#: A pending job that has reported nothing for this long is taken for dead and started again.
STALE = timedelta(seconds=120)
#: Jobs that may fail for one game before its review answers ``review_failed``.
ATTEMPTS = 3
#: The store is told of progress when it has moved on this much (each write is a transaction).
PROGRESS_STEP = 0.05


class Jobs(Protocol):
    """What runs the jobs: ``magdagdon.compute.Compute``'s ``background`` and ``running``."""

    def background(
        self,
        key: str,
        fn: Callable[..., Any],
        *args: Any,
        on_progress: Callable[[float], None],
        on_done: Callable[[Any], None],
        on_error: Callable[[BaseException], None] | None = None,
    ) -> bool: ...

    def running(self, key: str) -> bool: ...


@dataclass(frozen=True, slots=True)
class Pending:
    progress: float


@dataclass(frozen=True, slots=True)
class Done:
    review: dict[str, Any]


def review(store: Store, player: str, game_id: str, jobs: Jobs) -> Pending | Done:
    """The review of the player's game ``game_id``, or how far its computation is (starting it
    when nothing computes it). 404 for another player's game, 409 before the end."""
    game = games.load(store, player, game_id)
    if not game.state.is_over:
        raise GameNotOverError("the game is not over yet: a review is of a whole game")
    with store.read() as reads:
        row = reads.review(game_id)
    found = _answer(row, jobs.running(game_id) or KEPT_WRITES.holds(_kept(store, game_id)))
    return found if found is not None else _start(store, game, jobs)


def _answer(row: ReviewRow | None, running: bool) -> Pending | Done | None:
    """What the stored row answers; None when a job must start."""
    if row is None or row.format != REVIEW_FORMAT:
        return None
    if row.status == "done":
        assert row.result is not None
        return Done(json.loads(row.result))
    if row.status == "pending" and (running or clock.now() - _time(row.updated_at) < STALE):
        return Pending(row.progress)
    if row.status == "failed" and row.attempts >= ATTEMPTS:
        raise ReviewFailedError(f"the review could not be computed: {row.result}")
    return None


def _start(store: Store, game: GameRecord, jobs: Jobs) -> Pending | Done:
    stamp = clock.stamp()
    with store.write() as rows:
        rows.game(game.id)  # locked: of two polls that find no job, one starts it
        row = rows.review(game.id)
        found = _answer(row, running=False)
        if found is not None:  # another poll started it (or finished it) meanwhile
            return found
        if row is None:
            rows.start_review(game.id, REVIEW_FORMAT, stamp)
        else:
            again = row.attempts + 1 if row.format == REVIEW_FORMAT else 1
            rows.restart_review(game.id, REVIEW_FORMAT, stamp, again)
    played = [action_to_json(a) for a in store.actions(game.id)]
    try:
        jobs.background(
            game.id,
            compute,
            game.difficulty.value,
            game.seed,
            played,
            **_callbacks(store, game.id),
        )
    except BaseException:
        with store.write() as rows:  # nothing computes it: the next poll starts it again
            rows.forget_review(game.id)
        raise
    return Pending(0.0)


def _callbacks(store: Store, game_id: str) -> dict[str, Callable[[Any], None]]:
    """The job's reports, written to the store (in a thread of this server process)."""
    told = [0.0]

    def on_progress(fraction: float) -> None:
        if fraction - told[0] >= PROGRESS_STEP and fraction < 1:
            told[0] = fraction
            with store.write() as rows:
                rows.review_progress(game_id, round(fraction, 3), clock.stamp())

    def on_done(result: dict[str, Any]) -> None:
        def write() -> None:
            with store.write() as rows:
                rows.finish_review(game_id, result, clock.stamp())

        KEPT_WRITES.write(_kept(store, game_id), write)

    def on_error(error: BaseException) -> None:
        log.error("the review of game %s failed: %r", game_id, error)
        why = f"{type(error).__name__}: {error}"[:500]

        def write() -> None:
            with store.write() as rows:
                rows.fail_review(game_id, why, clock.stamp())

        KEPT_WRITES.write(_kept(store, game_id), write)

    return {"on_progress": on_progress, "on_done": on_done, "on_error": on_error}


def _kept(store: Store, game_id: str) -> str:
    return f"the review of game {game_id} (store {id(store):x})"


def _time(stamp: str) -> datetime:
    return clock.parse(stamp)


# ----- the job (in a compute process: module-level, its arguments plain data) -----------------

_values: Values | None = None  # one a process, its caches kept from one review to the next


def compute(
    difficulty: str, seed: int, actions: list[dict[str, Any]], *, progress: Callable[[float], None]
) -> dict[str, Any]:
    """The review of a finished game, from plain data (what a job gets)."""
    global _values
    if _values is None:
        _values = Values()
    played = [action_from_json(a) for a in actions]
    return review_game(Difficulty(difficulty), seed, played, progress=progress, values=_values)
