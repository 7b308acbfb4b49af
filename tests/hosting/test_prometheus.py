"""A real Prometheus scrapes ``magdagdon serve --workers 2`` under load: the rates and the
histogram quantiles it computes are those of the requests sent (counted in the server's own
JSON log, one line a request), the two workers' counts added up; the alert rules and the
dashboard of ``docs/hosting/`` load and evaluate; ``promtool`` accepts the metrics and the
rules; a worker killed leaves the live gauges and keeps its counts in the totals."""

from __future__ import annotations

import bisect
import http.client
import json
import math
import os
import re
import signal
import subprocess
import threading
import time
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

import server_process
from hosting.playing import Player
from hosting.prometheus_server import INTERVAL, PROMTOOL, Prometheus
from hosting.worker_procs import workers_of
from magdagdon.observe.metrics import LATENCY_BUCKETS
from server_process import launch_server
from waits import EVENTUALLY, wait_until

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

    from server_process import ServerProcess

pytestmark = pytest.mark.slow
DOCS = Path(__file__).resolve().parents[2] / "docs" / "hosting"
ALERTS = DOCS / "prometheus-alerts.yml"
DASHBOARD = DOCS / "grafana-dashboard.json"
ACTION = "/api/games/{game_id}/actions"
CLIENTS = 6
LOAD_SECONDS = 30  # long beside the scrape interval: see the rate's margin
LOAD_ACTIONS = 200  # acknowledged actions of the load, at the least


