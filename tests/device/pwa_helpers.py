"""Looking at the app on the home screen from the browser: the worker, its caches, the manifest
as Chromium reads it. Each waits with a promise inside the page (evaluate), never with
``wait_for_function``, which the page's CSP forbids (no 'unsafe-eval')."""

from __future__ import annotations

import struct
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from playwright.sync_api import Page

# resolves once a worker is activated and controls the page: its state, script and scope
CONTROLLED = """async () => {
  const registration = await navigator.serviceWorker.ready;
  const worker = registration.active;
  if (worker.state !== "activated") {
    await new Promise((resolve) => worker.addEventListener("statechange", function seen() {
      if (worker.state === "activated") resolve();
    }));
  }
  if (!navigator.serviceWorker.controller) {
    await new Promise((resolve) =>
      navigator.serviceWorker.addEventListener("controllerchange", resolve, { once: true }));
  }
  return { state: worker.state, script: worker.scriptURL,
           scope: registration.scope };
}"""
CACHES = "async () => (await caches.keys()).sort()"


def wait_controlled(page: Page) -> dict[str, Any]:
    """The player's first touch of the page (a key: it taps nothing), which is when a first
    visit registers the worker (js/core/offline.js), then the worker in control."""
    page.keyboard.press("Shift")
    found: dict[str, Any] = page.evaluate(CONTROLLED)
    return found


def cache_names(page: Page) -> list[str]:
    names: list[str] = page.evaluate(CACHES)
    return names


def png_size(data: bytes) -> tuple[int, int]:
    """The width and height a PNG's header declares."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def manifest_as_chromium_reads_it(page: Page) -> dict[str, Any]:
    """Chromium's own reading of the page's manifest (DevTools' Application panel): its URL,
    its errors, and whether the page could be installed."""
    cdp = page.context.new_cdp_session(page)
    manifest: dict[str, Any] = cdp.send("Page.getAppManifest")
    installability: dict[str, Any] = cdp.send("Page.getInstallabilityErrors")
    cdp.detach()
    return {**manifest, "installability": installability.get("installabilityErrors", [])}
