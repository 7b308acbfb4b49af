"""A SQLite database on a volume that fills up serves again by itself once room is freed
(docs/hosting.md "When the database cannot be used"): on a 2 MB volume (a tmpfs this test
mounts: it runs as root, as ``make test`` does), where SQLite's write-ahead log alone used to
fill the volume before its first checkpoint (4 MB) and the server answered 503 for good."""

from __future__ import annotations

import os
import subprocess
import threading
import time
from typing import TYPE_CHECKING

import pytest

from hosting.playing import Player, check_acknowledged
from magdagdon.store.connect import wal_pages
from server_process import launch_server
from waits import EVENTUALLY, wait_until

if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path

pytestmark = pytest.mark.slow


@pytest.fixture
def small_volume(tmp_path: Path) -> Iterator[Path]:
    if os.geteuid() != 0:
        pytest.skip("mounting a tmpfs needs root (make test runs as root)")
    volume = tmp_path / "volume"
    volume.mkdir()
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", str(volume)], check=True)
    yield volume
    subprocess.run(["umount", "--lazy", str(volume)], check=True)


def _fill(volume: Path) -> Path:
    filler = volume / "filler"
    try:
        with filler.open("wb") as file:
            while True:
                file.write(b"\0" * 4096)
                file.flush()
    except OSError:  # no space left on the device: what the test wants
        pass
    return filler


def _served(players: list[Player]) -> int:
    return sum(player.statuses["200"] for player in players)


def test_a_full_small_volume_serves_again_by_itself_once_room_is_freed(
    small_volume: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MAGDAGDON_RATE_LIMITS", "off")  # new games as fast as they come
    db = small_volume / "magdagdon.sqlite3"
    # room kept: the log checkpoints at an eighth of the volume (64 pages, 256 KB), not 4 MB
    assert wal_pages(str(db)) == 64
    server = launch_server(db, tmp_path / "logs")
    stop = threading.Event()
    players = [Player(server, index, stop) for index in range(2)]
    wal = small_volume / "magdagdon.sqlite3-wal"
    try:
        for player in players:
            player.start()
        wait_until(lambda: _served(players) > 100, "clients playing")
        filler = _fill(small_volume)
        wait_until(
            lambda: any(p.statuses["503 storage_unavailable"] for p in players), "the disk full"
        )
        full_503s = sum(p.statuses["503 storage_unavailable"] for p in players)
        assert wal.stat().st_size <= 2 * 64 * 4096  # the log never took the volume
        filler.unlink()
        freed_at = time.monotonic()
        served = _served(players)
        wait_until(lambda: _served(players) > served, "an action served after room was freed")
        back_in = time.monotonic() - freed_at
        wait_until(lambda: _served(players) > served + 200, "play going on")
        answer = Player(server, 99, threading.Event()).call("GET", "/api/health")
        assert answer == (200, {"status": "ok", "database": "ok"})
    finally:
        stop.set()
        for player in players:
            player.join(EVENTUALLY)
        server.stop()
    print(f"2 MB volume: {full_503s} answers 503 while full; served again {back_in:.2f} s after")
    statuses = set().union(*(player.statuses for player in players))
    assert statuses <= {"200", "201", "503 storage_unavailable"}, statuses
    check_acknowledged(str(db), [a for player in players for a in player.acknowledged])
