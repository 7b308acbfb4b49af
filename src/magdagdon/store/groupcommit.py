"""Group commit of a SQLite store's actions: one writer thread runs the actions that arrived
together in one write transaction, and answers each only after that transaction committed.

On SQLite every write of a process is serialised anyway (``Store.write``, ``writegate.py``),
and each transaction pays for itself: the write lock, ``BEGIN IMMEDIATE``, the commit's write
of the log's pages and its sync, and the hand-off of the request to a thread and back. Under
many players those costs were most of an action's. Here the actions that are waiting when the
writer becomes free all go into its next transaction, each in a savepoint of its own, so one
action the rules refuse (or that raises anything else) is rolled back alone and answered its
own error, while the others commit. The transaction is ``Store.write()``'s, with all its rules
(this process's write queue, the gate to SQLite's write lock, a database that cannot be used
now raising ``StorageUnavailableError``): if it fails, every action of the group fails with
that error, and none was saved. Saved before answered still holds: ``done`` is called only
once the commit returned (``synchronous=FULL``: on disk), or with the error.

An action that waited longer than the store's ``Waits.queue`` before its transaction began is
refused as ``Store.write`` refuses a write that waited that long for the queue (503).
"""

from __future__ import annotations

import logging
import threading
import time
from dataclasses import dataclass
from queue import Empty, SimpleQueue
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from magdagdon.observe import metrics
from magdagdon.store.failures import Failure, StorageUnavailableError, classify

if TYPE_CHECKING:
    from collections.abc import Callable

    from magdagdon.store.queries import Rows
    from magdagdon.store.store import Store

log = logging.getLogger("magdagdon.store")
R = TypeVar("R")
#: The most actions in one transaction: enough to share the commit among a crowd, few enough
#: that the first of them is not kept waiting long for the last.
MOST = 64
_LATE = Failure("the database is busy: too many writes wait for it", 1, reopen=False)


@dataclass(slots=True)
class _Job(Generic[R]):
    work: Callable[[Rows], R]
    done: Callable[[R | None, BaseException | None], None]
    queued: float


class GroupCommit:
    """The writer thread of one SQLite store (see the module); started with the first action,
    stopped by :meth:`close`, and started again by an action after that (a closed store opens
    its connections again when it is used, and so does its writer)."""

    def __init__(self, store: Store, most: int = MOST) -> None:
        self._store, self._most = store, most
        self._queue: SimpleQueue[_Job[Any] | None] = SimpleQueue()
        self._thread: threading.Thread | None = None
        self._starting = threading.Lock()

    def submit(
        self,
        work: Callable[[Rows], R],
        done: Callable[[R | None, BaseException | None], None],
    ) -> None:
        """Run ``work`` in the writer's next transaction, then call ``done(result, None)`` in
        the writer thread once it committed, or ``done(None, error)`` if ``work`` raised or the
        transaction failed. Never blocks on the database: fit for an event loop. ``done`` must
        not raise."""
        with self._starting:
            if self._thread is None:
                # each thread has a queue of its own: one that is closing ends after its jobs
                self._queue = SimpleQueue()
                self._thread = threading.Thread(
                    target=self._run, args=(self._queue,), name="magdagdon-writer", daemon=True
                )
                self._thread.start()
            self._queue.put(_Job(work, done, time.monotonic()))

    def close(self) -> None:
        """Commit what was submitted already, then stop the thread."""
        with self._starting:
            thread, queue = self._thread, self._queue
            self._thread = None
        if thread is not None:
            queue.put(None)
            thread.join()

    def _run(self, queue: SimpleQueue[_Job[Any] | None]) -> None:
        stop = False
        while not stop:
            first = queue.get()
            if first is None:
                return
            group = [first]
            while len(group) < self._most:
                try:
                    job = queue.get_nowait()
                except Empty:
                    break
                if job is None:
                    stop = True
                    break
                group.append(job)
            try:
                self._commit(group)
            except BaseException:  # a bug: the thread must live on for the next actions
                log.exception("the group commit failed")

    def _commit(self, group: list[_Job[Any]]) -> None:
        outcomes: list[tuple[Any, BaseException | None]] = []
        late = time.monotonic() - self._store.waits.queue
        on_time = [job for job in group if job.queued >= late]
        for job in group:
            if job.queued < late:
                metrics.database_failed(_LATE)
                _finish(job, None, StorageUnavailableError(_LATE))
        if not on_time:
            return
        metrics.group_committed(len(on_time))
        try:
            with self._store.write() as rows:
                for job in on_time:
                    outcomes.append(_one(rows, job))
        except BaseException as exc:  # the transaction failed: nothing of the group was saved
            outcomes = [(None, exc)] * len(on_time)
        for job, (result, error) in zip(on_time, outcomes, strict=True):
            _finish(job, result, error)


def _one(rows: Rows, job: _Job[Any]) -> tuple[Any, BaseException | None]:
    """``job`` in a savepoint of its own: rolled back alone when it raises. An error that means
    the database cannot be used now ends the whole transaction (re-raised)."""
    rows.savepoint("action")
    try:
        result = job.work(rows)
    except Exception as exc:
        if classify(exc) is not None:
            raise
        rows.rollback_to("action")
        rows.release("action")
        return None, exc
    rows.release("action")
    return result, None


def _finish(job: _Job[Any], result: object, error: BaseException | None) -> None:
    try:
        job.done(result, error)
    except Exception:  # the caller's bug, or its event loop gone: the others are answered
        log.exception("an action's answer failed")
