"""No dead end without the server, in Debian's Chromium with a real server that stops (its port
refuses) and comes back on the same port, not only a browser told it is offline:

1. a tap made while the engine kept on the device is still starting waits, says what it waits
   for, and the engine plays it as soon as it is ready, also after a reload; back, the server
   has it once;
2. a damaged engine file in the service worker's cache is found and fetched again by itself;
3. the server back while the page is open: the game played here is sent at once, and the
   connection's mark goes.

Pyodide starts slowly on a loaded machine: every wait is on a condition, with long deadlines."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from device.page_helpers import api, body_data, eventually, open_page
from device.pwa_helpers import wait_controlled
from offline.test_offline_play import ENGINE_MS, KEPT, idle, server_log, tap
from server_process import ServerProcess, launch_server

if TYPE_CHECKING:
    from pathlib import Path

    from playwright.sync_api import BrowserContext, Page

pytestmark = [pytest.mark.browser, pytest.mark.slow]

LOGGED = "(id) => (JSON.parse(localStorage.getItem('magdagdon.log')) || {}).id === id"
DAMAGE = """async () => {
  const name = (await caches.keys()).find((n) => n.startsWith("magdagdon-engine-"));
  const cache = await caches.open(name);
  const path = "engine/runtime/magdagdon-engine.zip";
  const kept = await cache.match(path);
  const bytes = new Uint8Array(await kept.arrayBuffer());
  for (let i = 0; i < bytes.length; i += 97) bytes[i] ^= 0x5a; // the same size, other bytes
  await cache.put(path, new Response(bytes, { headers: kept.headers }));
  return bytes.length;
}"""
KEPT_ZIP = """async () => {
  const name = (await caches.keys()).find((n) => n.startsWith("magdagdon-engine-"));
  const kept = await (await caches.open(name)).match("engine/runtime/magdagdon-engine.zip");
  if (!kept) return null;
  const digest = await crypto.subtle.digest("SHA-256", await kept.arrayBuffer());
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}"""


def again(server: ServerProcess, tmp_path: Path) -> ServerProcess:
    """The same server started again on its port and database, once the old one is gone."""
    return launch_server(server.db, tmp_path / "logs-again", "--port", str(server.port))


def mark(page: Page) -> bool:
    return page.locator('[data-notice="offline"]').is_visible()


def test_1_a_tap_made_before_the_engine_is_ready_is_played_by_it(
    context: BrowserContext, live_server: ServerProcess, tmp_path: Path
) -> None:
    page = context.new_page()
    open_page(page, f"{live_server.url}/")
    wait_controlled(page)
    game = api(page, "GET", f"{live_server.url}/api/games/current")
    # the engine is kept on this device, and the game's log (the engine replays it)
    page.wait_for_selector('body[data-offline="ready"]', state="attached", timeout=ENGINE_MS)
    assert eventually(lambda: page.evaluate(LOGGED, game["id"]), 120)
    # opened again: the engine starts anew (seconds); the signal goes in the first of them
    page.reload()
    page.wait_for_selector("body[data-ready]")
    live_server.kill()

    page.locator('[data-action="roll"]').click()
    # the connection's mark, and what the tap waits for (the engine, still starting), not
    # "saving…" alone; or the engine was ready first and played it already
    assert eventually(lambda: mark(page), 60)
    pending = page.locator("[data-offline-pending]")
    assert pending.is_visible() or body_data(page, "version") == str(game["version"] + 1)
    # a reopening keeps the tap; the engine plays it once ready
    page.reload()
    page.wait_for_selector('body[data-offline="ready"]', state="attached", timeout=ENGINE_MS)
    assert eventually(lambda: body_data(page, "version") == str(game["version"] + 1), 120)
    assert body_data(page, "phase") == "place"
    page.locator('[data-notice="offline"] [data-offline-playing]').wait_for()
    idle(page)

    server = again(live_server, tmp_path)
    try:
        assert eventually(lambda: page.evaluate(KEPT) == [], 120)  # sent, and stored
        assert [a["type"] for a in server_log(page, server.url, game["id"])] == ["roll"]
        page.locator('[data-notice="offline"]').wait_for(state="hidden")
    finally:
        server.kill()


def test_2_a_damaged_engine_file_is_fetched_again_by_itself(
    context: BrowserContext, live_server: ServerProcess
) -> None:
    page = context.new_page()
    open_page(page, f"{live_server.url}/")
    wait_controlled(page)
    page.wait_for_selector('body[data-offline="ready"]', state="attached", timeout=ENGINE_MS)
    sound = page.evaluate(KEPT_ZIP)
    assert sound is not None
    page.evaluate(DAMAGE)
    assert page.evaluate(KEPT_ZIP) != sound

    page.reload()  # the engine starts from the damaged copy, fails, and mends it
    page.wait_for_selector('body[data-offline="ready"]', state="attached", timeout=ENGINE_MS)
    assert page.evaluate(KEPT_ZIP) == sound


def test_3_the_server_back_while_the_page_is_open_gets_the_game_at_once(
    context: BrowserContext, live_server: ServerProcess, tmp_path: Path
) -> None:
    page = context.new_page()
    open_page(page, f"{live_server.url}/")
    wait_controlled(page)
    page.wait_for_selector('body[data-offline="ready"]', state="attached", timeout=ENGINE_MS)
    game = api(page, "GET", f"{live_server.url}/api/games/current")
    assert eventually(lambda: page.evaluate(LOGGED, game["id"]), 120)
    live_server.kill()

    tap(page, '[data-action="roll"]')  # no answer: the game moves onto this device, said so
    assert body_data(page, "version") == str(game["version"] + 1)
    page.locator('[data-notice="offline"] [data-offline-playing]').wait_for()
    said = page.locator("#message").inner_text()
    assert "Nawala ang koneksyon" in said or "Connection lost" in said
    assert len(page.evaluate(KEPT)) == 1

    server = again(live_server, tmp_path)
    try:
        # no reload, no new game, no browser "online" event: the page's own retries find it
        assert eventually(lambda: page.evaluate(KEPT) == [], 120)
        page.locator('[data-notice="offline"]').wait_for(state="hidden")
        assert [a["type"] for a in server_log(page, server.url, game["id"])] == ["roll"]
    finally:
        server.kill()
