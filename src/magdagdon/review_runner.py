"""Background jobs in one thread of this server process: the reviews' runner until the compute
processes (``magdagdon.compute``) are on main, with the same ``background`` / ``running``.

One job at a time, in order; one job per key queued or running."""

from __future__ import annotations

import logging
import queue
import threading
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Callable

log = logging.getLogger("magdagdon.reviews")

_Job = tuple[str, "Callable[..., Any]", tuple[Any, ...], dict[str, "Callable[..., None] | None"]]


class ThreadJobs:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._keys: set[str] = set()
        self._queue: queue.Queue[_Job] = queue.Queue()
        self._thread: threading.Thread | None = None

    def background(
        self,
        key: str,
        fn: Callable[..., Any],
        *args: Any,
        on_progress: Callable[[float], None],
        on_done: Callable[[Any], None],
        on_error: Callable[[BaseException], None] | None = None,
    ) -> bool:
        """Queue ``fn(*args, progress=on_progress)`` unless job ``key`` is under way."""
        with self._lock:
            if key in self._keys:
                return False
            self._keys.add(key)
            if self._thread is None:
                self._thread = threading.Thread(target=self._work, name="reviews", daemon=True)
                self._thread.start()
        callbacks = {"progress": on_progress, "done": on_done, "error": on_error}
        self._queue.put((key, fn, args, callbacks))
        return True

    def running(self, key: str) -> bool:
        with self._lock:
            return key in self._keys

    def _work(self) -> None:
        while True:
            key, fn, args, callbacks = self._queue.get()
            try:
                try:
                    result = fn(*args, progress=callbacks["progress"])
                except Exception as error:  # the job's fault: told, and the thread goes on
                    if callbacks["error"] is None:
                        raise
                    callbacks["error"](error)
                else:
                    done = callbacks["done"]
                    assert done is not None
                    done(result)
            except Exception:  # a report that could not be stored: the next poll restarts it
                log.exception("background job %s failed", key)
            finally:
                with self._lock:
                    self._keys.discard(key)
