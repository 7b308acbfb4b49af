"""Writes that must not be lost when the database refuses them for a while: a review finished
during an outage (``services/reviews.py``) is kept in this server process and written again,
with a growing wait between tries, until the database takes it.

Memory is bounded: at most :data:`KEPT` writes wait; past that the oldest is dropped (logged),
and that review is computed again when a poll finds its row stale. A write that fails for a
reason other than the database being unavailable is a bug: logged and dropped.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import OrderedDict
from typing import TYPE_CHECKING

from magdagdon.store.failures import StorageUnavailableError

if TYPE_CHECKING:
    from collections.abc import Callable

log = logging.getLogger("magdagdon.services.retried_writes")
KEPT = 256
FIRST_WAIT = 0.25  # seconds before the first try again, doubled after each failure
LAST_WAIT = 15.0


class RetriedWrites:
    """Writes kept by key (one a key: a newer one replaces it), tried again in a thread."""

    def __init__(self, kept: int = KEPT) -> None:
        self.kept = kept
        self._writes: OrderedDict[str, Callable[[], None]] = OrderedDict()
        self._lock = threading.Lock()
        self._wake = threading.Condition(self._lock)
        self._thread: threading.Thread | None = None

    def write(self, key: str, write: Callable[[], None]) -> None:
        """Run ``write`` now; when the database refuses it, keep it and try again later."""
        try:
            write()
        except StorageUnavailableError as exc:
            log.warning("kept to write again (%s): %s", exc.reason, key)
            self._keep(key, write)

    def holds(self, key: str) -> bool:
        """Whether a write of ``key`` waits to be tried again."""
        with self._lock:
            return key in self._writes

    def _keep(self, key: str, write: Callable[[], None]) -> None:
        with self._lock:
            self._writes[key] = write
            self._writes.move_to_end(key)
            while len(self._writes) > self.kept:
                dropped, _ = self._writes.popitem(last=False)
                log.error("too many writes wait for the database: dropped %s", dropped)
            if self._thread is None:
                self._thread = threading.Thread(target=self._retry, name="retried-writes")
                self._thread.daemon = True
                self._thread.start()
            self._wake.notify()

    def _retry(self) -> None:
        wait = FIRST_WAIT
        while True:
            with self._lock:
                while not self._writes:
                    self._wake.wait()
                key, write = next(iter(self._writes.items()))
            try:
                write()
            except StorageUnavailableError:
                time.sleep(wait)
                wait = min(wait * 2, LAST_WAIT)
                continue
            except Exception:
                log.exception("a kept write failed for good: %s", key)
            else:
                log.warning("written at last: %s", key)
            wait = FIRST_WAIT
            with self._lock:
                if self._writes.get(key) is write:
                    del self._writes[key]


#: This server process's kept writes.
KEPT_WRITES = RetriedWrites()
