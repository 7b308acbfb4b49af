"""Two hosts on one PostgreSQL behind nginx (docs/hosting.md "More than one machine"): two
separate ``magdagdon serve --workers 2`` supervisors on two ports, as two machines would run
them, in one nginx ``upstream`` (docs/hosting/nginx.conf with both servers in it), clients
spread over both by nginx's round robin. One player's game moves between the hosts in the
middle of a turn; the day's table, the rate limits, a device link and a review read the same
from either host; each host's metrics count exactly the answers it gave; one host is killed
(supervisor and workers, SIGKILL: a machine gone) and the other serves on.

nginx adds ``X-Upstream`` (``$upstream_addr``) to each answer here, so the test knows which host
answered; the committed file does not."""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import signal
import ssl
import subprocess
import time
from collections import Counter
from typing import TYPE_CHECKING, Any

import pytest

import server_process
from hosting.metric_samples import Samples, samples
from hosting.playing import legal_moves
from hosting.test_nginx import MAIN, executable, free_port, self_signed, site, wait_for_port
from hosting.worker_procs import workers_of
from server_process import launch_server
from waits import EVENTUALLY, wait_until

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator
    from pathlib import Path

    from server_process import ServerProcess

pytestmark = pytest.mark.slow
GAMES_RATE = 8  # a minute, each player: low enough to reach in a test
NEW_GAME = ("/api/games", "/api/daily")


