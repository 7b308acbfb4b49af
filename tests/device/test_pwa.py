"""The app on the home screen in a real Chromium, under the page's CSP: the
manifest and its icons load and Chromium finds the page installable; the service worker is
active and controls the page after the first visit; a new version of the page replaces the
old one on the next visit."""

from __future__ import annotations

import json
import shutil
from typing import TYPE_CHECKING

import pytest
from playwright.sync_api import Error as PlaywrightError

from device.inprocess import PageServer
from device.page_helpers import eventually
from device.pwa_helpers import cache_names, manifest_as_chromium_reads_it, png_size, wait_controlled
from magdagdon.api.page.static import WEB_DIR

if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path

    from playwright.sync_api import Browser, Page

    from server_process import ServerProcess

pytestmark = pytest.mark.browser
TIMEOUT_MS = 15_000


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    context = browser.new_context()
    opened = context.new_page()
    yield opened
    context.close()


def version_mark(page: Page) -> str | None:
    """The page's ``--version-mark`` (None while the page is between two documents)."""
    try:
        mark: str = page.evaluate(
            "getComputedStyle(document.documentElement).getPropertyValue('--version-mark').trim()"
        )
    except PlaywrightError:
        return None
    return mark


def open_page(page: Page, url: str) -> None:
    page.goto(url)
    page.wait_for_selector("body[data-ready]", timeout=TIMEOUT_MS)


def test_the_manifest_and_its_icons_load_and_the_page_is_installable(
    page: Page, live_server: ServerProcess
) -> None:
    open_page(page, f"{live_server.url}/")
    href = page.locator('link[rel="manifest"]').get_attribute("href")
    answer = page.request.get(f"{live_server.url}/{href}")
    assert answer.ok
    assert answer.headers["content-type"].startswith("application/manifest+json")
    manifest = json.loads(answer.body())
    assert manifest["name"] == "MAGDAGDON"
    assert manifest["display"] == "standalone"
    assert manifest["start_url"] == "/"
    assert manifest["theme_color"]
    assert manifest["background_color"]
    sizes: dict[str, set[int]] = {}
    for icon in manifest["icons"]:
        image = page.request.get(f"{live_server.url}/{icon['src']}")
        assert image.ok, icon
        assert image.headers["content-type"] == "image/png"
        width, height = png_size(image.body())
        assert icon["sizes"] == f"{width}x{height}"
        sizes.setdefault(icon.get("purpose", "any"), set()).add(width)
    assert sizes["any"] >= {192, 512}
    assert 512 in sizes["maskable"]
    # a theme colour for each scheme, in the page itself
    metas = page.locator('meta[name="theme-color"]')
    assert {metas.nth(i).get_attribute("media") for i in range(metas.count())} == {
        "(prefers-color-scheme: light)",
        "(prefers-color-scheme: dark)",
    }
    wait_controlled(page)  # installability wants the worker in control
    seen = manifest_as_chromium_reads_it(page)
    assert seen["url"] == f"{live_server.url}/manifest.webmanifest"
    assert seen["errors"] == []
    # installable; but for Playwright's contexts, which are all incognito ones
    assert [e["errorId"] for e in seen["installability"]] in ([], ["in-incognito"])


def test_the_worker_is_active_after_the_first_visit_and_keeps_the_page(
    page: Page, live_server: ServerProcess
) -> None:
    open_page(page, f"{live_server.url}/")
    worker = wait_controlled(page)
    assert worker["state"] == "activated"
    assert worker["script"] == f"{live_server.url}/sw.js"
    assert worker["scope"] == f"{live_server.url}/"
    [cache] = [n for n in cache_names(page) if n.startswith("magdagdon-page-")]
    assert cache.startswith("magdagdon-page-")
    kept = page.evaluate(
        "async (name) => (await (await caches.open(name)).keys()).map((r) => r.url)", cache
    )
    assert f"{live_server.url}/" in kept
    assert f"{live_server.url}/js/app/app.js" in kept
    assert not [url for url in kept if "/api/" in url or "/icons/" in url]
    # the next visit is answered by the worker, the API still by the server
    served: dict[str, bool] = {}
    page.on("response", lambda r: served.__setitem__(r.url, r.from_service_worker))
    open_page(page, f"{live_server.url}/")
    assert served[f"{live_server.url}/"] is True
    assert served[f"{live_server.url}/js/app/app.js"] is True
    assert served[f"{live_server.url}/api/player"] is False
    # answered from the worker's cache, the page comes without its modulepreload hints (they
    # only save round trips over a network); every module still loads, the game is drawn
    assert page.locator('link[rel="modulepreload"]').count() == 0
    assert page.locator("#board .cell").count() == 16
    assert served[f"{live_server.url}/js/render/board.js"] is True
    assert page.request.get(f"{live_server.url}/").text().count('rel="modulepreload"') >= 20
    # Chromium takes the page's files from the cache by the worker's static routes, the API
    # from the network
    sources = page.evaluate(
        """() => Object.fromEntries(performance.getEntriesByType("resource")
            .map((e) => [new URL(e.name).pathname, e.workerMatchedSourceType]))"""
    )
    assert sources["/js/app/app.js"] == sources["/css/page.css"] == "cache"
    assert sources["/api/player"] != "cache"


def test_a_new_version_of_the_page_replaces_the_old_on_the_next_visit(
    page: Page, tmp_path: Path
) -> None:
    web = tmp_path / "web"
    shutil.copytree(WEB_DIR, web)
    db = tmp_path / "update.sqlite3"
    server = PageServer(db, web)
    try:
        open_page(page, f"{server.url}/")
        wait_controlled(page)
        [old_cache] = [n for n in cache_names(page) if n.startswith("magdagdon-page-")]
    finally:
        server.stop()
    css = web / "css" / "page.css"
    css.write_text(css.read_text(encoding="utf-8") + "\n:root { --version-mark: 2; }\n")
    server = PageServer(db, web, server.port)  # the same origin, a new version
    try:
        open_page(page, f"{server.url}/")  # the old version opens at once, the new one installs
        # ... takes over, and the page reloads into it by itself
        assert eventually(lambda: version_mark(page) == "2"), "the new version never came"
        page.wait_for_selector("body[data-ready]", timeout=TIMEOUT_MS)
        [new_cache] = [n for n in cache_names(page) if n.startswith("magdagdon-page-")]
        assert new_cache != old_cache
    finally:
        server.stop()
