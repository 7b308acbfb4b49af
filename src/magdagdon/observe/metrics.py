"""The server's Prometheus metrics, and the one-line hooks that count them.

Names follow Prometheus's conventions: the ``magdagdon_`` prefix, the unit in the name
(``_seconds``), ``_total`` on counters (``prometheus_client`` adds it), and label values from
bounded sets only: a route's template (never its path: no game id), a method, a status, an
error's code, a mode, a difficulty, a pool's name. No player id, no address, no name.

The metrics are made on the first :func:`enable` (``create_app``), not at import: a server of
several processes chooses ``prometheus_client``'s multi-process store (``multiproc.py``) after
this module was imported (the supervisor imports every module before it forks its workers),
and the store is read when a metric is made. While counting is off (:func:`disable`:
``MAGDAGDON_METRICS=off``), every hook returns at once.
"""

from __future__ import annotations

import os
import re
import time
from typing import TYPE_CHECKING

from prometheus_client import Counter, Gauge, Histogram, disable_created_metrics, values
from prometheus_client.metrics import MetricWrapperBase

from magdagdon import __version__

if TYPE_CHECKING:
    from magdagdon.store.failures import Failure

#: Seconds: an answer from memory (~0.1 ms) to a hint at its time limit (20 s).
LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
#: Seconds of a compute job: a quick hint (~0.1 s) to a long review (600 s at most).
JOB_BUCKETS = (0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 20.0, 60.0, 120.0, 300.0, 600.0)
#: Actions in one group commit (``store/groupcommit.py``: 64 at most).
BATCH_BUCKETS = (1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0)
METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})
_CODE = re.compile(r"[a-z][a-z0-9_]{0,39}")
#: The kind of a database failure (``store/failures.py``'s reasons, a fixed set of sentences),
#: by a word of its reason: the first that matches.
_FAILURE_KINDS = (
    ("locked", "locked"),
    ("did not answer", "timeout"),
    ("busy", "busy"),
    ("read-only", "read_only"),
    ("full", "disk_full"),
    ("damaged", "damaged"),
    ("not a database", "damaged"),
    ("permission", "permission"),
    ("i/o", "io_error"),
    ("memory", "out_of_memory"),
    ("reached", "unreachable"),
    ("lost", "unreachable"),
    ("cannot open", "unreachable"),
)


class Metrics:
    """Every metric of one process (none is registered anywhere: ``exposition.py`` collects
    them, from this process's memory or from every worker's files)."""

    def __init__(self) -> None:
        def counter(name: str, doc: str, labels: tuple[str, ...] = ()) -> Counter:
            return Counter(f"magdagdon_{name}", doc, labels, registry=None)

        def histogram(
            name: str, doc: str, labels: tuple[str, ...], buckets: tuple[float, ...]
        ) -> Histogram:
            return Histogram(f"magdagdon_{name}", doc, labels, registry=None, buckets=buckets)

        def gauge(name: str, doc: str, labels: tuple[str, ...], mode: str) -> Gauge:
            return Gauge(f"magdagdon_{name}", doc, labels, registry=None, multiprocess_mode=mode)  # type: ignore[arg-type]  # the modes are prometheus_client's literal strings

        self.requests = counter(
            "http_requests",
            "HTTP requests answered, by route template, method and status.",
            ("route", "method", "status"),
        )
        self.latency = histogram(
            "http_request_duration_seconds",
            "Time from a request's arrival to its answer's end, by route template.",
            ("route", "method"),
            LATENCY_BUCKETS,
        )
        self.errors = counter(
            "http_errors",
            "Error answers (4xx and 5xx), by route template, status and the error's code.",
            ("route", "status", "code"),
        )
        self.actions = counter("actions_applied", "Actions applied to games and saved.")
        self.started = counter(
            "games_started", "Games begun, by mode and difficulty.", ("mode", "difficulty")
        )
        self.finished = counter(
            "games_finished", "Games played to their end, by mode and difficulty.",
            ("mode", "difficulty"),
        )  # fmt: skip
        self.daily = counter(
            "daily_attempts",
            "Attempts at a day's challenge, by difficulty and kind (ranked or practice).",
            ("difficulty", "kind"),
        )
        self.queued = gauge(
            "compute_jobs_queued",
            "Compute jobs waiting for a process, by pool (compute: hints; background: "
            "reviews; import).",
            ("pool",),
            "livesum",
        )
        self.running = gauge(
            "compute_jobs_running", "Compute jobs running, by pool.", ("pool",), "livesum"
        )
        self.refused = counter(
            "compute_jobs_refused",
            "Compute jobs refused, by pool and reason (busy: the queue was full; "
            "already_running: the player's previous one is under way).",
            ("pool", "reason"),
        )
        self.job_time = histogram(
            "compute_job_duration_seconds",
            "Time of a compute job from its start in a process to its end, by pool and outcome.",
            ("pool", "outcome"),
            JOB_BUCKETS,
        )
        self.batch = histogram(
            "group_commit_actions",
            "Actions committed together in one transaction of SQLite's group commit.",
            (),
            BATCH_BUCKETS,
        )
        self.failures = counter(
            "database_failures",
            "Times the database could not be used (the request answered 503), by kind.",
            ("kind",),
        )
        self.start_time = gauge(
            "process_start_time_seconds",
            "When this server process started, in seconds since the epoch.",
            (),
            "liveall",
        )
        self.info = gauge("build_info", "The server's version.", ("version",), "max")
        self.start_time.set(time.time())
        self.info.labels(__version__).set(1)
        # each (route, method, status) child once: labels() takes a lock and builds a tuple
        self._answers: dict[tuple[str, str, int], tuple[Counter, Histogram]] = {}

    def all(self) -> list[MetricWrapperBase]:
        return [value for value in vars(self).values() if isinstance(value, MetricWrapperBase)]

    def answered(self, route: str, method: str, status: int, seconds: float) -> None:
        key = (route, method, status)
        children = self._answers.get(key)
        if children is None:
            method = method if method in METHODS else "other"
            children = (
                self.requests.labels(route, method, str(status)),
                self.latency.labels(route, method),
            )
            self._answers[key] = children
        children[0].inc()
        children[1].observe(seconds)


