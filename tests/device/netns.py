"""Test hosts of our own: network namespaces joined by a veth pair, made and removed by the test
(root and Debian's iproute2). Traffic between them never leaves the machine; the addresses are
TEST-NET-2 (198.51.100.0/24), which no real network uses."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from dataclasses import dataclass, field

import pytest

from waits import EVENTUALLY

SERVER_ADDRESS = "198.51.100.2"
CLIENT_ADDRESS = "198.51.100.1"
PREFIX = 24


def ip(*args: str) -> None:
    subprocess.run(["ip", *args], check=True, capture_output=True, text=True, timeout=EVENTUALLY)


def require_namespaces() -> None:
    if os.geteuid() != 0 or shutil.which("ip") is None:
        pytest.skip("network namespaces need root and iproute2 (CI runs as root)")


@dataclass
class Network:
    """A server host and a client host (two namespaces) on one link; ``server_only`` has just
    a loopback interface, as a machine with no network."""

    tag: str = field(default_factory=lambda: os.urandom(3).hex())
    made: list[str] = field(default_factory=list)

    def name(self, role: str) -> str:
        return f"mgd{role}{self.tag}"  # short: an interface name has at most 15 characters

    def host(self, role: str) -> str:
        name = self.name(role)
        ip("netns", "add", name)
        self.made.append(name)
        ip("-n", name, "link", "set", "lo", "up")
        return name

    def link(self, *, default_route: bool) -> tuple[str, str]:
        """Two hosts on one link: (server, client)."""
        server, client = self.host("s"), self.host("c")
        ends = self.name("vs"), self.name("vc")
        ip("link", "add", ends[0], "type", "veth", "peer", "name", ends[1])
        for end, host, address in (
            (ends[0], server, SERVER_ADDRESS),
            (ends[1], client, CLIENT_ADDRESS),
        ):
            ip("link", "set", end, "netns", host)
            ip("-n", host, "addr", "add", f"{address}/{PREFIX}", "dev", end)
            ip("-n", host, "link", "set", end, "up")
        if default_route:
            ip("-n", server, "route", "add", "default", "via", CLIENT_ADDRESS)
        return server, client

    def remove(self) -> None:
        for name in reversed(self.made):  # removing a namespace removes its veth end too
            subprocess.run(["ip", "netns", "delete", name], capture_output=True, timeout=10)
        self.made.clear()


def inside(host: str, *command: str) -> list[str]:
    """``command`` run inside the namespace ``host``."""
    return ["ip", "netns", "exec", host, *command]


_FETCH = """
import json, sys, urllib.request
with urllib.request.urlopen(sys.argv[1], timeout=120) as answer:
    print(json.dumps({"status": answer.status, "body": json.loads(answer.read())}))
"""


def fetch_json(host: str, url: str) -> dict[str, object]:
    """GET ``url`` from inside ``host``: ``{"status", "body"}``."""
    import json

    done = subprocess.run(
        inside(host, sys.executable, "-c", _FETCH, url),
        check=True,
        capture_output=True,
        text=True,
        timeout=EVENTUALLY,
    )
    answer: dict[str, object] = json.loads(done.stdout)
    return answer
