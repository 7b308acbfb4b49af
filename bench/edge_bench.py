"""The edge's cost on play: ``server_bench.py``'s (a), one action round trip on localhost, for a
server of another git revision (default ``main``: before) and one of this tree (after), side by
side in one run, in alternating rounds so both see the same machine; and (m) the edge's
middleware alone, in-process, around an app that answers at once (what each action pays).

The "after" server runs with its default settings (every middleware, header and limit in place),
except that the game-start rates are raised out of the benchmark's way: (a) starts a new game
every ~50 actions, far faster than any person.
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import json
import statistics
import subprocess
import tarfile
import tempfile
import time
from io import BytesIO
from pathlib import Path
from typing import TYPE_CHECKING

from magdagdon.sim.summary import percentile
from server_bench import ms, round_trips, start_server

if TYPE_CHECKING:
    from starlette.types import ASGIApp, Message, Receive, Scope, Send

ROOT = Path(__file__).resolve().parents[1]
FAST_GAMES = {
    "MAGDAGDON_GAMES_RATE": "1000000/minute",
    "MAGDAGDON_GAMES_RATE_PER_ADDRESS": "1000000/minute",
}


def checkout(revision: str, into: Path) -> Path:
    """``src/`` of ``revision``, extracted into ``into``; its path."""
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", "--format=tar", revision, "src"],
        check=True,
        capture_output=True,
    ).stdout
    with tarfile.open(fileobj=BytesIO(archive)) as tar:
        tar.extractall(into)  # our own repository's archive
    return into / "src"


def edge_headers(host: str, port: int) -> str:
    """Which code answers: the edge's headers are there after and not before."""
    conn = http.client.HTTPConnection(host, port)
    conn.request("GET", "/api/player")
    response = conn.getresponse()
    response.read()
    conn.close()
    present = response.getheader("content-security-policy") is not None
    return "security headers present" if present else "no security headers"


def middleware_cost(requests: int) -> tuple[float, float]:
    """(m): seconds per action request through an app that answers at once, bare and wrapped
    in the edge (security headers, rate limits, body limit) as ``create_app`` wraps the routes."""
    from magdagdon.api.edge.bodylimit import BodyLimit
    from magdagdon.api.edge.ratelimit import RateLimits, rules
    from magdagdon.api.edge.security import HeaderSet, SecurityHeaders, page_policy
    from magdagdon.api.page.static import WEB_DIR
    from magdagdon.settings import Settings

    body = json.dumps({"type": "roll", "version": 3}).encode()

    async def answer(scope: Scope, receive: Receive, send: Send) -> None:
        message = await receive()
        await send({"type": "http.response.start", "status": 200, "headers": HEADERS})
        await send({"type": "http.response.body", "body": message["body"]})

    settings = Settings()
    headers = HeaderSet(policy=page_policy(WEB_DIR), hsts_seconds=settings.hsts_seconds)
    wrapped = SecurityHeaders(
        RateLimits(BodyLimit(answer, max_bytes=16384, timeout=10.0), rules=rules(settings)),
        headers=headers,
    )
    scope = {
        "type": "http",
        "method": "POST",
        "path": "/api/games/0123456789abcdef/actions",
        "scheme": "http",
        "client": ("127.0.0.1", 50000),
        "headers": [
            (b"host", b"127.0.0.1:8765"),
            (b"content-type", b"application/json"),
            (b"content-length", b"%d" % len(body)),
            (b"cookie", b"magdagdon_player=" + b"x" * 43),
        ],
    }

    async def receive() -> Message:
        return {"type": "http.request", "body": body, "more_body": False}

    async def send(message: Message) -> None:
        pass

    async def run(app: ASGIApp) -> float:
        start = time.perf_counter()
        for _ in range(requests):
            await app(scope, receive, send)
        return (time.perf_counter() - start) / requests

    bare = min(asyncio.run(run(answer)) for _ in range(3))
    edged = min(asyncio.run(run(wrapped)) for _ in range(3))
    return bare, edged


HEADERS = [(b"content-type", b"application/json")]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--before", default="main", help="the git revision before (default main)")
    parser.add_argument("--actions", type=int, default=100, help="actions per round (100)")
    parser.add_argument("--rounds", type=int, default=60, help="rounds per server (60)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="magdagdon-edge-bench-") as tmp:
        directory = Path(tmp)
        sources = {
            f"before ({args.before})": (checkout(args.before, directory / "before"), {}),
            "after (this tree)": (ROOT / "src", FAST_GAMES),
        }
        servers = {
            name: start_server(directory / f"{index}.sqlite3", {**env, "PYTHONPATH": str(src)})
            for index, (name, (src, env)) in enumerate(sources.items())
        }
        times: dict[str, list[float]] = {name: [] for name in servers}
        errors = dict.fromkeys(servers, 0)
        try:
            for _, host, port in servers.values():
                round_trips(host, port, 100)  # warm-up
            for name, (_, host, port) in servers.items():
                print(f"{name}: {edge_headers(host, port)}")
            order = list(servers)
            for _ in range(args.rounds):
                for name in order:
                    _, host, port = servers[name]
                    measured, failed = round_trips(host, port, args.actions)
                    times[name] += measured
                    errors[name] += failed
                order.reverse()  # neither server always goes first
        finally:
            for process, _, _ in servers.values():
                process.terminate()
                process.wait(15)
    medians = {name: statistics.median(values) for name, values in times.items()}
    for name, values in times.items():
        print(
            f"(a) action round trip, {name}: median {ms(medians[name])}, "
            f"p95 {ms(percentile(values, 0.95))} over {len(values)} actions, "
            f"{errors[name]} errors"
        )
    before, after = medians.values()
    print(f"median change: {ms(after - before)} ({(after - before) / before:+.1%})")
    bare, edged = middleware_cost(20_000)
    print(
        f"(m) one action request in-process: {bare * 1e6:.1f} us bare, {edged * 1e6:.1f} us "
        f"through the edge's middleware (+{(edged - bare) * 1e6:.1f} us)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
