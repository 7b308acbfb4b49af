"""The metrics and the logs in one process: who may read ``/metrics``; the counts by route
template (never a path), status and error code; the request's id on every answer and in its
log lines; plain logs by default, JSON ones when set; the settings that switch them."""

from __future__ import annotations

import json
import logging
import re
import threading
from typing import TYPE_CHECKING, Any

import pytest
from fastapi.routing import iter_route_contexts
from fastapi.testclient import TestClient
from prometheus_client.mmap_dict import MmapedDict, mmap_key

from compute_jobs import sleep
from hosting.metric_samples import Samples, samples
from magdagdon.api.app import create_app
from magdagdon.api.edge.observe import PAGE
from magdagdon.cli import _parser
from magdagdon.compute import ComputeBusyError
from magdagdon.compute.pool import Pool
from magdagdon.observe import exposition, metrics, multiproc
from magdagdon.observe.logs import REQUEST_ID, JsonFormatter
from magdagdon.services import stats
from magdagdon.settings import Settings, SettingsError
from magdagdon.store import failures
from waits import wait_until

if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path

    from fastapi import FastAPI

TOKEN = "s3cret-token"
LOOPBACK = ("127.0.0.1", 50000)
ACTION = "/api/games/{game_id}/actions"


def app_of(tmp_path: Path, **settings: Any) -> FastAPI:
    return create_app(tmp_path / "game.sqlite3", settings=Settings(rate_limits=False, **settings))


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(app_of(tmp_path, metrics_token=TOKEN), client=LOOPBACK) as test_client:
        yield test_client


def scrape(client: TestClient) -> Samples:
    """Every sample of ``GET /metrics``, by name and labels."""
    answer = client.get("/metrics", headers={"authorization": f"Bearer {TOKEN}"})
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("text/plain; version=0.0.4")
    return samples(answer.text)


def value(found: Samples, name: str, **labels: str) -> float:
    return found.get((name, tuple(sorted(labels.items()))), 0.0)


def test_metrics_answer_this_machine_or_the_token_and_no_one_else(tmp_path: Path) -> None:
    app = app_of(tmp_path, metrics_token=TOKEN)
    with TestClient(app, client=LOOPBACK) as local:
        assert local.get("/metrics").status_code == 200
        # through a proxy on this machine every player comes from 127.0.0.1
        proxied = local.get("/metrics", headers={"x-forwarded-for": "203.0.113.9"})
        assert proxied.status_code == 404
        assert proxied.json()["error"]["code"] == "not_found"
    app = app_of(tmp_path, metrics_token=TOKEN)
    with TestClient(app, client=("203.0.113.9", 50000)) as outside:
        assert outside.get("/metrics").status_code == 404
        wrong = outside.get("/metrics", headers={"authorization": "Bearer guess"})
        assert wrong.status_code == 404
        right = outside.get("/metrics", headers={"authorization": f"Bearer {TOKEN}"})
        assert right.status_code == 200
        assert "magdagdon_http_requests_total" in right.text
    closed = app_of(tmp_path, metrics_networks="off")
    with TestClient(closed, client=LOOPBACK) as local:
        assert local.get("/metrics").status_code == 404
    assert "/metrics" not in app.openapi()["paths"]


