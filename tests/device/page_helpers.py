"""Driving the page on two devices (browser contexts, each its own cookie and storage), under
the page's CSP: waits are selectors or promises inside the page, never ``wait_for_function``."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from playwright.sync_api import Error as PlaywrightError

from waits import EVENTUALLY
from web.web_helpers import LAYOUTS, NO_OFFLINE_ENGINE

if TYPE_CHECKING:
    from collections.abc import Callable

    from playwright.sync_api import Browser, BrowserContext, Page

TIMEOUT_MS = 15_000
# the page's QR image read as grey pixels (the reader in the test decodes them)
QR_PIXELS = """(img) => {
  const size = 400;
  const canvas = document.createElement("canvas");
  canvas.width = canvas.height = size;
  const context = canvas.getContext("2d");
  context.fillStyle = "#fff";
  context.fillRect(0, 0, size, size);
  context.drawImage(img, 0, 0, size, size);
  const rgba = context.getImageData(0, 0, size, size).data;
  const grey = [];
  for (let i = 0; i < rgba.length; i += 4) {
    grey.push(Math.round((rgba[i] + rgba[i + 1] + rgba[i + 2]) / 3));
  }
  return { size, grey };
}"""


def new_device(browser: Browser, layout: str = "phone", **options: Any) -> BrowserContext:
    context = browser.new_context(**{**LAYOUTS[layout], **options})
    context.add_init_script(NO_OFFLINE_ENGINE)  # tests/offline/ switches it on
    return context


def open_screen(page: Page, name: str) -> None:
    """A screen opened from the bar's MENU (a desktop lists it in the bar itself)."""
    item = page.locator(f'.menu [data-action="{name}"]')
    if not item.is_visible():
        page.locator('[data-action="menu"]').click()
    item.click()


def open_page(page: Page, url: str) -> None:
    page.goto(url)
    wait_ready(page)


def wait_ready(page: Page) -> None:
    page.wait_for_selector("body[data-ready]:not([data-busy])", timeout=TIMEOUT_MS)


def api(page: Page, method: str, url: str, data: Any = None) -> Any:
    """The API with this device's cookie."""
    answer = page.request.fetch(url, method=method, data=data)
    assert answer.ok, f"{method} {url}: {answer.status} {answer.text()}"
    return answer.json() if answer.body() else None


def eventually(check: Callable[[], bool], seconds: float = EVENTUALLY) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            if check():
                return True
        except PlaywrightError:  # between two documents
            pass
        time.sleep(0.1)
    return False


def body_data(page: Page, name: str) -> str | None:
    value: str | None = page.evaluate(f"document.body.dataset.{name} ?? null")
    return value
