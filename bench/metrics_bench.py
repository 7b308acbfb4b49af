"""What the metrics cost an action: the server process's CPU time per request, one client
playing sequentially on one keep-alive connection (``host_bench.py``'s ``actions``), with the
metrics off (``MAGDAGDON_METRICS=off``), on (the default), on in the multi-process store that
``serve --workers N`` uses (``PROMETHEUS_MULTIPROC_DIR``, here for one process), and on with
JSON logs (a line a request, written to /dev/null). Budget: on within 10 % of off.
Beside them, (m): the layer alone (``api/edge/observe.py``) around an app that answers at once,
in this process: its own CPU time per request, metrics off, on, and on with JSON logs.

One server of each kind, all up at once, measured in interleaved rounds (ABBA: a load that
drifts hits each alike), on SQLite; each figure printed with the load average (1 minute) of
its moment. A request's CPU time is what the machine's load changes least.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import TYPE_CHECKING

sys.path.insert(0, str(Path(__file__).resolve().parent))
from host_bench import Figures, actions, cpu_seconds, crowd, load, start, warm_wal

if TYPE_CHECKING:
    from collections.abc import Iterator

    from starlette.types import ASGIApp, Message, Receive, Scope, Send

    from host_bench import Server

BUDGET = 1.10  # on / off, the server's CPU time per action


@contextlib.contextmanager
def quiet_stderr() -> Iterator[None]:
    """Standard error to /dev/null for what starts meanwhile (a server of JSON logs)."""
    saved = os.dup(2)
    with open(os.devnull, "w") as null:
        os.dup2(null.fileno(), 2)
    try:
        yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)


def layer_cost(requests: int) -> dict[str, float]:
    """(m): CPU seconds per action request through the observing layer alone, over an app that
    answers at once (the best of 3 runs), beside the bare app's."""
    import logging

    from magdagdon.api.edge.observe import Observe, RouteNames
    from magdagdon.api.routes import games
    from magdagdon.observe import logs, metrics

    async def answer(scope: Scope, receive: Receive, send: Send) -> None:
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"{}"})

    async def receive() -> Message:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: Message) -> None:
        pass

    scope = {"type": "http", "method": "POST", "path": "/api/games/0123456789abcdef/actions"}
    routes = RouteNames(games.router.routes)

    async def run(app: ASGIApp) -> float:
        start = time.process_time()
        for _ in range(requests):
            await app(dict(scope), receive, send)
        return (time.process_time() - start) / requests

    handler = logging.StreamHandler(open(os.devnull, "w"))  # noqa: SIM115 (for the process)
    handler.setFormatter(logs.JsonFormatter())
    request_log = logging.getLogger("magdagdon.request")
    request_log.addHandler(handler)
    request_log.setLevel(logging.INFO)
    request_log.propagate = False
    costs = {"bare app": min(asyncio.run(run(answer)) for _ in range(3))}
    metrics.disable()
    plain = Observe(answer, routes=routes, log_requests=False)
    costs["metrics off"] = min(asyncio.run(run(plain)) for _ in range(3))
    metrics.enable()
    costs["metrics on"] = min(asyncio.run(run(plain)) for _ in range(3))
    logged = Observe(answer, routes=routes, log_requests=True)
    costs["on, JSON logs"] = min(asyncio.run(run(logged)) for _ in range(3))
    return costs


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--seconds", type=float, default=5.0, help="each figure, default 5")
    parser.add_argument("--rounds", type=int, default=4, help="rounds, default 4")
    parser.add_argument("--requests", type=int, default=20000, help="(m)'s, default 20000")
    args = parser.parse_args()
    costs = layer_cost(args.requests)
    bare = costs.pop("bare app")
    print(
        f"(m) the layer alone, this process, load {load():.1f}: CPU per request beyond "
        "the bare app's"
    )
    for label, cost in costs.items():
        print(f"    {label:<26} {1e6 * (cost - bare):6.1f} us")
    with tempfile.TemporaryDirectory(prefix="magdagdon-metrics-bench-") as tmp:
        folder = Path(tmp)
        configs = {
            "metrics off": {"MAGDAGDON_METRICS": "off"},
            "metrics on": {},
            "on, multi-process store": {"PROMETHEUS_MULTIPROC_DIR": str(folder / "multi")},
            "on, JSON logs": {"MAGDAGDON_LOG_FORMAT": "json"},
        }
        print(f"load average at the start: {load():.1f}; {os.cpu_count()} cores")
        servers: dict[str, Server] = {}
        try:
            for index, (label, env) in enumerate(configs.items()):
                with quiet_stderr():
                    servers[label] = start(str(folder / f"db{index}.sqlite3"), 1, env=env)
            for label, server in servers.items():  # warm: imports, connections, the WAL
                asyncio.run(crowd(server, 1, 1.0))
                warm_wal(server, folder / f"db{list(servers).index(label)}.sqlite3-wal", 20.0)
            figures = {label: Figures() for label in servers}
            for index in range(args.rounds):
                order = list(servers) if index % 2 == 0 else list(servers)[::-1]
                for label in order:
                    server = servers[label]
                    before = cpu_seconds(server.process.pid)
                    _, answered = asyncio.run(actions(server, args.seconds))
                    figures[label].add((cpu_seconds(server.process.pid) - before) / answered)
        finally:
            for server in servers.values():
                server.stop()
    off = figures["metrics off"]
    print(
        f"SQLite, 1 worker, one client playing for {args.seconds:g} s, {args.rounds} rounds: "
        "the server's CPU time per request (ms), median of the rounds; x = median of each "
        "round's ratio to metrics off"
    )
    for label, figure in figures.items():
        ratio = statistics.median(
            mine / base for mine, base in zip(figure.values, off.values, strict=True)
        )
        verdict = ""
        if label == "metrics on":
            verdict = f" — budget <= {BUDGET:g}x: " + ("met" if ratio <= BUDGET else "MISSED")
        print(
            f"    {label:<26} {1000 * figure.median():6.3f} ms  x {ratio:5.3f}{verdict}  "
            f"(rounds {figure.rounds('{:.6f} s')})"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
