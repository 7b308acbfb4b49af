"""The page's memory with its offline engine in a Chromium that no test driver instruments
(bench/pyodide_bench.py prints it).

Playwright turns on DevTools' Network domain in every page and worker it drives, and the renderer
then keeps a copy of each response body for ``Network.getResponseBody`` — base64 for binary
ones, up to 10 MB a resource: Pyodide's 9.6 MB wasm became two 12.2 MB strings in the renderer's
memory, which no player's browser holds. So the memory is measured here in a Chromium driven over
``--remote-debugging-pipe`` with the Target, Page, Runtime and SystemInfo domains only: the
page's settings are put before its scripts, its state is read by ``Runtime.evaluate``, nothing
else is attached (no worker session, no network agent).

The figures: the PSS and USS (``/proc/PID/smaps_rollup``) of the page's renderer process — the
renderer with the most CPU time, which runs the page and its engine worker — once the engine is
ready at the first visit (at once, and ``SETTLE_S`` later), then ``SETTLE_S`` after each
reopening (the page closed and a new one opened on the same site, the service worker and its
caches warm); and the same page with offline play off.
"""

from __future__ import annotations

import fcntl
import json
import os
import subprocess
import tempfile
import time
from typing import TYPE_CHECKING, Any

from pyodide_page import INIT, _pss_kb, _uss_kb

if TYPE_CHECKING:
    from collections.abc import Callable

CHROMIUM = "/usr/bin/chromium"
READY_S = 600.0  # Pyodide's first, cold start on a loaded machine


def _as_fds_3_4(read_end: int, write_end: int) -> None:
    """In the child: the pipe's ends as fds 3 and 4 (moved above both first, so neither is
    overwritten before it is copied)."""
    high = [fcntl.fcntl(fd, fcntl.F_DUPFD, 10) for fd in (read_end, write_end)]
    os.dup2(high[0], 3)
    os.dup2(high[1], 4)


