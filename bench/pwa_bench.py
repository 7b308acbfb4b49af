"""The budgets of the app on the home screen (docs/hosting.md), in Debian's Chromium on localhost:

(a) opening the page again (a new tab) with the service worker active: the first render (the
    browser's first-contentful-paint) and the page ready with its game (the
    ``magdagdon-ready`` mark). Beside it, in alternate rounds on the same machine: the same
    page with no worker (its files revalidated from the HTTP cache), and with ``--before REV``
    the page as it was at a git revision, with that revision's worker. Tabs are opened over a
    bare DevTools connection (bench/devtools.py), so nothing but the page runs in them, and
    the browser's own address-bar popup page is off, as in the app's window (``--omnibox``
    leaves it on);
(b) what the manifest, the worker and the icons add to the first visit: the bytes of every
    answer the server sent during a first visit (status line, headers and body, as the app
    gave them), split into the page's own files, the API, and what the app on the home screen
    added (the manifest, ``/sw.js``, the icons, and any page file fetched a second time — the
    worker takes the page's files from the browser's cache, checked against their hashes).

The servers run in this process (uvicorn in threads) so that every answer can be counted.
"""

from __future__ import annotations

import argparse
import asyncio
import io
import os
import shutil
import socket
import statistics
import subprocess
import tarfile
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING, Any

import uvicorn

from devtools import DevTools
from magdagdon.api.app import create_app
from magdagdon.api.page.static import WEB_DIR
from magdagdon.settings import Settings

if TYPE_CHECKING:
    from starlette.types import ASGIApp, Message, Receive, Scope, Send

ROOT = Path(__file__).resolve().parents[1]
ADDED = ("/manifest.webmanifest", "/sw.js", "/icons/")
# resolves once a worker is active and controls the page
CONTROLLED = """navigator.serviceWorker.ready.then(() => navigator.serviceWorker.controller ||
    new Promise((resolve) => navigator.serviceWorker.addEventListener("controllerchange", resolve)))
    .then(() => true)"""
READY = """new Promise((resolve) => { const check = () => document.body?.dataset.ready !== undefined
    ? resolve(true) : setTimeout(check, 50); check(); })"""
TIMES = """({paint: performance.getEntriesByName("first-contentful-paint")[0]?.startTime,
    ready: performance.getEntriesByName("magdagdon-ready")[0]?.startTime,
    controlled: navigator.serviceWorker.controller !== null})"""


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


def serve(app: ASGIApp) -> tuple[uvicorn.Server, str]:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="on"))
    threading.Thread(target=lambda: asyncio.run(server.serve([sock])), daemon=True).start()
    while not server.started:
        time.sleep(0.02)
    return server, f"http://127.0.0.1:{port}/"


def page_at(revision: str, into: Path) -> Path:
    """The page's folder as it was at git ``revision``, unpacked under ``into``."""
    packed = subprocess.run(
        ["git", "archive", revision, "src/magdagdon/web"], cwd=ROOT, check=True, capture_output=True
    ).stdout
    with tarfile.open(fileobj=io.BytesIO(packed)) as archive:
        archive.extractall(into)  # git archive of this repository: trusted paths
    return into / "src" / "magdagdon" / "web"


def floor_page(tmp: Path) -> str:
    """The URL of a page of one heading and one small module, with the same worker: what this
    browser on this machine takes to show anything at all."""
    floor = tmp / "floor"
    shutil.copytree(WEB_DIR, floor)
    (floor / "index.html").write_text(
        '<!doctype html><html lang="fil"><head><meta charset="utf-8"><title>MAGDAGDON</title>'
        '<script type="module" src="js/floor.js"></script></head>'
        "<body><h1>MAGDAGDON</h1></body></html>\n"
    )
    (floor / "js" / "floor.js").write_text(
        'navigator.serviceWorker.register("/sw.js");\n'
        'performance.mark("magdagdon-ready");\ndocument.body.dataset.ready = "";\n'
    )
    return serve(create_app(tmp / "floor.sqlite3", settings=Settings(), web_dir=floor))[1]