@pytest.fixture
def server(
    make_db: Callable[..., str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[ServerProcess]:
    monkeypatch.setattr(server_process, "SERVER_START_TIMEOUT", 180.0)
    monkeypatch.setenv("MAGDAGDON_RATE_LIMITS", "false")  # the load starts games quickly
    monkeypatch.delenv("PROMETHEUS_MULTIPROC_DIR", raising=False)
    args = ("--workers", "2", "--log-format", "json")
    started = launch_server(make_db("sqlite"), tmp_path / "logs", *args)
    yield started
    started.kill()


@pytest.fixture
def prometheus(server: ServerProcess, tmp_path: Path) -> Iterator[Prometheus]:
    started = Prometheus(tmp_path / "prometheus", f"{server.host}:{server.port}", [ALERTS])
    yield started
    started.stop()


def request_lines(server: ServerProcess) -> list[dict[str, Any]]:
    """The server's log line of each request answered so far."""
    lines = (json.loads(line) for line in server.stderr().splitlines() if line.startswith("{"))
    return [line for line in lines if line["logger"] == "magdagdon.request"]


def count(lines: list[dict[str, Any]], **fields: object) -> int:
    return sum(all(line.get(k) == v for k, v in fields.items()) for line in lines)


def call(
    server: ServerProcess, method: str, path: str, body: Any = None, cookie: str = ""
) -> tuple[int, Any]:
    conn = http.client.HTTPConnection(server.host, server.port, timeout=EVENTUALLY)
    try:
        headers = {"content-type": "application/json", "cookie": cookie}
        conn.request(method, path, None if body is None else json.dumps(body), headers)
        answer = conn.getresponse()
        data = answer.read()
        return answer.status, json.loads(data) if data.startswith(b"{") else data
    finally:
        conn.close()


def bucket_bounds(seconds: float) -> tuple[float, float]:
    """The histogram bucket that holds ``seconds``: (its lower bound, its upper bound)."""
    index = bisect.bisect_left(LATENCY_BUCKETS, seconds)
    lower = LATENCY_BUCKETS[index - 1] if index > 0 else 0.0
    upper = LATENCY_BUCKETS[index] if index < len(LATENCY_BUCKETS) else math.inf
    return lower, upper


def test_prometheus_finds_the_requests_sent_to_two_workers_under_load(
    server: ServerProcess, prometheus: Prometheus
) -> None:
    prom = prometheus
    served = f'sum(magdagdon_http_requests_total{{route="{ACTION}",status="200"}})'
    # the series exist and are scraped before the load, so that a rate sees all of the load
    warm_stop = threading.Event()
    warm = Player(server, 99, warm_stop)
    warm.start()
    wait_until(lambda: len(warm.acknowledged) >= 2, "a first action")
    warm_stop.set()
    warm.join(EVENTUALLY)
    call(server, "POST", "/api/games/nosuchgame/actions", {"type": "nonsense"})
    wait_until(lambda: prom.value(served), "Prometheus scraped the first actions")
    start = time.time()
    wait_until(
        lambda: (prom.value("max(timestamp(magdagdon_build_info))") or 0) > start, "a scrape"
    )

    stop = threading.Event()
    players = [Player(server, index, stop) for index in range(CLIENTS)]
    for player in players:
        player.start()
    malformed = 0
    for _ in range(20):  # error answers beside the load: 422 malformed
        status, _ = call(server, "POST", "/api/games/nosuchgame/actions", {"type": "nonsense"})
        malformed += status == 422
    # a job of the compute pool: a hint in a game just begun (the warm player's last may be over)
    begun, game = warm.call("POST", "/api/games", {"difficulty": "survival"})
    assert begun == 201, game
    hint, _ = warm.call("GET", f"/api/games/{game['id']}/hint")
    warm.conn.close()

    def loaded() -> bool:
        acknowledged = sum(len(p.acknowledged) for p in players)
        return time.time() - start >= LOAD_SECONDS and acknowledged >= LOAD_ACTIONS

    wait_until(loaded, "the load")
    stop.set()
    for player in players:
        player.join(EVENTUALLY)
    assert malformed == 20

    # every answer counted, the two workers' added up: as the server's log has them
    def settled() -> list[dict[str, Any]] | None:
        lines = request_lines(server)
        actions = count(lines, route=ACTION, method="POST", status=200)
        return lines if prom.value(served) == actions else None

    lines = wait_until(settled, "Prometheus's count of actions is the log's")
    end = time.time()
    wait_until(lambda: (prom.value("max(timestamp(magdagdon_build_info))") or 0) > end, "a scrape")
    workers = {line["worker"] for line in lines}
    assert len(workers) == 2, workers  # both workers answered
    assert prom.value("count(magdagdon_process_start_time_seconds)") == 2
    assert prom.value("sum(magdagdon_actions_applied_total)") == count(
        lines, route=ACTION, status=200
    )
    assert prom.value("sum(magdagdon_games_started_total)") == count(
        lines, route="/api/games", method="POST", status=201
    )
    assert prom.value('sum(magdagdon_http_errors_total{code="malformed"})') == count(
        lines, code="malformed"
    )
    assert prom.value("sum(magdagdon_group_commit_actions_count)")
    assert (prom.value("sum(magdagdon_group_commit_actions_sum)") or 0) >= count(
        lines, route=ACTION, status=200
    )
    assert hint == 200
    assert prom.value('sum(magdagdon_compute_job_duration_seconds_count{pool="compute"})') == 1
    assert prom.value('sum(magdagdon_compute_jobs_running{pool="compute"})') == 0
    assert prom.value("min(magdagdon_database_up)") == 1
    assert prom.value('count(magdagdon_daily_players{difficulty="survival"})') == 1

    # the rate and the quantiles over the load's window: those of the requests the log has
    window = math.ceil(end - start) + 2 * INTERVAL
    load = [line for line in lines if line["route"] == ACTION and line["method"] == "POST"]
    load = [line for line in load if _logged_at(line) >= start]
    ok = [line for line in load if line["status"] == 200]
    rate = prom.value(
        f'sum(rate(magdagdon_http_requests_total{{route="{ACTION}",status="200"}}[{window}s]))',
        at=end,
    )
    assert rate is not None
    # Prometheus stretches the increase it saw between its first and last samples in the
    # window to the window's ends (up to 1.1 average scrape intervals at each, longer than
    # INTERVAL when a scrape of the loaded server timed out): a few % here
    low, high = len(ok) / window, len(ok) / (window - 3 * INTERVAL)
    assert 0.99 * low <= rate <= 1.01 * high, (rate, low, high, window)
    durations = sorted(line["duration_ms"] / 1000 for line in load)
    for q in (0.5, 0.99):
        found = prom.value(
            f"histogram_quantile({q}, sum by (le) (rate("
            f'magdagdon_http_request_duration_seconds_bucket{{route="{ACTION}"}}[{window}s])))',
            at=end,
        )
        assert found is not None
        # the histogram knows a quantile to its bucket: the one of the log's own quantile,
        # give or take a rank or two of the requests at the window's edges
        low = durations[max(0, math.floor((q - 0.01) * len(durations)) - 1)]
        high = durations[min(len(durations) - 1, math.ceil((q + 0.01) * len(durations)))]
        assert bucket_bounds(low)[0] <= found <= bucket_bounds(high)[1], (q, found, low, high)

    check_rules(prom)
    check_dashboard(prom)
    check_promtool(server)
    check_a_dead_worker(server)


def _logged_at(line: dict[str, Any]) -> float:
    return datetime.fromisoformat(line["time"]).timestamp()


def check_rules(prom: Prometheus) -> None:
    """Every alert rule of docs/hosting/ loaded, evaluated, healthy."""

    def evaluated() -> list[dict[str, Any]] | None:
        rules = [rule for group in prom.api("rules")["groups"] for rule in group["rules"]]
        done = rules and all(not rule["lastEvaluation"].startswith("0001") for rule in rules)
        return rules if done else None

    rules = wait_until(evaluated, "the alert rules evaluated")
    assert {rule["name"] for rule in rules} == {
        "MagdagdonDown",
        "MagdagdonServerErrors",
        "MagdagdonSlowAnswers",
        "MagdagdonDatabaseDown",
        "MagdagdonComputeQueueFull",
    }
    assert all(rule["health"] == "ok" for rule in rules), rules
    # nothing is wrong (a loaded machine may slow the answers, and SQLite may answer 503 when
    # too many writes wait: pending at most, since a rule fires only after its "for")
    assert all(rule["state"] in ("inactive", "pending") for rule in rules), rules
    states = {rule["name"]: rule["state"] for rule in rules}
    assert states["MagdagdonDown"] == states["MagdagdonDatabaseDown"] == "inactive"


def check_dashboard(prom: Prometheus) -> None:
    """Every query of the dashboard evaluates; those of a server at work have data."""
    dashboard = json.loads(DASHBOARD.read_text(encoding="utf-8"))
    exprs = {
        target["expr"]: panel["title"]
        for panel in dashboard["panels"]
        for target in panel.get("targets", ())
    }
    assert len(exprs) >= 20
    for expr, title in exprs.items():
        query = expr.replace("$__rate_interval", "1m").replace("$instance", ".*")
        result = prom.query(query)  # an error fails here
        if title in (
            "Requests per second, by route",
            "Answers p50 and p99 (the players' requests)",
        ):
            assert result, (title, expr)
        if title == "Worker processes":
            assert [float(r["value"][1]) for r in result] == [2.0]


def check_promtool(server: ServerProcess) -> None:
    status, text = call(server, "GET", "/metrics")
    assert status == 200
    checked = subprocess.run(
        [PROMTOOL, "check", "metrics"], input=text, capture_output=True, check=False
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert not checked.stdout.strip(), checked.stdout  # no lint problem
    assert not checked.stderr.strip(), checked.stderr
    rules = subprocess.run(
        [PROMTOOL, "check", "rules", str(ALERTS)], capture_output=True, text=True, check=False
    )
    assert rules.returncode == 0, rules.stdout + rules.stderr


def check_a_dead_worker(server: ServerProcess) -> None:
    """A worker killed: its start time leaves the live gauges, its counts stay in the totals."""
    before = workers_of(server)
    totals = _scraped(server)
    victim = min(before)
    os.kill(victim, signal.SIGKILL)

    def replaced() -> set[int] | None:
        now = workers_of(server)
        return now if len(now) == 2 and victim not in now else None

    now = wait_until(replaced, "the killed worker replaced")
    wait_until(lambda: call(server, "GET", "/api/health")[0] == 200, "serving")

    def live() -> dict[str, float] | None:
        scraped = _scraped(server)
        pids = {
            int(pid) for pid in re.findall(r'start_time_seconds\{pid="(\d+)"\}', scraped["raw"])
        }
        return scraped if pids == now else None

    after = wait_until(live, "the live gauges of the workers that serve")
    assert after["actions"] >= totals["actions"] > 0


def _scraped(server: ServerProcess) -> dict[str, Any]:
    status, text = call(server, "GET", "/metrics")
    assert status == 200
    raw = text.decode()
    actions = re.search(r"^magdagdon_actions_applied_total (\S+)$", raw, re.MULTILINE)
    return {"raw": raw, "actions": float(actions[1]) if actions else 0.0}
