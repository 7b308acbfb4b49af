"""The reviews' reads and writes (the ``reviews`` table): a game's review row, a job started or
restarted, its progress, its result or its failure. Statements are built once at import, as in
``statements.py``; the rules that use them (when to start, when a job is stale) are
``magdagdon.services.reviews``'s."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sqlalchemy import bindparam, delete, insert, select, update

from magdagdon.store.records import to_json_text
from magdagdon.store.tables import reviews

if TYPE_CHECKING:
    from sqlalchemy import Connection

_v = reviews.c

READ = select(
    _v.status, _v.format, _v.progress, _v.attempts, _v.result, _v.started_at, _v.updated_at
).where(_v.game_id == bindparam("game_id"))
INSERT = insert(reviews).values(
    game_id=bindparam("game_id"),
    status="pending",
    format=bindparam("format"),
    progress=0.0,
    attempts=1,
    result=None,
    started_at=bindparam("stamp"),
    updated_at=bindparam("stamp"),
)
RESTART = (
    update(reviews)
    .where(_v.game_id == bindparam("b_game_id"))
    .values(
        status="pending",
        format=bindparam("b_format"),
        progress=0.0,
        attempts=bindparam("b_attempts"),
        result=None,
        started_at=bindparam("b_stamp"),
        updated_at=bindparam("b_stamp"),
    )
)
# Progress and the end only change a job that is still pending (a restarted job's late reports,
# or a second job's, cannot undo a result).
PROGRESS = (
    update(reviews)
    .where(_v.game_id == bindparam("b_game_id"), _v.status == "pending")
    .values(progress=bindparam("b_progress"), updated_at=bindparam("b_stamp"))
)
FINISH = (
    update(reviews)
    .where(_v.game_id == bindparam("b_game_id"), _v.status == "pending")
    .values(
        status=bindparam("b_status"),
        progress=bindparam("b_progress"),
        result=bindparam("b_result"),
        updated_at=bindparam("b_stamp"),
    )
)

FORGET = delete(reviews).where(_v.game_id == bindparam("game_id"))


@dataclass(frozen=True, slots=True)
class ReviewRow:
    """A game's review as stored: ``result`` is the review's JSON text once ``done`` (a failed
    job's message once ``failed``)."""

    status: str
    format: int
    progress: float
    attempts: int
    result: str | None
    started_at: str
    updated_at: str


class ReviewReads:
    """Part of :class:`~magdagdon.store.queries.Reads`."""

    conn: Connection

    def review(self, game_id: str) -> ReviewRow | None:
        row = self.conn.execute(READ, {"game_id": game_id}).first()
        return None if row is None else ReviewRow(*row)


class ReviewWrites:
    """Part of :class:`~magdagdon.store.queries.Rows`."""

    conn: Connection

    def start_review(self, game_id: str, format: int, stamp: str) -> None:
        """A game's first job begins: its row, pending (attempt 1)."""
        self.conn.execute(INSERT, {"game_id": game_id, "format": format, "stamp": stamp})

    def restart_review(self, game_id: str, format: int, stamp: str, attempts: int) -> None:
        """A job begins again (a stale or failed one, or a review of an older format): the row
        is pending once more, at attempt ``attempts``."""
        values = {"b_format": format, "b_attempts": attempts, "b_stamp": stamp}
        self.conn.execute(RESTART, {"b_game_id": game_id, **values})

    def review_progress(self, game_id: str, fraction: float, stamp: str) -> None:
        self.conn.execute(
            PROGRESS, {"b_game_id": game_id, "b_progress": fraction, "b_stamp": stamp}
        )

    def finish_review(self, game_id: str, review: dict[str, Any], stamp: str) -> None:
        """The job ended with ``review`` (kept as its JSON text)."""
        self._end(game_id, "done", 1.0, to_json_text(review), stamp)

    def fail_review(self, game_id: str, why: str, stamp: str) -> None:
        """The job failed: ``why`` is kept as the row's result."""
        self._end(game_id, "failed", 0.0, why, stamp)

    def _end(self, game_id: str, status: str, progress: float, result: str, stamp: str) -> None:
        values = {"b_status": status, "b_progress": progress, "b_result": result, "b_stamp": stamp}
        self.conn.execute(FINISH, {"b_game_id": game_id, **values})

    def forget_review(self, game_id: str) -> None:
        """No job computes the review after all (it could not be started): no row, as before."""
        self.conn.execute(FORGET, {"game_id": game_id})
