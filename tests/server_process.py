"""A real ``magdagdon serve`` process for tests (used by the ``start_server`` fixtures)."""

from __future__ import annotations

import os
import queue
import signal
import subprocess
import sys
import threading
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from waits import EVENTUALLY

if TYPE_CHECKING:
    from pathlib import Path

SERVER_START_TIMEOUT = EVENTUALLY


@dataclass
class ServerProcess:
    """A running ``magdagdon serve`` process."""

    process: subprocess.Popen[str]
    url: str
    host: str
    port: int
    db: str
    stderr_path: Path
    lines: list[str] = field(default_factory=list)

    def stop(self, timeout: float = EVENTUALLY) -> int:
        """Ctrl-C (SIGINT) and wait; answer the exit status."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
        return self.process.wait(timeout)

    def kill(self) -> None:
        """SIGKILL: no clean-up of any kind."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
        self.process.wait(EVENTUALLY)

    def stderr(self) -> str:
        return self.stderr_path.read_text(encoding="utf-8", errors="replace")


def launch_server(db: str | Path, log_dir: Path, *extra: str) -> ServerProcess:
    """Start ``python -m magdagdon serve --port 0 --no-browser --db DB`` (a file or a URL) and
    wait for its line."""
    log_dir.mkdir(parents=True, exist_ok=True)
    stderr_path = log_dir / f"server-{os.urandom(4).hex()}.stderr"
    command = [sys.executable, "-m", "magdagdon", "serve", "--port", "0", "--no-browser"]
    command += ["--db", str(db), *extra]
    with stderr_path.open("w") as stderr:
        process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=stderr, text=True)
    assert process.stdout is not None
    lines: queue.Queue[str] = queue.Queue()
    stdout = process.stdout

    def pump() -> None:
        for line in stdout:
            lines.put(line)
        lines.put("")

    threading.Thread(target=pump, daemon=True).start()
    try:
        first = lines.get(timeout=SERVER_START_TIMEOUT)
    except queue.Empty:
        process.kill()
        process.wait()
        raise AssertionError("the server printed nothing in time") from None
    if not first.startswith("Serving on http://"):
        process.kill()
        process.wait()
        raise AssertionError(f"unexpected first line {first!r}: {stderr_path.read_text()}")
    url = first.removeprefix("Serving on ").strip()
    host, port = url.removeprefix("http://").rsplit(":", 1)
    return ServerProcess(process, url, host, int(port), str(db), stderr_path, [first])
