"""One player on every device in two real browser contexts: a link made in
SETTINGS on one, opened on the other, makes it the same player (the same current game and High
Scores); the second device's turn shows on the first after a reload; the same link again, an
expired one (the test moves the server's clock) and a wrong one are refused and change nothing;
a device can leave its player. The QR codes on the page are read back with a QR reader."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any

import pytest

from device.page_helpers import (
    QR_PIXELS,
    TIMEOUT_MS,
    api,
    body_data,
    eventually,
    new_device,
    open_page,
    open_screen,
    wait_ready,
)
from device.qr_read import read_grey
from magdagdon import clock
from magdagdon.engine import Difficulty, GameState, action_to_json
from plans import plain_turn

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator
    from pathlib import Path

    from playwright.sync_api import Browser, Page

    from server_process import ServerProcess

pytestmark = pytest.mark.browser
START = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
LAN_URL = "http://198.51.100.2:8765"  # shown only: nothing is sent there


@pytest.fixture
def clock_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "clock"
    path.write_text(START.isoformat())
    monkeypatch.setenv(clock.ENV_VAR, str(path))
    monkeypatch.setenv("MAGDAGDON_LAN_URL", LAN_URL)
    return path


@pytest.fixture
def server(
    clock_file: Path, start_server: Callable[[str | Path], ServerProcess], tmp_path: Path
) -> ServerProcess:
    return start_server(tmp_path / "devices.sqlite3")


@pytest.fixture
def devices(browser: Browser) -> Iterator[Callable[[], Page]]:
    made = []

    def device() -> Page:
        context = new_device(browser)
        made.append(context)
        return context.new_page()

    yield device
    for context in made:
        context.close()


def finish_a_game(page: Page, url: str) -> None:
    """A whole seeded game through the API (so the player has a High Score)."""
    seed = 11
    game = api(page, "POST", f"{url}/api/games", {"difficulty": "peaceful", "seed": seed})
    state = GameState.new(Difficulty.PEACEFUL, seed)
    while not state.is_over:
        for action in plain_turn(state):
            state = state.apply(action)
            api(page, "POST", f"{url}/api/games/{game['id']}/actions", action_to_json(action))


def read_qr(page: Page, selector: str) -> list[str]:
    image = page.locator(selector)
    image.wait_for(timeout=TIMEOUT_MS)
    picture: dict[str, Any] = image.evaluate(QR_PIXELS)
    return read_grey(picture["grey"], picture["size"], picture["size"])


def make_link(page: Page) -> str:
    open_screen(page, "settings")
    page.locator('[data-action="link-device"]').click()
    url = page.locator("[data-link-url]").inner_text(timeout=TIMEOUT_MS)
    assert read_qr(page, '[data-qr="link"]') == [url]
    page.locator('[data-action="close"]').first.click()
    return url


def use_link(page: Page, url: str) -> str:
    """Open the link's URL, say yes; the result the page shows (``linked`` or ``invalid``)."""
    page.goto(url)
    page.locator('[data-action="link-use"]').click(timeout=TIMEOUT_MS)
    result = page.locator("[data-link-result]")
    result.wait_for(timeout=TIMEOUT_MS)
    return str(result.get_attribute("data-link-result"))


def test_a_link_made_on_one_device_makes_the_other_the_same_player(
    devices: Callable[[], Page], server: ServerProcess, clock_file: Path
) -> None:
    first, second = devices(), devices()
    open_page(first, f"{server.url}/")
    finish_a_game(first, server.url)
    open_page(first, f"{server.url}/")  # a new game under way, and one High Score
    mine = api(first, "GET", f"{server.url}/api/games/current")
    scores = api(first, "GET", f"{server.url}/api/highscores?difficulty=peaceful")
    assert len(scores) == 1
    # SETTINGS also shows where a phone plays: the server's network address and its code
    open_screen(first, "settings")
    assert read_qr(first, '[data-qr="lan"]') == [LAN_URL]
    first.locator('[data-action="close"]').first.click()

    made = make_link(first)
    # made on the machine itself (a loopback address), the link names the network address, the
    # one a phone can open; the second device here is on the same machine, so it opens the
    # same link at the loopback address (no traffic goes to the network address)
    assert made.startswith(f"{LAN_URL}/#link=")
    link = made.replace(LAN_URL, server.url)
    open_page(second, f"{server.url}/")  # a stranger first, with a game of its own
    assert api(second, "GET", f"{server.url}/api/games/current")["id"] != mine["id"]
    assert use_link(second, link) == "linked"
    assert "#link=" not in second.url
    second.locator('[data-action="close"]').first.click()
    wait_ready(second)
    assert api(second, "GET", f"{server.url}/api/games/current")["id"] == mine["id"]
    assert api(second, "GET", f"{server.url}/api/highscores?difficulty=peaceful") == scores
    assert body_data(second, "version") == str(mine["version"])

    # the second device plays a turn's first move; the first sees it after a reload
    second.locator('[data-action="roll"]').click()
    assert eventually(lambda: body_data(second, "version") == str(mine["version"] + 1))
    open_page(first, f"{server.url}/")
    assert body_data(first, "version") == str(mine["version"] + 1)
    assert body_data(first, "phase") == "place"

    # the same link again: refused, and that device stays who it was
    third = devices()
    open_page(third, f"{server.url}/")
    own = api(third, "GET", f"{server.url}/api/games/current")["id"]
    assert use_link(third, link) == "invalid"
    wait_ready(third)
    assert api(third, "GET", f"{server.url}/api/games/current")["id"] == own


def test_an_expired_or_wrong_link_is_refused(
    devices: Callable[[], Page], server: ServerProcess, clock_file: Path
) -> None:
    first, other = devices(), devices()
    open_page(first, f"{server.url}/")
    link = make_link(first).replace(LAN_URL, server.url)
    clock_file.write_text((START + timedelta(minutes=10, seconds=1)).isoformat())
    open_page(other, f"{server.url}/")
    own = api(other, "GET", f"{server.url}/api/games/current")["id"]
    assert use_link(other, link) == "invalid"
    assert use_link(other, f"{server.url}/#link=AAAAAAAAAAAAAAAAAAAAAAAA") == "invalid"
    wait_ready(other)
    assert api(other, "GET", f"{server.url}/api/games/current")["id"] == own


def test_a_device_can_leave_its_player(devices: Callable[[], Page], server: ServerProcess) -> None:
    page = devices()
    open_page(page, f"{server.url}/")
    before = api(page, "GET", f"{server.url}/api/games/current")["id"]
    open_screen(page, "settings")
    page.locator('[data-action="leave"]').click()
    with page.expect_navigation():  # the page opens afresh, as nobody
        page.locator('[data-action="leave-yes"]').click()
    wait_ready(page)
    assert api(page, "GET", f"{server.url}/api/games/current")["id"] != before