async def visit(tools: DevTools, context: str, url: str, *, worker: bool) -> dict[str, Any]:
    """Open ``url`` in a new tab until the page is ready (and, with ``worker``, controlled by
    its worker); the page's figures."""
    tab = await tools.open(context, url)
    await asyncio.sleep(1.0)  # nothing asked of the tab while it loads
    try:
        await asyncio.wait_for(tab.evaluate(READY), 30)
        if worker:
            await tab.touch()  # the first touch registers the service worker
            await asyncio.wait_for(tab.evaluate(CONTROLLED), 30)
        await asyncio.sleep(0.5)  # the page's late requests, before the tab goes
        times: dict[str, Any] = await tab.evaluate(TIMES)
    finally:
        await tab.close()
    assert times["controlled"] is worker, times
    return times


async def first_visit(tools: DevTools, url: str, counting: Counting) -> dict[str, int]:
    """The bytes of a first visit, by kind, until the worker is active and all is quiet."""
    counting.answers.clear()
    context = await tools.new_context()
    await visit(tools, context, url, worker=True)
    await asyncio.sleep(1.0)  # anything the browser fetches late (the manifest's icons)
    await tools.call("Target.disposeBrowserContext", browserContextId=context)
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


async def reopenings(
    tools: DevTools, pages: dict[str, tuple[str, bool]], rounds: int
) -> dict[str, list[dict[str, Any]]]:
    """For each named page (its URL, and whether it has a worker): one visit to set it up in
    its own context, then ``rounds`` reopenings, the pages taking turns."""
    contexts = {name: await tools.new_context() for name in pages}
    for name, (url, worker) in pages.items():
        await visit(tools, contexts[name], url, worker=worker)
    found: dict[str, list[dict[str, Any]]] = {name: [] for name in pages}
    for _ in range(rounds):
        for name, (url, worker) in pages.items():
            found[name].append(await visit(tools, contexts[name], url, worker=worker))
    return found


def line(label: str, rows: list[dict[str, Any]], budget: str = "") -> str:
    paints = [float(r["paint"]) for r in rows]
    ready = [float(r["ready"]) for r in rows]
    median = statistics.median
    return (
        f"    {label:<38} first render {median(paints):.0f} ms ({min(paints):.0f}–"
        f"{max(paints):.0f}), ready {median(ready):.0f} ms ({min(ready):.0f}–{max(ready):.0f})"
        + (f"  [budget: first render ≤ {budget}]" if budget else "")
    )


async def run(args: argparse.Namespace, tmp: Path) -> None:
    counting = Counting(create_app(tmp / "bench.sqlite3", settings=Settings()))
    _, url = serve(counting)
    plain_dir = tmp / "plain"  # the page without its worker: /sw.js answers 404
    shutil.copytree(WEB_DIR, plain_dir, ignore=shutil.ignore_patterns("sw.js"))
    _, plain_url = serve(create_app(tmp / "plain.sqlite3", settings=Settings(), web_dir=plain_dir))
    pages = {"with the service worker active:": (url, True)}
    if args.before:
        before_dir = page_at(args.before, tmp / "before")
        app = create_app(tmp / "before.sqlite3", settings=Settings(), web_dir=before_dir)
        pages[f"the page at {args.before}, its worker:"] = (serve(app)[1], True)
    pages["without a worker (the HTTP cache):"] = (plain_url, False)
    pages["the floor: a page of one heading, a worker:"] = (floor_page(tmp), True)
    async with DevTools(omnibox=args.omnibox) as tools:
        kinds = await first_visit(tools, url, counting)
        found = await reopenings(tools, pages, args.rounds)
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"the machine's load average (1, 5, 15 min) after the run: {load}")
    if args.omnibox:
        print("Chromium's address-bar popup page was on (--omnibox)")
    print(f"(a) reopening the page, {args.rounds} rounds, median (min–max):")
    for number, (name, rows) in enumerate(found.items()):
        print(line(name, rows, "100 ms" if number == 0 else ""))
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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--before", metavar="REV", help="also the page at this git revision")
    parser.add_argument(
        "--omnibox",
        action="store_true",
        help="leave on the browser's own address-bar popup page (bench/devtools.py)",
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        asyncio.run(run(args, Path(tmp)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
