"""``magdagdon serve --lan`` on test hosts of our own (network namespaces): it prints the URL of
the machine's network address, never a loopback one, and that URL's QR code; it answers on
every address it listens on; with no network it says so and exits 1."""

from __future__ import annotations

import ipaddress
import queue
import subprocess
import sys
import threading
from typing import TYPE_CHECKING

import pytest

from device.netns import SERVER_ADDRESS, Network, fetch_json, inside, require_namespaces
from device.qr_read import read_terminal
from waits import EVENTUALLY

if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path

START_TIMEOUT = EVENTUALLY


@pytest.fixture
def network() -> Iterator[Network]:
    require_namespaces()
    made = Network()
    yield made
    made.remove()


class LanServer:
    """``magdagdon serve --lan`` inside a namespace, and what it printed."""

    def __init__(self, host: str, db: Path) -> None:
        command = [sys.executable, "-m", "magdagdon", "serve", "--lan", "--port", "0"]
        command += ["--no-browser", "--db", str(db)]
        self.process = subprocess.Popen(
            inside(host, *command), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
        )
        self._lines: queue.Queue[str] = queue.Queue()
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self._lines.put(line.rstrip("\n"))
        self._lines.put("")  # the end

    def line(self) -> str:
        try:
            return self._lines.get(timeout=START_TIMEOUT)
        except queue.Empty:
            raise AssertionError("the server printed nothing in time") from None

    def qr_lines(self) -> list[str]:
        """The QR code's lines, up to its last (half-height) row."""
        lines: list[str] = []
        while not lines or set(lines[-1]) != {"▀"}:
            line = self.line()
            assert line, f"the output ended inside the QR code: {lines}"
            lines.append(line)
        return lines

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait(EVENTUALLY)


def test_lan_prints_the_network_url_and_its_qr_code_and_answers_on_every_address(
    network: Network, tmp_path: Path
) -> None:
    host, client = network.link(default_route=True)
    server = LanServer(host, tmp_path / "lan.sqlite3")
    try:
        first = server.line()
        assert first.startswith("Serving on http://"), first
        url = first.removeprefix("Serving on ")
        address, port = url.removeprefix("http://").rsplit(":", 1)
        assert not ipaddress.ip_address(address).is_loopback
        assert address == SERVER_ADDRESS  # the server host's only network address
        assert url in server.line()  # "Play on your phone: … open URL"
        assert read_terminal(server.qr_lines()) == [url]

        # the phone's side: another host on the network opens the printed URL
        seen = fetch_json(client, f"{url}/api/server")
        assert seen["status"] == 200
        body = seen["body"]
        assert isinstance(body, dict)
        assert body["lan_url"] == url
        assert str(body["lan_qr_svg"]).startswith("<svg")
        # and the machine itself, through the loopback address it also listens on: the page
        # opened there still shows the network URL to a phone
        local = fetch_json(host, f"http://127.0.0.1:{port}/api/server")
        assert local["status"] == 200
        assert local["body"] == body
    finally:
        server.stop()


def test_without_a_default_route_the_interfaces_address_is_used(
    network: Network, tmp_path: Path
) -> None:
    host, client = network.link(default_route=False)
    server = LanServer(host, tmp_path / "lan.sqlite3")
    try:
        url = server.line().removeprefix("Serving on ")
        assert url.startswith(f"http://{SERVER_ADDRESS}:")
        assert fetch_json(client, f"{url}/api/server")["status"] == 200
    finally:
        server.stop()


def test_with_no_network_lan_is_a_clear_error(network: Network, tmp_path: Path) -> None:
    host = network.host("s")  # loopback only
    server = LanServer(host, tmp_path / "lan.sqlite3")
    try:
        assert server.process.wait(EVENTUALLY) == 1
        assert server.process.stderr is not None
        error = server.process.stderr.read()
        assert "--lan" in error
        assert "no network address" in error
        assert not (tmp_path / "lan.sqlite3").exists()  # it stopped before opening anything
    finally:
        server.stop()