_made: Metrics | None = None
_on: Metrics | None = None  # the metrics while counting is on


def enable() -> Metrics:
    """Count from now on (the metrics are made on the first call, with the value store that
    ``PROMETHEUS_MULTIPROC_DIR`` chooses)."""
    global _made, _on
    if _made is None:
        # the ``_created`` series: not in the multi-process mode, so in neither
        disable_created_metrics()  # type: ignore[no-untyped-call]  # prometheus_client leaves it unannotated
        multi = "PROMETHEUS_MULTIPROC_DIR" in os.environ
        if multi and not getattr(values.ValueClass, "_multiprocess", False):
            # prometheus_client chose its store when it was imported, before the variable
            values.ValueClass = values.MultiProcessValue()  # type: ignore[no-untyped-call]  # prometheus_client leaves it unannotated
        _made = Metrics()
    _on = _made
    return _made


def disable() -> None:
    global _on
    _on = None


def current() -> Metrics | None:
    """The metrics while counting is on."""
    return _on


# ----- the hooks: one line at the place that knows ------------------------------------------


def answered(route: str, method: str, status: int, seconds: float, code: str | None) -> None:
    """An HTTP answer (``api/edge/observe.py``); ``code``: an error answer's code."""
    if (m := _on) is None:
        return
    m.answered(route, method, status, seconds)
    if status >= 400:
        code = code if code is not None and _CODE.fullmatch(code) else "none"
        m.errors.labels(route, str(status), code).inc()


def action_applied(mode: str, difficulty: str, over: bool) -> None:
    """An action applied in its transaction (``over``: it ended the game). Counted before the
    commit: a transaction that then fails (the database failing at the commit itself) leaves
    the count that many actions high, and ``database_failures_total`` says so."""
    if (m := _on) is not None:
        m.actions.inc()
        if over:
            m.finished.labels(mode, difficulty).inc()


def game_started(mode: str, difficulty: str) -> None:
    if (m := _on) is not None:
        m.started.labels(mode, difficulty).inc()


def daily_attempt(difficulty: str, ranked: bool) -> None:
    if (m := _on) is not None:
        m.daily.labels(difficulty, "ranked" if ranked else "practice").inc()


def job_queued(pool: str) -> None:
    if (m := _on) is not None:
        m.queued.labels(pool).inc()


def job_started(pool: str) -> float:
    """A queued job starts in a process; answers the clock for :func:`job_ended`."""
    if (m := _on) is not None:
        m.queued.labels(pool).dec()
        m.running.labels(pool).inc()
    return time.perf_counter()


def job_dropped(pool: str) -> None:
    """A queued job that never ran (cancelled when the server stopped)."""
    if (m := _on) is not None:
        m.queued.labels(pool).dec()


def job_ended(pool: str, began: float, outcome: str) -> None:
    if (m := _on) is not None:
        m.running.labels(pool).dec()
        m.job_time.labels(pool, outcome).observe(time.perf_counter() - began)


def job_refused(pool: str, reason: str) -> None:
    if (m := _on) is not None:
        m.refused.labels(pool, reason).inc()


def group_committed(actions: int) -> None:
    if (m := _on) is not None:
        m.batch.observe(actions)


def database_failed(failure: Failure) -> None:
    if (m := _on) is not None:
        m.failures.labels(failure_kind(failure.reason)).inc()


def failure_kind(reason: str) -> str:
    """A bounded label for a failure's reason."""
    lowered = reason.lower()
    return next((kind for word, kind in _FAILURE_KINDS if word in lowered), "other")
