"""A real Prometheus (Debian's ``prometheus`` package, ``make prometheus``) for a test: started
from a temporary folder on 127.0.0.1, scraping one target every :data:`INTERVAL` seconds and
evaluating the given rule files as often; asked through its own HTTP API."""

from __future__ import annotations

import json
import shutil
import socket
import subprocess
import urllib.error
import urllib.parse
import urllib.request
from typing import TYPE_CHECKING, Any

from waits import wait_until

if TYPE_CHECKING:
    from pathlib import Path

PROMETHEUS = shutil.which("prometheus") or "/usr/bin/prometheus"
PROMTOOL = shutil.which("promtool") or "/usr/bin/promtool"
INTERVAL = 1  # seconds between scrapes, and between evaluations of the rules


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


class Prometheus:
    def __init__(self, folder: Path, target: str, rules: list[Path]) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        config = folder / "prometheus.yml"
        config.write_text(
            f"""global:
  scrape_interval: {INTERVAL}s
  scrape_timeout: {INTERVAL}s
  evaluation_interval: {INTERVAL}s
rule_files: {json.dumps([str(path) for path in rules])}
scrape_configs:
  - job_name: magdagdon
    metrics_path: /metrics
    static_configs:
      - targets: ["{target}"]
"""
        )
        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log_path = folder / "prometheus.log"
        with self.log_path.open("w") as log:
            self.process = subprocess.Popen(
                [
                    PROMETHEUS,
                    f"--config.file={config}",
                    f"--storage.tsdb.path={folder / 'data'}",
                    f"--web.listen-address=127.0.0.1:{self.port}",
                    "--log.level=warn",
                ],
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        wait_until(self._ready, f"Prometheus ready ({self.log_path})")

    def _ready(self) -> bool:
        if self.process.poll() is not None:
            raise AssertionError(f"Prometheus stopped: {self.log_path.read_text()}")
        try:
            with urllib.request.urlopen(f"{self.url}/-/ready", timeout=10) as answer:
                return bool(answer.status == 200)
        except (OSError, urllib.error.URLError):
            return False

    def api(self, path: str, **params: str | float) -> Any:
        """``data`` of an answer of the HTTP API (``/api/v1/…``); an error fails the test."""
        query = urllib.parse.urlencode(params)
        with urllib.request.urlopen(f"{self.url}/api/v1/{path}?{query}", timeout=30) as answer:
            body = json.load(answer)
        assert body["status"] == "success", body
        return body["data"]

    def query(self, expr: str, at: float | None = None) -> list[dict[str, Any]]:
        """The instant vector of ``expr`` (now, or at the Unix time ``at``)."""
        params: dict[str, str | float] = {"query": expr}
        if at is not None:
            params["time"] = at
        data = self.api("query", **params)
        assert data["resultType"] == "vector", data
        result: list[dict[str, Any]] = data["result"]
        return result

    def value(self, expr: str, at: float | None = None) -> float | None:
        """The one value of ``expr``; None when it has none."""
        result = self.query(expr, at)
        assert len(result) <= 1, result
        return float(result[0]["value"][1]) if result else None

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
