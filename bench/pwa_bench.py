"""Issue 19's budgets for the app on the home screen, in Debian's Chromium on localhost:

(a) opening the page again (a new tab) with the service worker active: the first render (the
    browser's first-contentful-paint) and the page ready with its game (the
    ``magdagdon-ready`` mark); beside it, in alternate rounds, the same in a browser context
    that blocks service workers (the page's files revalidated from the HTTP cache);
(b) what the manifest, the worker and the icons add to the first visit: the bytes of every
    answer the server sent during a first visit (status line, headers and body, as the app
    gave them), split into the page's own files, the API, and what the app on the home screen
    added (the manifest, ``/sw.js``, the icons, and any page file fetched a second time — the
    worker takes the page's files from the browser's cache, checked against their hashes).

The server runs in this process (uvicorn in a thread) so that every answer can be counted.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import socket
import statistics
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING, Any

import uvicorn
from playwright.sync_api import sync_playwright

from magdagdon.api.app import create_app
from magdagdon.settings import Settings

if TYPE_CHECKING:
    from playwright.sync_api import BrowserContext
    from starlette.types import ASGIApp, Message, Receive, Scope, Send

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
from web.web_helpers import CHROMIUM, CHROMIUM_ARGS  # noqa: E402  (the tests' browser)

# resolves once a worker is active and controls the page
CONTROLLED = """navigator.serviceWorker.ready.then(() => navigator.serviceWorker.controller ||
    new Promise((resolve) => navigator.serviceWorker.addEventListener("controllerchange", resolve)))
    .then(() => true)"""
ADDED = ("/manifest.webmanifest", "/sw.js", "/icons/")


class Counting:
    """Counts the bytes of each answer by path: the status line and headers as HTTP/1.1 sends
    them, and the body."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self.answers: list[tuple[str, int]] = []

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        size = 0

        async def counted(message: Message) -> None:
            nonlocal size
            if message["type"] == "http.response.start":
                headers = message.get("headers", ())
                size += len("HTTP/1.1 200 OK\r\n") + 2
                size += sum(len(name) + len(value) + 4 for name, value in headers)
            elif message["type"] == "http.response.body":
                size += len(message.get("body", b""))
                if not message.get("more_body", False):
                    self.answers.append((scope["path"], size))
            await send(message)

        await self.app(scope, receive, counted)


def serve(app: ASGIApp) -> tuple[uvicorn.Server, int]:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="on"))
    threading.Thread(target=lambda: asyncio.run(server.serve([sock])), daemon=True).start()
    while not server.started:
        time.sleep(0.02)
    return server, port


def wait_worker(context: BrowserContext, url: str) -> None:
    """Open the page and wait until its worker is active and controls it."""
    page = context.new_page()
    page.goto(url)
    page.wait_for_selector("body[data-ready]")
    assert page.evaluate(CONTROLLED)
    page.wait_for_load_state("networkidle")
    page.close()


def reopen_times(
    context: BrowserContext, url: str, rounds: int, *, worker: bool
) -> tuple[list[float], list[float]]:
    """``rounds`` reopenings in new tabs: first-contentful-paint and the ready mark, in ms
    (checked: the page is controlled by its worker exactly when ``worker``)."""
    paints, ready = [], []
    for _ in range(rounds):
        page = context.new_page()
        page.goto(url)
        page.wait_for_selector("body[data-ready]")
        timing: dict[str, Any] = page.evaluate(
            """() => ({
                paint: performance.getEntriesByName("first-contentful-paint")[0]?.startTime,
                ready: performance.getEntriesByName("magdagdon-ready")[0]?.startTime,
                controlled: navigator.serviceWorker.controller !== null,
            })"""
        )
        assert timing["controlled"] is worker
        paints.append(float(timing["paint"]))
        ready.append(float(timing["ready"]))
        page.close()
    return paints, ready


def first_visit(browser: Any, url: str, counting: Counting) -> dict[str, int]:
    """The bytes of a first visit, by kind, until the worker is active and all is quiet."""
    counting.answers.clear()
    context = browser.new_context()
    try:
        wait_worker(context, url)
        time.sleep(1.0)  # anything the browser fetches late (the manifest's icons)
    finally:
        context.close()
    seen: Counter[str] = Counter()
    kinds: Counter[str] = Counter()
    for path, size in counting.answers:
        seen[path] += 1
        if path.startswith("/api/"):
            kinds["api"] += size
        elif path.startswith(ADDED) or seen[path] > 1:
            kinds["added"] += size
            kinds[f"added {path}" + (" (again)" if seen[path] > 1 else "")] += size
        else:
            kinds["page"] += size
    return dict(kinds)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=15)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        counting = Counting(create_app(Path(tmp) / "bench.sqlite3", settings=Settings()))
        server, port = serve(counting)
        url = f"http://127.0.0.1:{port}/"
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            kinds = first_visit(browser, url, counting)
            worker, plain = browser.new_context(), browser.new_context(service_workers="block")
            wait_worker(worker, url)
            reopen_times(plain, url, 1, worker=False)  # its HTTP cache filled
            paints, ready, plain_paints, plain_ready = [], [], [], []
            for _ in range(args.rounds):  # alternated: both see the same machine
                paint, done = reopen_times(worker, url, 1, worker=True)
                paints += paint
                ready += done
                paint, done = reopen_times(plain, url, 1, worker=False)
                plain_paints += paint
                plain_ready += done
            worker.close()
            plain.close()
            browser.close()
        server.should_exit = True
    median = statistics.median
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"the machine's load average (1, 5, 15 min) after the run: {load}")
    print(f"(a) reopening the page, {args.rounds} rounds, median (min–max):")
    print(
        f"    with the service worker active:       first render {median(paints):.0f} ms "
        f"({min(paints):.0f}–{max(paints):.0f}), ready {median(ready):.0f} ms "
        f"({min(ready):.0f}–{max(ready):.0f})  [budget: first render ≤ 100 ms]"
    )
    print(
        f"    without a worker (the HTTP cache):    first render {median(plain_paints):.0f} ms "
        f"({min(plain_paints):.0f}–{max(plain_paints):.0f}), ready {median(plain_ready):.0f} ms "
        f"({min(plain_ready):.0f}–{max(plain_ready):.0f})"
    )
    print("(b) a first visit, bytes the server sent:")
    print(
        f"    the page's files {kinds.get('page', 0) / 1024:.1f} KB, the API "
        f"{kinds.get('api', 0) / 1024:.1f} KB"
    )
    print(
        f"    added by the app on the home screen: {kinds.get('added', 0) / 1024:.1f} KB "
        "[budget: ≤ 40 KB]"
    )
    for name, size in sorted(kinds.items()):
        if name.startswith("added "):
            print(f"      {name.removeprefix('added ')}: {size / 1024:.1f} KB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
