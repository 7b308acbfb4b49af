"""Screenshots of the screens of play on other devices, in the layouts and both schemes, for a
person to look at (artifacts/screenshots/device-*.png): SETTINGS with the phone's and the link's
QR codes, the question and the result of opening a link (linked, and refused), the offline
notice."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from device.page_helpers import TIMEOUT_MS, new_device, open_page, open_screen, wait_ready
from device.pwa_helpers import wait_controlled
from web.web_helpers import SCREENSHOTS

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path

    from playwright.sync_api import Browser, Page

    from server_process import ServerProcess

pytestmark = [pytest.mark.browser, pytest.mark.slow]
LAYOUTS = ("phone", "phone-360", "sideways-844", "desktop")
LAN_URL = "http://192.168.1.23:8765"  # shown only: nothing is sent there


@pytest.fixture
def server(
    start_server: Callable[[str | Path], ServerProcess],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> ServerProcess:
    monkeypatch.setenv("MAGDAGDON_LAN_URL", LAN_URL)
    return start_server(tmp_path / "screens.sqlite3")


def shoot(page: Page, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    # the sheet's opening, and every other effect that ends (the coach's pulse never does)
    page.evaluate(
        """Promise.all(document.getAnimations()
            .filter(a => a.effect && a.effect.getTiming().iterations !== Infinity)
            .map(a => a.finished.catch(() => null)))"""
    )
    page.screenshot(path=str(SCREENSHOTS / f"device-{name}.png"))


def show(page: Page, selector: str, block: str) -> None:
    """Scroll the sheet so that ``selector`` is at the ``block`` ("start", "center") of it."""
    page.locator(selector).first.evaluate(
        "(el, block) => el.scrollIntoView({ block, behavior: 'instant' })", block
    )


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_device_screens(browser: Browser, server: ServerProcess, scheme: str) -> None:
    for layout in LAYOUTS:
        name = f"{layout}-{scheme}"
        first = new_device(browser, layout, color_scheme=scheme)
        second = new_device(browser, layout, color_scheme=scheme)
        try:
            page = first.new_page()
            open_page(page, f"{server.url}/")
            wait_controlled(page)
            open_screen(page, "settings")
            page.locator('[data-qr="lan"]').wait_for(timeout=TIMEOUT_MS)
            show(page, "[data-devices]", "start")
            shoot(page, f"{name}-settings-phone")
            page.locator('[data-action="link-device"]').click()
            show(page, "[data-link-made]", "center")
            shoot(page, f"{name}-settings-link")
            code = page.locator("[data-link-url]").inner_text().split("#link=")[1]
            page.locator('[data-action="close"]').first.click()

            other = second.new_page()
            open_page(other, f"{server.url}/#link={code}")
            other.locator('[data-action="link-use"]').wait_for(timeout=TIMEOUT_MS)
            shoot(other, f"{name}-link-ask")
            other.locator('[data-action="link-use"]').click()
            other.locator('[data-link-result="linked"]').wait_for(timeout=TIMEOUT_MS)
            shoot(other, f"{name}-link-linked")
            other.goto(f"{server.url}/#link={code}")  # the same link again
            other.locator('[data-action="link-use"]').click(timeout=TIMEOUT_MS)
            other.locator('[data-link-result="invalid"]').wait_for(timeout=TIMEOUT_MS)
            shoot(other, f"{name}-link-invalid")

            first.set_offline(True)
            page.reload()
            wait_ready(page)
            page.locator('[data-notice="offline"]').wait_for(timeout=TIMEOUT_MS)
            shoot(page, f"{name}-offline")
            page.locator('[data-action="roll"]').click()
            page.locator("[data-offline-pending]").wait_for(timeout=TIMEOUT_MS)
            shoot(page, f"{name}-offline-pending")
        finally:
            first.close()
            second.close()
