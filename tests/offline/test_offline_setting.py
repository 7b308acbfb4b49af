"""SETTINGS' offline play switch, in Debian's Chromium: switched off, the page fetches none of the
engine's runtime; switched on, the engine is fetched and becomes ready, and the download the switch
states is the bytes of exactly the files it fetched (as they are on the server's disk)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import urlparse

import pytest

from device.page_helpers import open_page, open_screen
from device.pwa_helpers import wait_controlled
from device.test_download import finish_a_turn
from offline.test_offline_play import ENGINE_MS
from waits import EVENTUALLY_MS
from web.web_helpers import LAYOUTS

if TYPE_CHECKING:
    from collections.abc import Iterator

    from playwright.sync_api import Browser, BrowserContext, Page

    from server_process import ServerProcess

pytestmark = [pytest.mark.browser, pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[2]
ON_DISK = {
    "/engine/runtime/": ROOT / "build" / "web-engine",
    "/engine/": ROOT / "src" / "magdagdon" / "web" / "engine",
}
SIZE_FILE = "/engine/runtime/engine-size.json"
LATER = "/js/sheets/daily.js"  # a page file the first visit leaves to the service worker


@pytest.fixture
def context(browser: Browser) -> Iterator[BrowserContext]:
    """A phone whose offline play was switched off once (SETTINGS may switch it on again)."""
    made = browser.new_context(**LAYOUTS["phone"])
    made.add_init_script("localStorage.setItem('magdagdon.tutorialOffered', '1')")
    made.add_init_script(
        "if (localStorage.getItem('magdagdon.offlinePlay') === null)"
        " localStorage.setItem('magdagdon.offlinePlay', '0')"
    )
    yield made
    made.close()


def on_disk(path: str) -> Path:
    prefix = next(p for p in ON_DISK if path.startswith(p))
    return ON_DISK[prefix] / path.removeprefix(prefix)


def switch(page: Page) -> None:
    page.locator('#sheet [data-action="offline-play"]').click()


def test_offline_play_switch_states_its_download_and_fetches_only_when_on(
    context: BrowserContext, live_server: ServerProcess
) -> None:
    fetched: list[str] = []
    context.on("request", lambda request: fetched.append(urlparse(request.url).path))

    def engine() -> list[str]:
        return sorted({p for p in fetched if p.startswith("/engine/") and p != SIZE_FILE})

    page = context.new_page()
    open_page(page, f"{live_server.url}/")
    wait_controlled(page)
    page.wait_for_selector('body[data-offline="off"]', state="attached")
    open_screen(page, "settings")
    button = page.locator('#sheet [data-action="offline-play"]')
    assert button.get_attribute("aria-pressed") == "false"
    stated = page.locator("#sheet [data-engine-bytes]:not([data-engine-bytes=''])")
    stated.wait_for()
    # off: past the first finished turn, when the page would fetch it, and past the moment the
    # service worker keeps the rest of the page (asked for at the same time, the same delay
    # after), none of the runtime came (the worker's two small scripts are the page's own)
    page.locator('[data-action="close"]').first.click()
    # waited on as an event: Playwright's sync API hands events to listeners (`fetched`) only
    # while the test calls into it
    with context.expect_event(
        "request", lambda request: urlparse(request.url).path == LATER, timeout=EVENTUALLY_MS
    ):
        finish_a_turn(page, live_server.url)
    assert [p for p in engine() if p.startswith("/engine/runtime/")] == []
    open_screen(page, "settings")

    switch(page)
    assert button.get_attribute("aria-pressed") == "true"
    assert page.evaluate("localStorage.getItem('magdagdon.offlinePlay')") == "1"
    page.wait_for_selector('body[data-offline="ready"]', state="attached", timeout=ENGINE_MS)
    page.wait_for_selector('#sheet [data-offline-state="offlineReady"]')
    said = page.locator('#sheet [data-offline-state="offlineReady"]').inner_text()
    assert "Handa na" in said
    # the download stated is what the engine fetched, byte for byte
    files = engine()
    assert "/engine/worker.js" in files
    assert any(name.endswith(".wasm") for name in files)
    total = sum(on_disk(name).stat().st_size for name in files)
    assert int(stated.get_attribute("data-engine-bytes") or "0") == total
    assert f"{total / 1e6:.1f} MB sa device" in stated.inner_text()
    # and what the wire carries: brotli's bytes, as the build measured them
    wire = json.loads((ON_DISK["/engine/runtime/"] / "engine-size.json").read_text())["wire"]["br"]
    assert int(stated.get_attribute("data-engine-wire") or "0") == wire
    assert f"({wire / 1e6:.1f} MB ang ida-download" in stated.inner_text()

    switch(page)
    assert button.get_attribute("aria-pressed") == "false"
    assert page.evaluate("localStorage.getItem('magdagdon.offlinePlay')") == "0"
    page.wait_for_selector('body[data-offline="off"]', state="attached")
