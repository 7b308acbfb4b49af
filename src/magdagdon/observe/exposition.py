"""The metrics in Prometheus's text format: this process's own (one process), or every worker's
added up from their files (``multiproc.py``), with the gauges read at the scrape itself."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from prometheus_client import CONTENT_TYPE_PLAIN_0_0_4, CollectorRegistry, generate_latest
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.multiprocess import MultiProcessCollector

from magdagdon.observe import metrics, multiproc

if TYPE_CHECKING:
    from collections.abc import Iterator, Mapping

    from prometheus_client.metrics_core import Metric

#: The text format ``generate_latest`` writes (every Prometheus 2 reads it)
CONTENT_TYPE = CONTENT_TYPE_PLAIN_0_0_4


#: A worker's file holds at least the 4 bytes that say how much of it is used
_HEADER = 4


class _Workers(MultiProcessCollector):
    """Every worker's file added up, but for a file a worker is creating at this moment (a
    worker just started, or started again in place of one that ended): it exists at 0 bytes
    before it is sized, and holds no count yet. Read, it would fail the whole scrape."""

    def collect(self) -> Iterator[Metric]:
        files = [str(path) for path in Path(self._path).glob("*.db") if _sized(path)]
        return self.merge(files, accumulate=True)  # type: ignore[no-untyped-call, no-any-return]  # prometheus_client leaves it unannotated


def _sized(path: Path) -> bool:
    try:
        return path.stat().st_size >= _HEADER
    except FileNotFoundError:  # a live gauge's file, of a worker marked dead since the glob
        return False


class _AtScrape:
    """The gauges read at the scrape by whichever worker answers it: the database's state and
    today's players, the same for every worker."""

    def __init__(self, database_up: bool, daily_players: Mapping[str, int] | None) -> None:
        self.database_up, self.daily_players = database_up, daily_players

    def collect(self) -> Iterator[Metric]:
        yield GaugeMetricFamily(
            "magdagdon_database_up",
            "Whether the database can be used now (1) or not (0), probed at the scrape.",
            value=1.0 if self.database_up else 0.0,
        )
        if self.daily_players is not None:
            players = GaugeMetricFamily(
                "magdagdon_daily_players",
                "Players on today's table (a finished ranked attempt), by difficulty.",
                labels=["difficulty"],
            )
            for difficulty, count in self.daily_players.items():
                players.add_metric([difficulty], float(count))
            yield players


def render(database_up: bool, daily_players: Mapping[str, int] | None) -> bytes:
    """The text a scrape gets (blocking: it reads the workers' files)."""
    registry = CollectorRegistry(auto_describe=False)
    if multiproc.directory() is not None:
        _Workers(registry)  # type: ignore[no-untyped-call]  # prometheus_client leaves it unannotated
    else:
        counted = metrics.current()
        for metric in counted.all() if counted is not None else ():
            registry.register(metric)
    registry.register(_AtScrape(database_up, daily_players))
    return generate_latest(registry)
