"""Heavy computation apart from the players' actions: hints, game reviews, imports' replays.

The bots are CPU-heavy pure Python; in a thread of the server they would hold the GIL against
the event loop and the actions. So they run in a few compute **processes** of their own, at a
lower CPU priority, bounded three ways: one job of a kind per player at a time, a bounded queue
in all, and a time limit per job. Each server process (each ``--workers`` worker) has its own.

Two ways to use it (``app.state.compute`` in the API):

``await compute.run(kind, fn, *args, player=token)``
    A request that waits for its answer (a hint; an import, kind :data:`IMPORT`, in processes
    of its own with their own queue and time limit). ``fn`` is a module-level function (it is
    pickled to the process, with ``args``); its result comes back. Refused at once with
    :class:`AlreadyRunningError` (API: 429 ``rate_limited``, ``Retry-After: 1``) while the
    player has a job of this ``kind`` under way, with :class:`ComputeBusyError` (503 ``busy``)
    when the queue is full; :class:`ComputeTimeoutError` (503 ``busy``) past the time limit.

``compute.background(key, fn, *args, on_progress=…, on_done=…, on_error=…)``
    A job whose progress is stored and polled (a whole game's review). ``fn`` is called as
    ``fn(*args, progress=report)`` and may call ``report(fraction)`` (0..1) as often as it
    likes; ``on_progress(fraction)``, then ``on_done(result)`` or ``on_error(exception)``, run
    in a thread of this server process (not the event loop: they may write to the store). One
    job per ``key`` at a time in this process: while one is queued or running,
    ``background`` answers False and starts nothing. Background jobs have processes of their
    own, so a long review never delays a hint. The state a poll reads is whatever the
    callbacks stored: with several workers, another worker may take the poll, and a worker
    that dies takes its jobs with it, so a poller that finds a job stale starts it again.
"""

from __future__ import annotations

import asyncio
import threading
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

from magdagdon.compute.errors import (
    AlreadyRunningError,
    ComputeBusyError,
    ComputeError,
    ComputeFailedError,
    ComputeTimeoutError,
)
from magdagdon.compute.pool import Pool
from magdagdon.observe import metrics

if TYPE_CHECKING:
    from collections.abc import Callable
    from concurrent.futures import Future

__all__ = [
    "AlreadyRunningError",
    "Compute",
    "ComputeBusyError",
    "ComputeError",
    "ComputeFailedError",
    "ComputeTimeoutError",
    "Limits",
]

T = TypeVar("T")
IMPORT = "import"  # the kind of job that runs in the import processes


@dataclass(frozen=True, slots=True)
class Limits:
    processes: int = 1  # for requests that wait (hints)
    queue: int = 16  # jobs that may wait for one of them
    timeout: float = 20.0  # seconds a waited-for job may take
    background_processes: int = 1  # for background jobs (reviews)
    background_queue: int = 64
    background_timeout: float = 600.0
    import_processes: int = 1  # for imports (``kind`` "import"): a file's replay
    import_queue: int = 1
    import_timeout: float = 120.0


class Compute:
    """The compute processes of one server process; ``warm`` runs once in each of them."""

    def __init__(self, limits: Limits, warm: Callable[[], object] | None = None) -> None:
        self.limits = limits
        self._waited = Pool("compute", limits.processes, limits.queue, warm)
        self._background = Pool(
            "background", limits.background_processes, limits.background_queue, warm
        )
        self._imports = Pool("import", limits.import_processes, limits.import_queue)
        self._lock = threading.Lock()
        self._running: set[tuple[str, str]] = set()  # (kind, player) of waited-for jobs
        self._jobs: set[str] = set()  # keys of background jobs queued or running

    async def run(self, kind: str, fn: Callable[..., T], *args: Any, player: str) -> T:
        """``fn(*args)`` in a compute process; see the module's docstring."""
        slot = (kind, player)
        with self._lock:
            if slot in self._running:
                metrics.job_refused(self.pool_name(kind), "already_running")
                raise AlreadyRunningError(f"a {kind} is already being computed for you")
            self._running.add(slot)
        pool = self._pool(kind)
        timeout = self.limits.import_timeout if kind == IMPORT else self.limits.timeout
        try:
            future = pool.submit(fn, args, timeout=timeout)
        except BaseException:
            self._release(slot)
            raise
        # freed when the job ends, not when this request does: a player who disconnects
        # does not get a second job beside the first
        future.add_done_callback(lambda _: self._release(slot))
        result: T = await asyncio.wrap_future(future)
        return result

    def full(self, kind: str) -> bool:
        """Whether a job of this kind would be refused as busy now: a route with a large body
        checks it before reading the body, so that a flood of refused requests costs little
        (``run`` checks it again, atomically)."""
        pool = self._pool(kind)
        return pool.pending >= pool.size + pool.queue_limit

    def pool_name(self, kind: str) -> str:
        """The name of the processes that run jobs of this kind (the metrics' ``pool``)."""
        return self._pool(kind).name

    def _pool(self, kind: str) -> Pool:
        # an import's replay has processes of its own, so that a long one never delays a hint
        return self._imports if kind == IMPORT else self._waited

    def computing(self, kind: str, player: str) -> bool:
        """Whether the player has a job of this kind under way: a route checks it before any
        other work, so that a client asking again and again costs the server next to nothing
        (``run`` checks it again, atomically)."""
        with self._lock:
            return (kind, player) in self._running

    def background(
        self,
        key: str,
        fn: Callable[..., T],
        *args: Any,
        on_progress: Callable[[float], None],
        on_done: Callable[[T], None],
        on_error: Callable[[BaseException], None] | None = None,
    ) -> bool:
        """Start ``fn(*args, progress=report)`` unless job ``key`` is under way here; see the
        module's docstring. Raises ComputeBusyError when too many jobs wait."""
        with self._lock:
            if key in self._jobs:
                return False
            self._jobs.add(key)
        try:
            future = self._background.submit(
                fn, args, timeout=self.limits.background_timeout, on_progress=on_progress
            )
        except BaseException:
            with self._lock:
                self._jobs.discard(key)
            raise

        def finished(done: Future[Any]) -> None:
            with self._lock:
                self._jobs.discard(key)
            if done.cancelled():
                return
            error = done.exception()
            if error is None:
                on_done(done.result())
            elif on_error is not None:
                on_error(error)

        future.add_done_callback(finished)
        return True

    def running(self, key: str) -> bool:
        """Whether background job ``key`` is queued or running in this process."""
        with self._lock:
            return key in self._jobs

    def start(self) -> None:
        """Start the hints' processes now (in the background), so that the first hint does not
        wait for one to start; the background jobs' processes start with their first job."""
        self._waited.start()

    def close(self) -> None:
        self._waited.close()
        self._background.close()
        self._imports.close()

    def _release(self, slot: tuple[str, str]) -> None:
        with self._lock:
            self._running.discard(slot)