class Client:
    """A device: its cookie, and which host answered each of its requests (each on a new
    connection to nginx, so that a connection nginx closed never stands in the way)."""

    def __init__(self, port: int, context: ssl.SSLContext) -> None:
        self.port, self.context = port, context
        self.cookie = ""
        self.hosts: list[str] = []
        self.bad_gateways = 0
        #: every answer: the host that gave it, the method, the path and the status
        self.answers: list[tuple[str, str, str, int]] = []

    def call(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        headers = {"content-type": "application/json", "origin": f"https://localhost:{self.port}"}
        headers["host"] = f"localhost:{self.port}"
        if self.cookie:
            headers["cookie"] = self.cookie
        conn = http.client.HTTPSConnection(
            "127.0.0.1", self.port, context=self.context, timeout=EVENTUALLY
        )
        try:
            payload = None if body is None else json.dumps(body)
            conn.request(method, path, body=payload, headers=headers)
            response = conn.getresponse()
            raw = response.read()
        finally:
            conn.close()
        data = json.loads(raw) if response.status != 502 else None  # nginx's own page
        cookie = response.getheader("set-cookie")
        if cookie:
            self.cookie = cookie.split(";")[0]
        self.hosts.append(response.getheader("x-upstream") or "")
        self.answers.append((self.hosts[-1], method, path, response.status))
        return response.status, data

    def ok(self, method: str, path: str, body: Any = None) -> Any:
        status, data = self.call(method, path, body)
        assert status in (200, 201), (method, path, status, data)
        return data

    def play(self, state: dict[str, Any], actions: int | None = None) -> dict[str, Any]:
        """The first legal move, again and again: ``actions`` of them, or to the game's end.
        Each carries the game's ``version``, as the page sends it, so that an action whose
        answer was lost (nginx's 502) is sent again safely (docs/api.md: a retry)."""
        done = 0
        avoid: set[tuple[int, tuple[int, int]]] = set()  # placements that left the turn stuck
        turn = state["turn"]
        while state["phase"] != "over" and (actions is None or done < actions):
            if state["turn"] != turn:
                avoid, turn = set(), state["turn"]
            if state["stuck"]:  # never the same placement again this turn: no endless loop
                avoid |= {(d["id"], tuple(d["cell"])) for d in state["dice"] if d["cell"]}
            moves = legal_moves(state)
            fresh = [
                m
                for m in moves
                if m["type"] != "stage" or (m["die"], tuple(m["cell"])) not in avoid
            ]
            move = (fresh or moves)[0] | {"version": state["version"]}
            path = f"/api/games/{state['id']}/actions"
            status, answer = self.call("POST", path, move)
            if status == 502:
                self.bad_gateways += 1
                status, answer = self.call("POST", path, move)
            assert status == 200, (status, answer)
            assert answer["version"] == state["version"] + 1
            state = answer
            done += 1
        return state


def direct(server: ServerProcess, path: str, cookie: str = "") -> Any:
    """A GET straight to one host (without a cookie: a stranger's view)."""
    conn = http.client.HTTPConnection(server.host, server.port, timeout=EVENTUALLY)
    try:
        conn.request("GET", path, headers={"cookie": cookie} if cookie else {})
        response = conn.getresponse()
        assert response.status == 200, (path, response.status)
        return json.loads(response.read())
    finally:
        conn.close()


def scrape(server: ServerProcess) -> Samples:
    """Every sample of one host's ``/metrics`` (its workers' counts together), by name and
    labels; asked from this machine, which needs no token."""
    conn = http.client.HTTPConnection(server.host, server.port, timeout=EVENTUALLY)
    try:
        conn.request("GET", "/metrics")
        response = conn.getresponse()
        assert response.status == 200
        text = response.read().decode()
    finally:
        conn.close()
    return samples(text)


def grew(before: Samples, after: Samples, name: str, **labels: str) -> float:
    """How much the samples of ``name`` with ``labels`` (and any others) grew in sum."""

    def total(samples: Samples) -> float:
        wanted = set(labels.items())
        return sum(v for (n, ls), v in samples.items() if n == name and wanted <= set(ls))

    return total(after) - total(before)


def check_metrics_agree(
    servers: list[ServerProcess], before: list[Samples], clients: list[Client]
) -> None:
    """Each host counted exactly the answers its clients had from it: its actions applied, its
    games started and its refusals of the games rate, so that the two hosts' metrics added up
    are the whole service's."""
    after = [scrape(server) for server in servers]
    answers = [answer for client in clients for answer in client.answers]
    for server, old, new in zip(servers, before, after, strict=True):
        mine = [a for a in answers if a[0] == f"127.0.0.1:{server.port}"]
        acted = sum(1 for _, m, p, s in mine if p.endswith("/actions") and s == 200)
        started = sum(1 for _, m, p, s in mine if p in NEW_GAME and m == "POST" and s == 201)
        limited = sum(1 for _, m, p, s in mine if s == 429)
        assert acted > 0, mine  # each host served its share
        assert started > 0, mine
        route = "/api/games/{game_id}/actions"
        assert grew(old, new, "magdagdon_http_requests_total", route=route, status="200") == acted
        assert grew(old, new, "magdagdon_actions_applied_total") == acted
        assert grew(old, new, "magdagdon_games_started_total") == started
        assert grew(old, new, "magdagdon_http_requests_total", status="429") == limited


def kill_host(server: ServerProcess) -> None:
    """The machine gone: its supervisor and its workers, all at once, with SIGKILL."""
    for pid in [*workers_of(server), server.process.pid]:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
    server.process.wait(EVENTUALLY)
    wait_until(lambda: not workers_of(server), "the killed host's workers gone")


@pytest.fixture
def hosts(
    make_db: Callable[..., str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[tuple[list[ServerProcess], Client, Callable[[], Client]]]:
    monkeypatch.setattr(server_process, "SERVER_START_TIMEOUT", 180.0)
    monkeypatch.setenv("MAGDAGDON_GAMES_RATE", f"{GAMES_RATE}/minute")
    db = make_db("postgresql")
    servers: list[ServerProcess] = []
    prefix = tmp_path / "nginx"
    prefix.mkdir()
    cert, key = self_signed(prefix)
    nginx = None
    try:
        for _ in range(2):
            servers.append(
                launch_server(
                    db, tmp_path / "logs", "--workers", "2", "--forwarded-allow-ips", "127.0.0.1"
                )
            )
        http_port, https_port = free_port(), free_port()
        text = site(servers[0].port, http_port, https_port, cert, key)
        first = f"server 127.0.0.1:{servers[0].port};"
        assert first in text
        text = text.replace(first, f"{first}\n    server 127.0.0.1:{servers[1].port};")
        text = text.replace(
            "proxy_pass http://magdagdon;",
            "proxy_pass http://magdagdon;\n        add_header X-Upstream $upstream_addr always;",
        )
        (prefix / "magdagdon.conf").write_text(text)
        (prefix / "nginx.conf").write_text(MAIN.format(prefix=prefix))
        log = prefix / "error.log"
        command = [executable("nginx"), "-p", str(prefix), "-c", str(prefix / "nginx.conf")]
        nginx = subprocess.Popen([*command, "-e", str(log)], stderr=subprocess.STDOUT)
        wait_for_port(https_port, nginx, log)
        context = ssl.create_default_context(cafile=str(cert))
        yield servers, Client(https_port, context), lambda: Client(https_port, context)
    finally:
        if nginx is not None:
            nginx.send_signal(signal.SIGQUIT)
            try:
                nginx.wait(EVENTUALLY)
            except subprocess.TimeoutExpired:
                nginx.kill()
                nginx.wait()
        for server in servers:
            server.kill()


def test_two_hosts_on_one_postgresql_behind_nginx_serve_one_game_and_survive_one_host(
    hosts: tuple[list[ServerProcess], Client, Callable[[], Client]],
) -> None:
    servers, alice, new_client = hosts
    names = {f"127.0.0.1:{server.port}" for server in servers}

    metered = [scrape(server) for server in servers]
    # one game, its turns answered by both hosts in turn: each action where the last left it
    game = alice.ok("POST", "/api/games", {"difficulty": "peaceful"})
    alice.hosts.clear()
    game = alice.play(game, 12)
    assert set(alice.hosts) == names, alice.hosts  # the first turn alone moved between them
    assert all(a != b for a, b in zip(alice.hosts, alice.hosts[1:], strict=False))
    game = alice.play(game)
    assert game["phase"] == "over"
    for server in servers:  # the same game on both hosts
        mine = direct(server, f"/api/games/{game['id']}", alice.cookie)
        assert mine["version"] == game["version"]

    # today's table: several players, each of their games over both hosts; both hosts agree
    players = [new_client() for _ in range(4)]
    for player in players:
        daily = player.ok("POST", "/api/daily", {"difficulty": "peaceful"})
        player.play(daily)
    tables = [direct(server, "/api/daily/table?difficulty=peaceful") for server in servers]
    assert tables[0] == tables[1]
    assert [row["rank"] for row in tables[0]] == [1, 2, 3, 4]

    # the games rate is one count for the two hosts, not one each
    eager = new_client()
    eager.ok("PUT", "/api/player", {"language": "en"})  # a player: counted by its cookie
    # a window starts on the database's minute: all twelve within one
    wait_until(lambda: time.time() % 60 < 40, "the start of a minute", every=0.5)
    statuses = [eager.call("POST", "/api/games", {"difficulty": "peaceful"})[0] for _ in range(12)]
    assert set(eager.hosts) == names
    assert Counter(statuses) == {201: GAMES_RATE, 429: 12 - GAMES_RATE}, statuses
    check_metrics_agree(servers, metered, [alice, *players, eager])

    # a device link made on one host is spent on the other, once
    link = alice.ok("POST", "/api/player/link")
    phone, tablet = new_client(), new_client()
    spent = [phone.call("POST", f"/api/player/link/{link['code']}")]
    spent.append(tablet.call("POST", f"/api/player/link/{link['code']}"))
    assert [status for status, _ in spent] == [200, 404], spent
    assert phone.hosts[-1] != tablet.hosts[-1]
    assert phone.ok("GET", f"/api/games/{game['id']}")["id"] == game["id"]  # phone is Alice

    # a review started by one host is computed once and read the same from both
    def reviewed() -> Any:
        status, data = phone.call("GET", f"/api/games/{game['id']}/review")
        return data if status == 200 else None

    review = wait_until(reviewed, "the review done")
    assert review["status"] == "done"
    again = [alice.ok("GET", f"/api/games/{game['id']}/review") for _ in range(2)]
    assert again == [review, review]
    assert set(alice.hosts[-2:]) == names

    # one host gone: the other serves on, a game under way included
    game = alice.ok("POST", "/api/games", {"difficulty": "peaceful"})
    game = alice.play(game, 5)
    kill_host(servers[0])
    alice.hosts.clear()
    game = alice.play(game)
    assert game["phase"] == "over"
    alive = f"127.0.0.1:{servers[1].port}"
    # an action nginx sent on a kept-alive connection to the dead host lost its answer (502,
    # once: nginx does not send a POST on again), and its retry was answered by the other
    print(f"after the kill: {alice.bad_gateways} answers 502, then served by {alive}")
    assert alice.bad_gateways <= 1
    elsewhere = [host for host in alice.hosts if not host.endswith(alive)]
    assert len(elsewhere) == alice.bad_gateways, alice.hosts
    assert direct(servers[1], "/api/daily/table?difficulty=peaceful") == tables[0]
    assert direct(servers[1], "/api/health") == {"status": "ok", "database": "ok"}