def test_counts_by_route_template_status_and_code_never_a_path(client: TestClient) -> None:
    before = scrape(client)
    game = client.post("/api/games", json={"difficulty": "survival"}).json()
    for _ in range(3):
        assert client.post(f"/api/games/{game['id']}/actions", json={"type": "roll"}).status_code
    refused = client.post(f"/api/games/{game['id']}/actions", json={"type": "nonsense"})
    assert refused.status_code == 422
    assert client.get("/api/games/nosuchgame").status_code == 404
    assert client.get("/no/such/file.png").status_code == 404
    after = scrape(client)

    def grew(name: str, **labels: str) -> float:
        return value(after, name, **labels) - value(before, name, **labels)

    rolled = grew("magdagdon_http_requests_total", route=ACTION, method="POST", status="200")
    illegal = grew("magdagdon_http_requests_total", route=ACTION, method="POST", status="409")
    assert rolled + illegal == 3  # the first roll is legal; after it, a roll may not be
    assert rolled >= 1
    assert grew("magdagdon_actions_applied_total") == rolled
    assert grew("magdagdon_games_started_total", mode="normal", difficulty="survival") == 1
    assert grew("magdagdon_http_errors_total", route=ACTION, status="422", code="malformed") == 1
    assert (
        grew(
            "magdagdon_http_errors_total",
            route="/api/games/{game_id}",
            status="404",
            code="not_found",
        )
        == 1
    )
    assert grew("magdagdon_http_errors_total", route=PAGE, status="404", code="not_found") == 1
    count = "magdagdon_http_request_duration_seconds_count"
    assert grew(count, route=ACTION, method="POST") == 4
    routes = {dict(labels)["route"] for _, labels in after if "route" in dict(labels)}
    assert game["id"] not in " ".join(routes)
    # the registry is the process's: other tests' requests are in it too, each under a template
    app: FastAPI = client.app  # type: ignore[assignment]
    templates = {route.path_format for route in iter_route_contexts(list(app.routes))}
    documentation = {"/openapi.json", "/docs", "/docs/oauth2-redirect", "/redoc"}  # --api-docs
    assert routes <= templates | documentation | {PAGE}, routes - templates
    assert value(after, "magdagdon_database_up") == 1
    assert value(after, "magdagdon_build_info", version="0.1.0") == 1


