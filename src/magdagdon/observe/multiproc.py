"""The folder where each worker process of ``serve --workers N`` keeps its metrics
(``prometheus_client``'s multi-process mode, ``PROMETHEUS_MULTIPROC_DIR``), so that a scrape
answered by any worker adds up every worker's counts.

One folder per server run, emptied at its start (counts of an earlier run would be added to
this one's): the operator's ``PROMETHEUS_MULTIPROC_DIR`` if set, else a new temporary folder
removed at the end. A worker that ends is marked dead: its live gauges (jobs queued and
running, its start time) leave the sums, while its counters stay in the totals, as Prometheus
expects of a counter.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

VARIABLE = "PROMETHEUS_MULTIPROC_DIR"


def directory() -> Path | None:
    value = os.environ.get(VARIABLE)
    return Path(value) if value else None


def prepare() -> Path | None:
    """Set up the folder for a server run before its workers start; answers the folder to
    remove at the end (None: the operator's, kept)."""
    given = directory()
    if given is None:
        made = Path(tempfile.mkdtemp(prefix="magdagdon-metrics-"))
        os.environ[VARIABLE] = str(made)
        return made
    given.mkdir(parents=True, exist_ok=True)
    for old in given.glob("*.db"):
        old.unlink()
    return None


def finish(made: Path | None) -> None:
    if made is not None:
        shutil.rmtree(made, ignore_errors=True)
        os.environ.pop(VARIABLE, None)


def worker_gone(pid: int | None) -> None:
    """A worker process ended: its live gauges leave the sums."""
    if pid is None or directory() is None:
        return
    from prometheus_client import multiprocess

    multiprocess.mark_process_dead(pid)  # type: ignore[no-untyped-call]  # prometheus_client leaves it unannotated
