"""The screens of play on other devices, in the layouts and both schemes: SETTINGS with the
phone's and the link's QR codes, the question and the result of opening a link (linked, and
refused), the offline notice. On each: no horizontal scroll, the sheet and every button whole on
the screen and at least 44 px, no two buttons over each other, a QR code inside its sheet; and a
screenshot for a person to look at (artifacts/screenshots/device-*.png)."""

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


#: What is wrong with the screen as it is: a horizontal scroll, the open sheet or a visible
#: button (of the sheet when one is open) not whole on the screen or under 44 px, two buttons
#: over each other, a QR code wider than its sheet.
PROBLEMS = """() => {
    const problems = [];
    const doc = document.scrollingElement;
    if (doc.scrollWidth > innerWidth + 1) problems.push(`scrolls sideways: ${doc.scrollWidth}`);
    const whole = (r) => r.left >= -0.5 && r.top >= -0.5 && r.right <= innerWidth + 0.5
        && r.bottom <= innerHeight + 0.5;
    const sheet = document.querySelector("dialog[open]");
    const box = sheet ? sheet.getBoundingClientRect() : null;
    if (sheet && !whole(box)) problems.push(`the sheet is off the screen: ${JSON.stringify(box)}`);
    if (sheet && sheet.scrollWidth > sheet.clientWidth + 1) problems.push("the sheet: sideways");
    const buttons = [...(sheet ?? document).querySelectorAll("button")]
        .filter((b) => b.offsetParent !== null);
    const rects = buttons.map((b) => [b, b.getBoundingClientRect()]);
    for (const [b, r] of rects) {
        const name = b.dataset.action || b.textContent.trim().slice(0, 20);
        // a sheet's own content may scroll under its foot: only sideways counts there
        const seen = sheet ? r.left >= box.left - 0.5 && r.right <= box.right + 0.5 : whole(r);
        if (!seen) problems.push(`${name} is off the screen: ${JSON.stringify(r)}`);
        if (r.width < 44 || r.height < 44) problems.push(`${name} is ${r.width}×${r.height}`);
    }
    // (a sheet's content scrolls under its head by design: those pairs are not counted)
    const apart = (a, b) => Boolean(a.closest(".sheet-head")) !== Boolean(b.closest(".sheet-head"));
    rects.forEach(([a, r], i) => rects.slice(i + 1).forEach(([b, q]) => {
        if (sheet && apart(a, b)) return;
        const w = Math.min(r.right, q.right) - Math.max(r.left, q.left);
        const h = Math.min(r.bottom, q.bottom) - Math.max(r.top, q.top);
        if (w > 1 && h > 1) problems.push(`${a.textContent.trim()} over ${b.textContent.trim()}`);
    }));
    for (const qr of document.querySelectorAll("[data-qr]")) {
        const r = qr.getBoundingClientRect();
        if (box && (r.left < box.left - 0.5 || r.right > box.right + 0.5)) {
            problems.push(`the QR code ${qr.dataset.qr} is wider than its sheet`);
        }
    }
    return problems;
}"""


def shoot(page: Page, name: str) -> None:
    """The screen checked (PROBLEMS: none), then photographed."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    # the sheet's opening, and every other effect that ends (the coach's pulse never does)
    page.evaluate(
        """Promise.all(document.getAnimations()
            .filter(a => a.effect && a.effect.getTiming().iterations !== Infinity)
            .map(a => a.finished.catch(() => null)))"""
    )
    problems = page.evaluate(PROBLEMS)
    page.screenshot(path=str(SCREENSHOTS / f"device-{name}.png"))
    assert not problems, f"{name}: {problems}"


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
