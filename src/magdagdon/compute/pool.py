"""A fixed number of compute processes fed from one bounded queue (the parent's side).

Each process has a driver thread here that takes the next job, sends it, relays its progress,
and waits for its result until the job's time limit: past it, the process is killed and a new
one started for the next job. The processes are spawned (a fresh interpreter: no threads or
locks inherited from the server) on first use, and each runs ``warm`` once before its first job.
"""

from __future__ import annotations

import itertools
import logging
import multiprocessing
import queue
import threading
import time
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from magdagdon.compute import worker
from magdagdon.compute.errors import ComputeBusyError, ComputeFailedError, ComputeTimeoutError
from magdagdon.observe import metrics

if TYPE_CHECKING:
    from collections.abc import Callable
    from multiprocessing.connection import Connection
    from multiprocessing.context import SpawnProcess

log = logging.getLogger("magdagdon.compute")
START_TIMEOUT = 60.0  # seconds for a new process to import the code and warm its caches
_SPAWN = multiprocessing.get_context("spawn")


@dataclass
class Job:
    fn: Callable[..., Any]
    args: tuple[Any, ...]
    timeout: float
    on_progress: Callable[[float], None] | None = None
    future: Future[Any] = field(default_factory=Future)


class Pool:
    """``size`` processes; at most ``size + queue_limit`` jobs in it at once, running or
    waiting (more: ComputeBusyError)."""

    def __init__(
        self, name: str, size: int, queue_limit: int, warm: Callable[[], object] | None = None
    ) -> None:
        self.name, self.size, self.queue_limit, self.warm = name, size, queue_limit, warm
        self._jobs: queue.PriorityQueue[tuple[int, int, Job | None]] = queue.PriorityQueue()
        self._order = itertools.count()
        self._lock = threading.Lock()
        self._pending = 0  # jobs submitted and not yet ended
        self._slots: list[_Slot] = []
        self._closed = False

    def submit(
        self,
        fn: Callable[..., Any],
        args: tuple[Any, ...],
        *,
        timeout: float,
        on_progress: Callable[[float], None] | None = None,
    ) -> Future[Any]:
        """Queue ``fn(*args)`` (``fn`` and ``args`` must pickle: a module-level function);
        its future gets the result, the job's exception, ComputeTimeoutError or
        ComputeFailedError."""
        job = Job(fn, args, timeout, on_progress)
        with self._lock:
            if self._closed:
                raise ComputeFailedError("the server is stopping")
            if self._pending >= self.size + self.queue_limit:
                metrics.job_refused(self.name, "busy")
                raise ComputeBusyError(f"{self._pending} {self.name} jobs are under way already")
            self._pending += 1
            if not self._slots:
                self._slots = [_Slot(self, index) for index in range(self.size)]
        job.future.add_done_callback(self._ended)
        metrics.job_queued(self.name)
        self._jobs.put((0, next(self._order), job))
        return job.future

    @property
    def closed(self) -> bool:
        return self._closed

    @property
    def pending(self) -> int:
        """Jobs submitted and not yet ended (running or waiting)."""
        return self._pending

    def start(self) -> None:
        """Start the processes now, in the background, rather than with the first job."""
        with self._lock:
            if not self._slots and not self._closed:
                self._slots = [_Slot(self, index, early=True) for index in range(self.size)]

    def take(self) -> Job | None:
        """The next job for a driver thread (None: stop)."""
        return self._jobs.get()[2]

    def _ended(self, _: Future[Any]) -> None:
        with self._lock:
            self._pending -= 1

    def close(self) -> None:
        """Cancel the waiting jobs, stop the running ones (their futures fail), end the
        processes."""
        with self._lock:
            self._closed = True
            slots = list(self._slots)
        while True:
            try:
                _, _, job = self._jobs.get_nowait()
            except queue.Empty:
                break
            if job is not None:
                metrics.job_dropped(self.name)
                job.future.cancel()
        for _ in slots:
            self._jobs.put((1, next(self._order), None))
        for slot in slots:
            slot.stop()


class _Slot:
    """One compute process and the thread that drives it."""

    def __init__(self, pool: Pool, index: int, *, early: bool = False) -> None:
        self.pool, self.early = pool, early
        self.name = f"magdagdon-{pool.name}-{index}"
        self.process: SpawnProcess | None = None
        self.conn: Connection | None = None
        self.thread = threading.Thread(target=self._drive, name=self.name, daemon=True)
        self.thread.start()

    def _drive(self) -> None:
        if self.early:
            try:
                self._ready_process()
            except Exception as exc:  # the first job starts one again
                self._end_process()
                if not self.pool.closed:  # a server stopping as it starts interrupts it
                    log.warning("a compute process did not start: %r", exc)
        while (job := self.pool.take()) is not None:
            if not job.future.set_running_or_notify_cancel():
                metrics.job_dropped(self.pool.name)
                continue
            began = metrics.job_started(self.pool.name)
            try:
                self._run(job)
            finally:
                metrics.job_ended(self.pool.name, began, _outcome(job.future))
        self._end_process()

    def _run(self, job: Job) -> None:
        try:
            conn = self._ready_process()
            conn.send((job.fn, job.args, job.on_progress is not None))
        except Exception as exc:  # the process would not start, or the job does not pickle
            self._end_process()
            job.future.set_exception(ComputeFailedError(f"the job could not be started: {exc}"))
            return
        deadline = time.monotonic() + job.timeout
        while True:
            left = deadline - time.monotonic()
            try:
                arrived = left > 0 and conn.poll(left)
                message = conn.recv() if arrived else None
            except (EOFError, OSError):
                self._end_process()
                job.future.set_exception(ComputeFailedError("the compute process died"))
                return
            if message is None:
                self._end_process()  # killed mid-job: the next job gets a new process
                job.future.set_exception(ComputeTimeoutError(f"over {job.timeout:g} s"))
                return
            kind, value = message
            if kind == "progress" and job.on_progress is not None:
                try:
                    job.on_progress(value)
                except Exception:
                    log.exception("a progress callback failed")
            elif kind == "done":
                job.future.set_result(value)
                return
            elif kind == "error":
                job.future.set_exception(value)
                return

    def _ready_process(self) -> Connection:
        if self.process is not None and self.process.is_alive() and self.conn is not None:
            return self.conn
        self._end_process()
        parent, child = _SPAWN.Pipe()
        process = _SPAWN.Process(
            target=worker.main, args=(child, self.pool.warm), name=self.name, daemon=True
        )
        process.start()
        child.close()
        self.process, self.conn = process, parent
        if not parent.poll(START_TIMEOUT) or parent.recv() != ("ready", None):
            raise ComputeFailedError("the compute process did not start")
        return parent

    def _end_process(self) -> None:
        if self.conn is not None:
            self.conn.close()
        if self.process is not None:
            self.process.kill()
            self.process.join(5)
        self.process = self.conn = None

    def stop(self) -> None:
        process = self.process
        if process is not None:
            process.kill()  # a job under way fails at once (its pipe closes)
        self.thread.join(10)


def _outcome(future: Future[Any]) -> str:
    """How a job ended, as its metric's label says it."""
    if not future.done():
        return "failed"
    error = future.exception()
    if error is None:
        return "done"
    if isinstance(error, ComputeTimeoutError):
        return "timeout"
    return "failed" if isinstance(error, ComputeFailedError) else "error"