def test_every_answer_has_its_request_id_and_json_logs_tie_it_to_the_cause(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = app_of(tmp_path, log_format="json")
    caplog.set_level(logging.INFO, logger="magdagdon")
    with TestClient(app, client=LOOPBACK) as client:
        ok = client.post("/api/games", json={"difficulty": "peaceful"})
        too_large = client.post("/api/games", content=b"x" * 20000)
        cross = client.post(
            "/api/games", json={"difficulty": "peaceful"}, headers={"sec-fetch-site": "cross-site"}
        )
    answers = [ok, too_large, cross]
    assert [a.status_code for a in answers] == [201, 413, 403]
    ids = [answer.headers["x-request-id"] for answer in answers]
    assert len(set(ids)) == 3
    lines = {
        getattr(r, "request_id", None): r
        for r in caplog.records
        if r.name == "magdagdon.request" and r.msg == "request"
    }
    for answer in answers:
        entry = json.loads(JsonFormatter().format(lines[answer.headers["x-request-id"]]))
        assert entry["request_id"] == answer.headers["x-request-id"]
        assert entry["status"] == answer.status_code
        assert (entry["method"], entry["route"]) == ("POST", "/api/games")
        assert {"time", "duration_ms", "worker"} <= set(entry)
    assert json.loads(JsonFormatter().format(lines[ids[1]]))["code"] == "body_too_large"
    assert json.loads(JsonFormatter().format(lines[ids[2]]))["code"] == "cross_site"


def test_a_bug_answers_500_with_the_request_id_and_logs_its_cause(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("a bug in the statistics")

    monkeypatch.setattr(stats, "statistics", broken)
    app = app_of(tmp_path, log_format="json")
    caplog.set_level(logging.INFO, logger="magdagdon")
    with TestClient(app, client=LOOPBACK, raise_server_exceptions=False) as client:
        client.post("/api/games", json={"difficulty": "peaceful"})  # a player, with a cookie
        failed = client.get("/api/stats", params={"difficulty": "peaceful"})
    assert failed.status_code == 500
    assert failed.json()["error"]["code"] == "internal_error"
    request_id = failed.headers["x-request-id"]
    assert failed.headers["x-content-type-options"] == "nosniff"  # the edge's headers too
    mine = [
        json.loads(JsonFormatter().format(r))
        for r in caplog.records
        if getattr(r, "request_id", None) == request_id
        or (r.exc_info and r.levelno >= logging.ERROR)
    ]
    error = next(entry for entry in mine if entry["level"] == "error")
    assert error["request_id"] == request_id
    assert "a bug in the statistics" in error["cause"]
    line = next(entry for entry in mine if entry["message"] == "request")
    assert (line["status"], line["code"], line["route"]) == (500, "internal_error", "/api/stats")


def test_a_5xx_answer_has_its_own_line_with_its_cause(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    def full(*args: object, **kwargs: object) -> None:
        raise failures.StorageUnavailableError(failures.Failure("the disk is full", 5, False))

    monkeypatch.setattr(stats, "statistics", full)
    caplog.set_level(logging.INFO, logger="magdagdon")
    with TestClient(app_of(tmp_path, log_format="json"), client=LOOPBACK) as client:
        answer = client.get("/api/stats", params={"difficulty": "peaceful"})
    assert answer.status_code == 503
    request_id = answer.headers["x-request-id"]
    mine = [
        json.loads(JsonFormatter().format(r))
        for r in caplog.records
        if getattr(r, "request_id", None) == request_id
    ]
    assert [(entry["level"], entry["message"]) for entry in mine] == [
        ("warning", "error answer"),
        ("info", "request"),
    ]
    assert mine[0]["cause"] == (
        "storage_unavailable: the database cannot be used now (the disk is full); "
        "try again in a moment"
    )
    assert (mine[1]["status"], mine[1]["code"]) == (503, "storage_unavailable")


def test_plain_logs_by_default_without_a_line_for_each_request(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="magdagdon")
    with TestClient(app_of(tmp_path), client=LOOPBACK) as client:
        answer = client.get("/api/health")
    assert len(answer.headers["x-request-id"]) == 16
    assert not [r for r in caplog.records if r.name == "magdagdon.request"]
    assert Settings().log_format == "plain"


def test_a_bug_in_plain_logs_is_one_line_that_names_the_request(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("a bug in the statistics")

    monkeypatch.setattr(stats, "statistics", broken)
    with TestClient(app_of(tmp_path), client=LOOPBACK, raise_server_exceptions=False) as client:
        failed = client.get("/api/stats", params={"difficulty": "peaceful"})
    assert failed.status_code == 500
    request_id = failed.headers["x-request-id"]
    mine = [r for r in caplog.records if r.name == "magdagdon.request"]
    assert [r.getMessage() for r in mine] == [
        f"request {request_id} failed: RuntimeError: a bug in the statistics"
    ]


def test_the_json_formatter_takes_the_request_id_of_the_request_being_worked_on() -> None:
    record = logging.LogRecord(
        "magdagdon.store", logging.WARNING, __file__, 1, "disk %s", ("full",), None
    )
    token = REQUEST_ID.set("0123456789abcdef")
    try:
        entry = json.loads(JsonFormatter().format(record))
    finally:
        REQUEST_ID.reset(token)
    assert entry["request_id"] == "0123456789abcdef"
    assert (entry["level"], entry["logger"], entry["message"]) == (
        "warning",
        "magdagdon.store",
        "disk full",
    )
    assert entry["time"].endswith("Z")
    assert "request_id" not in json.loads(JsonFormatter().format(record))


def test_metrics_off_counts_nothing_and_answers_no_metrics(tmp_path: Path) -> None:
    try:
        app = app_of(tmp_path, metrics=False, metrics_token=TOKEN)
        assert metrics.current() is None
        metrics.action_applied("normal", "survival", over=True)  # a hook returns at once
        with TestClient(app, client=LOOPBACK) as client:
            answer = client.get("/metrics", headers={"authorization": f"Bearer {TOKEN}"})
            assert answer.status_code == 404
            assert client.get("/api/health").headers["x-request-id"]
    finally:
        metrics.enable()


def test_the_settings_and_the_flag() -> None:
    assert Settings.from_env({"MAGDAGDON_LOG_FORMAT": "json"}).log_format == "json"
    assert Settings.from_env({"MAGDAGDON_METRICS": "off"}).metrics is False
    with pytest.raises(SettingsError, match="MAGDAGDON_LOG_FORMAT"):
        Settings.from_env({"MAGDAGDON_LOG_FORMAT": "xml"})
    with pytest.raises(SettingsError, match="MAGDAGDON_METRICS_NETWORKS"):
        Settings.from_env({"MAGDAGDON_METRICS_NETWORKS": "10.0.0.0/8,nowhere"})
    assert _parser().parse_args(["serve", "--log-format", "json"]).log_format == "json"
    with pytest.raises(SystemExit):
        _parser().parse_args(["serve", "--log-format", "xml"])


def test_every_database_failure_has_a_kind_of_its_own() -> None:
    reasons = [reason for reason, _ in failures._SQLITE.values()]
    reasons += [
        "the database is busy",
        "the database is busy: too many writes wait for it",
        "the connection to the database was lost",
        "the database server's disk is full",
        "the database server cannot be reached",
        "the database did not answer in time",
    ]
    kinds = {metrics.failure_kind(reason) for reason in reasons}
    assert "other" not in kinds
    assert len(kinds) <= 12  # a bounded label


def test_a_full_queue_is_counted_as_refused_and_a_job_by_its_time(tmp_path: Path) -> None:
    metrics.enable()
    pool = Pool("test", 1, 0)
    counted = metrics.current()
    assert counted is not None
    refused = counted.refused.labels("test", "busy")
    timed = counted.job_time.labels("test", "done")
    refused_before, timed_before = refused._value.get(), timed._sum.get()
    try:
        running = pool.submit(sleep, (0.5,), timeout=60)
        with pytest.raises(ComputeBusyError):
            pool.submit(sleep, (0.0,), timeout=60)
        assert refused._value.get() == refused_before + 1
        assert running.result(timeout=300) == 0.5
        wait_until(lambda: timed._sum.get() >= timed_before + 0.5, "the job's time counted")
        assert counted.running.labels("test")._value.get() == 0
        assert counted.queued.labels("test")._value.get() == 0
    finally:
        pool.close()


def test_a_run_of_several_workers_has_a_metrics_folder_of_its_own(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(multiproc.VARIABLE, raising=False)
    made = multiproc.prepare()
    assert made is not None
    assert multiproc.directory() == made
    assert made.is_dir()
    multiproc.finish(made)
    assert not made.exists()
    assert multiproc.directory() is None
    given = tmp_path / "metrics"
    given.mkdir()
    (given / "counter_123.db").write_bytes(b"old run")
    (given / "notes.txt").write_text("kept")
    monkeypatch.setenv(multiproc.VARIABLE, str(given))
    assert multiproc.prepare() is None  # the operator's: emptied of old counts, and kept
    assert sorted(p.name for p in given.iterdir()) == ["notes.txt"]


def test_a_scrape_while_a_worker_creates_its_file_adds_up_the_others(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A worker started in place of one that ended creates its file at 0 bytes and sizes it a
    moment later: a scrape in that moment still answers, with every other worker's counts."""
    monkeypatch.setenv(multiproc.VARIABLE, str(tmp_path))
    name = "magdagdon_actions_applied"
    key = mmap_key(name, f"{name}_total", [], [], "Actions applied.")
    # a worker's file as prometheus_client writes it (its functions are unannotated)
    written = MmapedDict(str(tmp_path / "counter_101.db"))  # type: ignore[no-untyped-call]
    written.write_value(key, 7.0, 0.0)  # type: ignore[no-untyped-call]
    written.close()  # type: ignore[no-untyped-call]
    (tmp_path / "counter_102.db").touch()  # the new worker's, not yet sized
    text = exposition.render(True, None).decode()
    assert re.search(rf"^{name}_total 7\.0$", text, re.MULTILINE), text
    assert re.search(r"^magdagdon_database_up 1\.0$", text, re.MULTILINE), text


def test_counting_from_many_threads_adds_up(client: TestClient) -> None:
    before = value(scrape(client), "magdagdon_actions_applied_total")

    def hooks() -> None:
        for _ in range(1000):
            metrics.action_applied("normal", "peaceful", over=False)

    threads = [threading.Thread(target=hooks) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert value(scrape(client), "magdagdon_actions_applied_total") == before + 4000
