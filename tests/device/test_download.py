"""What a phone downloads, in Debian's Chromium through a proxy that counts the server's bytes
as the wire carries them: the first visit, everything before the first tap, stays small (the page
compressed, the service worker keeping only what the page loaded); the offline engine's
download starts after the first finished turn, not with the page; and on a connection that saves
data never by itself: SETTINGS offers it with its size on the wire. Through the same proxy with
300 ms of round trip, taps that need no server answer in one frame, I-ROLL and KUMPIRMAHIN cost
one round trip, and no error shows."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlparse

import pytest
from playwright.sync_api import expect

from device.page_helpers import TIMEOUT_MS, api, body_data, eventually, open_page, open_screen
from device.pwa_helpers import wait_controlled
from device.slow_proxy import SlowProxy
from offline.test_offline_play import partnered, play_a_turn, shown
from web.web_helpers import LAYOUTS, NO_OFFLINE_ENGINE

if TYPE_CHECKING:
    from collections.abc import Iterator

    from playwright.sync_api import Browser, BrowserContext, Page

    from server_process import ServerProcess

pytestmark = pytest.mark.browser

ENGINE_SEEN = 2_000_000  # bytes: the engine's download has begun (the page's are far fewer)
ENGINE_MS = 240_000
FIRST_VISIT_WIRE = 60_000  # bytes of the answers' bodies, as sent
SIZE = Path(__file__).resolve().parents[2] / "build" / "web-engine" / "engine-size.json"
# Chromium's Network Information API, as a phone on a data saver reports it
SAVE_DATA = """Object.defineProperty(Navigator.prototype, "connection", {
  get: () => ({ saveData: true, effectiveType: "4g", addEventListener() {} }) })"""
NO_WORKER = "async () => (await navigator.serviceWorker.getRegistration()) === undefined"
WORKER_IDLE = """async () => {
  const registration = await navigator.serviceWorker.ready;
  return registration.active.state;
}"""


def phone(browser: Browser, *scripts: str) -> BrowserContext:
    made = browser.new_context(**LAYOUTS["phone"])
    made.add_init_script("localStorage.setItem('magdagdon.tutorialOffered', '1')")
    for script in scripts:
        made.add_init_script(script)
    return made


@pytest.fixture
def proxy(live_server: ServerProcess) -> Iterator[SlowProxy]:
    made = SlowProxy(live_server.port, round_trip_s=0.0)
    yield made
    made.close()


def engine_requests(paths: list[str]) -> list[str]:
    return [p for p in paths if p.startswith("/engine/runtime/") and "engine-size" not in p]


def finish_a_turn(page: Page, url: str) -> None:
    game = api(page, "GET", f"{url}/api/games/current")

    def confirmed() -> bool:
        log = api(page, "GET", f"{url}/api/games/{game['id']}/log")["actions"]
        return any(action["type"] == "confirm" for action in log)

    avoid: set[tuple[int, int, int, int]] = set()  # places that left a roll stuck
    for _ in range(60):
        if confirmed():
            return
        play_a_turn(page, avoid)
    shown_game = page.evaluate("JSON.parse(localStorage.getItem('magdagdon.lastState'))")
    raise AssertionError(f"no turn finished in {game['id']}: the page shows {shown_game}")


def test_the_first_visit_is_small_and_the_engine_waits_for_a_finished_turn(
    browser: Browser, proxy: SlowProxy
) -> None:
    context = phone(browser)
    fetched: list[str] = []
    context.on("request", lambda request: fetched.append(urlparse(request.url).path))
    try:
        page = context.new_page()
        open_page(page, f"{proxy.url}/")
        page.wait_for_selector("body[data-ready]:not([data-busy])")
        page.wait_for_load_state("networkidle")
        assert page.evaluate(NO_WORKER), "the worker comes with the first tap, not before"
        headers = proxy.header_bytes
        first_visit = proxy.reset()
        print(
            f"first visit before the first tap: {first_visit} B on the wire (+{headers} B headers)"
        )
        assert first_visit <= FIRST_VISIT_WIRE
        wait_controlled(page)
        assert page.evaluate(WORKER_IDLE) == "activated"
        assert engine_requests(fetched) == []
        assert body_data(page, "offline") is None  # not started, nothing asked for

        finish_a_turn(page, proxy.url)
        # the engine's megabytes come through the wire now (the rest of the page too)
        assert eventually(lambda: proxy.down_bytes > ENGINE_SEEN, 120)
        page.wait_for_selector('body[data-offline="ready"]', state="attached", timeout=ENGINE_MS)
    finally:
        context.close()


def test_a_data_saving_connection_downloads_the_engine_only_from_settings(
    browser: Browser, proxy: SlowProxy
) -> None:
    context = phone(browser, SAVE_DATA, "localStorage.setItem('magdagdon.offlinePlay', '1')")
    fetched: list[str] = []
    context.on("request", lambda request: fetched.append(urlparse(request.url).path))
    wire = json.loads(SIZE.read_text())["wire"]["br"]
    try:
        page = context.new_page()
        open_page(page, f"{proxy.url}/")
        wait_controlled(page)
        assert body_data(page, "offline") == "asks"
        finish_a_turn(page, proxy.url)
        open_screen(page, "settings")
        page.wait_for_selector('#sheet [data-offline-state="offlineAsks"]')
        download = page.locator('#sheet [data-action="offline-download"]')
        download.wait_for()
        expect(download).to_contain_text(f"({wire / 1e6:.1f} MB)")  # its size on the wire
        assert engine_requests(fetched) == []  # after the finished turn: nothing
        assert proxy.down_bytes < ENGINE_SEEN
        download.click()
        assert eventually(lambda: proxy.down_bytes > ENGINE_SEEN, 120)
    finally:
        context.close()


# ----- a slow link ---------------------------------------------------------------------------
# what the first frame after a tap draws, and whether the server's answer was in by then
FRAME = """([selector, drawn]) => new Promise((resolve) => {
  const version = document.body.dataset.version;
  const started = performance.now();
  document.querySelector(selector).click();
  requestAnimationFrame(() => resolve({
    ms: performance.now() - started,
    drawn: document.querySelector(drawn) !== null,
    answered: document.body.dataset.version !== version,
  }));
})"""
ROUND = """([selector, version]) => new Promise((resolve, reject) => {
  const started = performance.now();
  const seen = new MutationObserver(() => {
    if (document.body.dataset.version === String(version) && !document.body.dataset.busy) {
      seen.disconnect();
      resolve(performance.now() - started);
    }
  });
  seen.observe(document.body, { attributes: true });
  document.querySelector(selector).click();
  // an answer that never comes fails the test, with what the page shows, rather than hang it
  setTimeout(() => reject(new Error(`no version ${version}: ${document.body.dataset.version}`)),
    120000);
})"""
# the page has drawn and kept the answer to every tap so far
ANSWERED = """(version) => !document.body.dataset.busy &&
  document.body.dataset.version === String(
    JSON.parse(localStorage.getItem('magdagdon.lastState') ?? '{}').version) &&
  (version === null || document.body.dataset.version === String(version))"""


def timed(page: Page, script: str, arg: Any) -> float:
    ms: float = page.evaluate(script, arg)
    return ms


def first_frame(page: Page, selector: str, drawn: str) -> float:
    """The tap's milliseconds to its first frame, which already shows it (``drawn``) while the
    server's answer is still on the link: drawn without waiting for it, however long a frame
    takes on a busy machine."""
    frame: dict[str, Any] = page.evaluate(FRAME, [selector, drawn])
    assert frame["drawn"], f"{drawn} not drawn in the first frame after the tap"
    assert not frame["answered"], "the first frame came only after the server's answer"
    ms: float = frame["ms"]
    return ms


def one_round_trip(page: Page, proxy: SlowProxy, selector: str) -> float:
    """A tap that needs the server, timed to its answer drawn: exactly one request on the link
    (so one round trip, however slow the machine), and never faster than the link allows."""
    before = len(proxy.sent("/api/"))
    version = int(body_data(page, "version") or "0")
    ms = timed(page, ROUND, [selector, version + 1])
    sent = proxy.sent("/api/")[before:]
    assert len(sent) == 1, f"{selector}: {sent} on the link, not one request"
    assert ms >= proxy.one_way * 2000, f"{selector}: answered in {ms:.0f} ms, faster than the link"
    return ms


def test_a_game_on_a_slow_link(browser: Browser, live_server: ServerProcess) -> None:
    proxy = SlowProxy(live_server.port, round_trip_s=0.3)
    context = phone(browser, NO_OFFLINE_ENGINE)
    errors: list[str] = []
    try:
        page = context.new_page()
        page.on("pageerror", lambda err: errors.append(str(err)))
        open_page(page, f"{proxy.url}/")
        page.wait_for_load_state("networkidle")  # the page's own first asks are answered
        roll = one_round_trip(page, proxy, '[data-action="roll"]')
        version = int(body_data(page, "version") or "0")
        state = api(page, "GET", f"{proxy.url}/api/games/current")
        placeable = [(die, cells) for die, cells in state["valid_cells"].items() if cells]
        die_id, cells = min(placeable, key=partnered(state))
        die = f'.tray [data-die="{die_id}"]'
        pick = first_frame(page, die, f'{die}[aria-pressed="true"]')
        cell = f'[data-cell="{cells[0][0]}-{cells[0][1]}"]'
        stage = first_frame(page, cell, f'{cell}.staged[data-die="{die_id}"]')
        page.wait_for_function(ANSWERED, arg=version + 1, timeout=TIMEOUT_MS)
        confirmable = page.locator('#actions [data-action="confirm"]:not([aria-disabled])')
        avoid: set[tuple[int, int, int, int]] = set()
        for _ in range(60):
            if confirmable.count():
                break
            play_a_turn(page, avoid)
        page.wait_for_function(ANSWERED, arg=None, timeout=TIMEOUT_MS)
        assert confirmable.count(), f"KUMPIRMAHIN never offered: {shown(page)}"
        confirm = one_round_trip(page, proxy, '#actions [data-action="confirm"]')
        print(
            f"slow link (300 ms round trip): I-ROLL {roll:.0f} ms, a die {pick:.1f} ms, "
            f"staging {stage:.1f} ms, KUMPIRMAHIN {confirm:.0f} ms"
        )
        assert page.locator(".message.error").count() == 0
        assert errors == []
    finally:
        context.close()
        proxy.close()