class Pipe:
    """CDP over ``--remote-debugging-pipe``: JSON messages ended by NUL, fd 3 in, fd 4 out."""

    def __init__(self, profile: str) -> None:
        to_browser_r, self._to_browser = os.pipe()
        self._from_browser, from_browser_w = os.pipe()
        self.process = subprocess.Popen(
            [
                CHROMIUM,
                "--headless",
                "--no-sandbox",
                "--remote-debugging-pipe",
                f"--user-data-dir={profile}",
                "--no-first-run",
                "--window-size=390,844",
                "about:blank",
            ],
            close_fds=False,  # else fds 3 and 4 are closed after preexec_fn (others are CLOEXEC)
            preexec_fn=lambda: _as_fds_3_4(to_browser_r, from_browser_w),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        os.close(to_browser_r)
        os.close(from_browser_w)
        self._buffer = b""
        self._id = 0

    def send(self, method: str, params: dict[str, Any] | None = None, session: str = "") -> Any:
        self._id += 1
        message: dict[str, Any] = {"id": self._id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        os.write(self._to_browser, json.dumps(message).encode() + b"\0")
        while True:
            while b"\0" not in self._buffer:
                chunk = os.read(self._from_browser, 1 << 16)
                if not chunk:
                    raise RuntimeError("the browser closed its pipe")
                self._buffer += chunk
            raw, _, self._buffer = self._buffer.partition(b"\0")
            answer = json.loads(raw)
            if answer.get("id") == self._id:
                if "error" in answer:
                    raise RuntimeError(f"{method}: {answer['error']}")
                return answer.get("result", {})

    def close(self) -> None:
        self.process.terminate()
        self.process.wait()
        os.close(self._to_browser)
        os.close(self._from_browser)


def _open(pipe: Pipe, context: str, url: str, offline_play: bool) -> tuple[str, str]:
    """A new page of the browser context at ``url``: its target and session ids."""
    target = pipe.send("Target.createTarget", {"url": "about:blank", "browserContextId": context})
    session = pipe.send("Target.attachToTarget", {"targetId": target["targetId"], "flatten": True})[
        "sessionId"
    ]
    pipe.send("Page.enable", session=session)
    script = INIT % ("1" if offline_play else "0")
    pipe.send("Page.addScriptToEvaluateOnNewDocument", {"source": script}, session=session)
    pipe.send("Page.navigate", {"url": url}, session=session)
    return target["targetId"], session


def _wait(pipe: Pipe, session: str, condition: str) -> None:
    deadline = time.monotonic() + READY_S
    while time.monotonic() < deadline:
        got = pipe.send("Runtime.evaluate", {"expression": condition}, session=session)
        if got["result"].get("value") is True:
            return
        time.sleep(0.02)
    raise TimeoutError(condition)


def _touch(pipe: Pipe, session: str) -> None:
    """A key pressed on the page: a first visit registers the service worker at the first touch
    (``core/offline.js``), and the reopenings without the connection need it."""
    key = {"key": "Shift", "code": "ShiftLeft", "windowsVirtualKeyCode": 16}
    for kind in ("keyDown", "keyUp"):
        pipe.send("Input.dispatchKeyEvent", {"type": kind, **key}, session=session)


def _renderer(pipe: Pipe) -> dict[str, float]:
    """The busiest renderer's PSS and USS (MB), and every renderer's PSS summed."""
    info = pipe.send("SystemInfo.getProcessInfo")["processInfo"]
    renderers = [p for p in info if p["type"] == "renderer"]
    busiest = max(renderers, key=lambda p: p["cpuTime"])
    return {
        "pss": _pss_kb(busiest["id"]) / 1024,
        "uss": _uss_kb(busiest["id"]) / 1024,
        "renderers_pss": sum(_pss_kb(p["id"]) for p in renderers) / 1024,
        "renderers": len(renderers),
    }


READY = "document.body?.dataset.offline === 'ready'"
IDLE = "!!document.body?.dataset.ready && !document.body.dataset.busy"
# read at ready, and again this long after: the worker's start-up garbage (its fetched files'
# streams, Pyodide's set-up) is collected within a few seconds, as it is while a player plays
SETTLE_S = 10.0


def measure(url: str, reopenings: int, stop_server: Callable[[], None]) -> dict[str, Any]:
    """The renderer's memory with offline play off, at the first visit, and after each
    reopening; the server is stopped (``stop_server``) after the first visit, so each reopening
    is one without the connection, and its time from the page's navigation to the engine's
    ready is kept (``ready_s``): nothing instruments the page's loading here either."""
    with tempfile.TemporaryDirectory() as profile:
        pipe = Pipe(profile)
        try:
            context = pipe.send("Target.createBrowserContext")["browserContextId"]
            _, session = _open(pipe, context, url, offline_play=False)
            _wait(pipe, session, IDLE)
            time.sleep(SETTLE_S)
            without = _renderer(pipe)
            pipe.send("Target.disposeBrowserContext", {"browserContextId": context})
            context = pipe.send("Target.createBrowserContext")["browserContextId"]
            target, session = _open(pipe, context, url, offline_play=True)
            _wait(pipe, session, IDLE)
            _touch(pipe, session)
            _wait(pipe, session, READY)
            at_ready = _renderer(pipe)
            time.sleep(SETTLE_S)
            first = _renderer(pipe)
            stop_server()
            after, ready_s = [], []
            for _ in range(reopenings):
                pipe.send("Target.closeTarget", {"targetId": target})
                started = time.monotonic()
                target, session = _open(pipe, context, url, offline_play=True)
                _wait(pipe, session, READY)
                ready_s.append(time.monotonic() - started)
                time.sleep(SETTLE_S)
                after.append(_renderer(pipe))
        finally:
            pipe.close()
    return {
        "at_ready": at_ready,
        "first": first,
        "after": after,
        "without": without,
        "ready_s": ready_s,
    }
