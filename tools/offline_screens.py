"""Screenshots of the offline screens into artifacts/offline/ (not kept in git), to look at:
SETTINGS' offline play switch (off, downloading, ready), a game played offline with its notice,
ARAW-ARAW offline (its practice notice), and the page after the games were sent back — at
390×844, 844×390, 360×640 and 1280×800, light and dark, in Filipino and in English.

A live ``magdagdon serve`` on port 0 and Debian's Chromium; every wait is on a condition (Pyodide
starts slowly on a loaded machine). Usage: ``python tools/offline_screens.py`` (after
``make pyodide``); it prints the files written.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

from playwright.sync_api import sync_playwright

if TYPE_CHECKING:
    from playwright.sync_api import Page

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "artifacts" / "offline"
LOCALES = {"fil": "fil-PH", "en": "en-US"}
SIZES = [(390, 844), (844, 390), (360, 640), (1280, 800)]
WAIT_MS = 600_000
KEPT_EMPTY = """() => new Promise((resolve) => {
  const opening = indexedDB.open("magdagdon", 1);
  opening.onupgradeneeded = () =>
    opening.result.createObjectStore("offline-games", { keyPath: "id" });
  opening.onsuccess = () => {
    const store = opening.result.transaction("offline-games").objectStore("offline-games");
    const request = store.count();
    request.onsuccess = () => { opening.result.close(); resolve(request.result === 0); };
  };
})"""
SWITCH = '#sheet [data-action="offline-play"]'
STATE = "#sheet [data-offline-state]"
FRAMES = "() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))"


def start_server(db: Path) -> tuple[subprocess.Popen[str], str]:
    command = [sys.executable, "-m", "magdagdon", "serve", "--port", "0", "--no-browser"]
    process = subprocess.Popen([*command, "--db", str(db)], stdout=subprocess.PIPE, text=True)
    assert process.stdout is not None
    line = process.stdout.readline()
    if not line.startswith("Serving on http://"):
        process.kill()
        raise SystemExit(f"the server did not start: {line!r}")
    return process, line.strip().removeprefix("Serving on ")


def shots(page: Page, name: str, language: str, focus: str | None = None) -> None:
    """Each size and colour scheme; ``focus``: what a sheet that scrolls must show."""
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        for scheme in ("light", "dark"):
            page.emulate_media(color_scheme=scheme)
            if focus is not None:  # the sheet may draw it anew meanwhile: no waiting on it
                page.evaluate("(s) => document.querySelector(s)?.scrollIntoView()", focus)
            page.evaluate(FRAMES)
            path = OUT / f"{name}-{language}-{width}x{height}-{scheme}.png"
            page.screenshot(path=str(path))
            print(path.relative_to(ROOT))
    page.set_viewport_size({"width": 390, "height": 844})


def idle(page: Page) -> None:
    page.wait_for_selector("body[data-ready]:not([data-busy])", timeout=WAIT_MS)


def open_screen(page: Page, name: str) -> None:
    item = page.locator(f'.menu [data-action="{name}"]')
    if not item.is_visible():
        page.locator('[data-action="menu"]').click()
    item.click()


def close_sheet(page: Page) -> None:
    page.locator('#sheet [data-action="close"]').click()
    page.wait_for_selector("dialog[open]", state="detached", timeout=WAIT_MS)


def one_language(page: Page, language: str) -> None:
    context = page.context
    page.goto(page.url)
    idle(page)
    assert page.evaluate("document.documentElement.lang") == language
    page.evaluate(
        "navigator.serviceWorker.ready.then(async () => { while"
        " (!navigator.serviceWorker.controller) await new Promise((r) => setTimeout(r, 50)); })"
    )
    open_screen(page, "settings")
    page.wait_for_selector("#sheet [data-engine-bytes]:not([data-engine-bytes=''])")
    shots(page, "settings-off", language, SWITCH)
    page.locator('#sheet [data-action="offline-play"]').click()
    page.wait_for_selector('#sheet [data-offline-state="offlineLoading"]')
    shots(page, "settings-downloading", language, STATE)
    page.wait_for_selector('#sheet [data-offline-state="offlineReady"]', timeout=WAIT_MS)
    shots(page, "settings-ready", language, STATE)
    close_sheet(page)

    context.set_offline(True)
    page.reload()
    idle(page)
    page.wait_for_selector('body[data-offline="ready"]', state="attached", timeout=WAIT_MS)
    if page.evaluate("document.body.dataset.phase") == "roll":
        page.locator('[data-action="roll"]').first.click()
        idle(page)
    page.wait_for_selector('[data-notice="offline"] [data-offline-playing]')
    shots(page, "playing-offline", language)
    open_screen(page, "daily")
    page.wait_for_selector("[data-daily-offline]", timeout=WAIT_MS)
    shots(page, "daily-offline", language)
    close_sheet(page)

    context.set_offline(False)
    page.wait_for_function(KEPT_EMPTY, timeout=WAIT_MS, polling=500)
    idle(page)
    page.wait_for_selector('[data-notice="offline"]', state="detached", timeout=WAIT_MS)
    shots(page, "after-sync", language)


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        process, url = start_server(Path(tmp) / "screens.sqlite3")
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(
                    executable_path="/usr/bin/chromium", args=["--no-sandbox"]
                )
                for language in ("fil", "en"):
                    # bypass_csp: wait_for_function evaluates text, which the page's policy forbids
                    # the browser's language: a new player's (a saved one wins over the
                    # device's, so the language is not set in localStorage)
                    context = browser.new_context(
                        viewport={"width": 390, "height": 844},
                        bypass_csp=True,
                        locale=LOCALES[language],
                    )
                    context.add_init_script(
                        "localStorage.setItem('magdagdon.tutorialOffered', '1');"
                        "if (localStorage.getItem('magdagdon.offlinePlay') === null)"
                        " localStorage.setItem('magdagdon.offlinePlay', '0');"
                    )
                    page = context.new_page()
                    page.goto(url)
                    one_language(page, language)
                    context.close()
                browser.close()
        finally:
            process.kill()
            process.wait()


if __name__ == "__main__":
    main()
