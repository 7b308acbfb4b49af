"""Web page benchmark: the real ``magdagdon serve`` on port 0 and Debian's Chromium; prints
figures, asserts nothing. Every time is measured inside the page with ``performance.now()``.

(a) The first load: the bytes (uncompressed) and files of everything the play screen loads until
    it is ready and the network is idle (target: at most 150 KB); what only the tutorial and the
    other sheets (the rules, the daily challenge, STATISTIKA, SETTINGS' data) need is loaded
    when they open, and listed apart.
(b) A tap on a die to its lit cells: from the click to the next animation frame, the view rendered
    (target: one frame, 16.7 ms at 60 Hz); the handler's own work apart.
(c) A tap on a lit cell to the die drawn there: drawn at the next frame (the page knows the cell
    is valid from ``valid_cells``), and settled when the server's answer is rendered, on localhost
    (target: median at most 30 ms).
The machine's load (``os.getloadavg``) is printed before and after.

Run: ``uv run python bench/web_bench.py [--taps N]``.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from playwright.sync_api import sync_playwright

CHROMIUM = "/usr/bin/chromium"
LATER = (
    "i18n/en.js",  # before the page first speaks English
    *("core/tutorial.js", "tutorial.json", "i18n/fil.long.js", "i18n/en.long.js"),
    *("review/sheet.js", "review/step.js", "i18n/fil.review.js", "i18n/en.review.js", "review.css"),
    # the daily challenge, STATISTIKA, the share step and SETTINGS' data (sheets/more.js loads them)
    *("sheets/daily.js", "sheets/stats.js", "sheets/settings.js", "sheets/share.js"),
    *("sheets/moreApi.js", "i18n/fil.sheets.js", "i18n/en.sheets.js", "more.css"),
    "lib/chart.js",
    # play without the server, in the background (core/source.js loads them)
    *("core/local.js", "core/kept.js", "i18n/fil.offline.js", "i18n/en.offline.js"),
)

TAP_DIE = """async (n) => {
    const handler = [], frame = [];
    for (let i = 0; i < n; i++) {
        const die = document.querySelectorAll(".tray [data-die]")[i % 2];
        const start = performance.now();
        die.click();
        handler.push(performance.now() - start);
        await new Promise((r) => requestAnimationFrame(r));
        frame.push(performance.now() - start);
        if (!document.querySelector(".cell.valid")) throw new Error("no lit cell");
        die.click();  // chosen again: let it go
        await new Promise((r) => requestAnimationFrame(r));
    }
    return { handler, frame };
}"""

TAP_CELL = """async (n) => {
    const idle = async () => {
        while (document.body.dataset.busy) await new Promise((r) => setTimeout(r, 0.5));
    };
    const drawn = [], settled = [];
    for (let i = 0; i < n; i++) {
        const die = document.querySelector(".tray [data-die]");
        die.click();
        await new Promise((r) => requestAnimationFrame(r));
        const cell = document.querySelector(".cell.valid");
        const version = document.body.dataset.version;
        let settledAt = null;
        const seen = new MutationObserver(() => {
            if (!document.body.dataset.busy && document.body.dataset.version !== version) {
                settledAt ??= performance.now();
            }
        });
        seen.observe(document.body, { attributes: true });
        const start = performance.now();
        cell.click();
        if (!cell.classList.contains("staged")) throw new Error("not drawn");
        await new Promise((r) => requestAnimationFrame(r));
        drawn.push(performance.now() - start);
        while (settledAt === null) await new Promise((r) => setTimeout(r, 0));
        seen.disconnect();
        settled.push(settledAt - start);
        cell.click();  // back to the tray (a keyboard-like click: no double-tap guard)
        await idle();
    }
    return { drawn, settled };
}"""


def start_server(db: Path) -> tuple[subprocess.Popen[str], str]:
    command = [sys.executable, "-m", "magdagdon", "serve", "--port", "0", "--no-browser"]
    process = subprocess.Popen([*command, "--db", str(db)], stdout=subprocess.PIPE, text=True)
    assert process.stdout is not None
    line = process.stdout.readline()
    if not line.startswith("Serving on http://"):
        process.kill()
        raise SystemExit(f"the server did not start: {line!r}")
    return process, line.strip().removeprefix("Serving on ")


def summary(values: list[float]) -> dict[str, float]:
    ordered = sorted(values)
    return {
        "median": round(statistics.median(ordered), 2),
        "p95": round(ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))], 2),
        "max": round(ordered[-1], 2),
    }


def measure(url: str, taps: int) -> dict[str, Any]:
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        # bypass_csp: wait_for_function evaluates text, which the page's CSP forbids
        # a Filipino browser: the page's first language (an English one loads en.js first)
        context = browser.new_context(
            viewport={"width": 390, "height": 844}, bypass_csp=True, locale="fil-PH"
        )
        context.add_init_script("localStorage.setItem('magdagdon.tutorialOffered', '1')")
        page = context.new_page()
        sizes: dict[str, int] = {}
        page.on(
            "response",
            lambda r: sizes.__setitem__(r.url, len(r.body())) if "/api/" not in r.url else None,
        )
        page.goto(url)
        page.wait_for_selector("body[data-ready]")
        page.wait_for_load_state("networkidle")
        # the offline engine (/engine/) comes in the background once the game is drawn: apart
        background = {u: n for u, n in sizes.items() if "/engine/" in u}
        first = {u: n for u, n in sizes.items() if u not in background}
        page.locator('[data-action="menu"]').click()  # a phone: the screens are in MENU
        page.locator('.menu [data-action="rules"]').click()
        page.wait_for_selector("#sheet-body h3")
        page.locator('#sheet [data-action="close"]').click()
        page.locator('[data-action="menu"]').click()
        page.locator('.menu [data-action="tutorial"]').click()
        page.wait_for_selector("[data-tutorial-step]")
        page.locator('[data-action="tutorial-skip"]').click()
        page.wait_for_function(
            "!document.body.dataset.busy && !document.querySelector('[data-tutorial-step]')"
        )
        # the daily challenge and STATISTIKA (from MENU on a phone), and SETTINGS
        for name, drawn in (("daily", ".daily-cards"), ("stats", "[data-stats]")):
            page.locator('[data-action="menu"]').click()
            page.locator(f'.menu [data-action="{name}"]').click()
            page.wait_for_selector(f"#sheet {drawn}")
            page.locator('#sheet [data-action="close"]').click()
        page.locator('[data-action="menu"]').click()
        page.locator('.menu [data-action="settings"]').click()
        page.wait_for_selector("#player-name")
        page.locator('#sheet [data-action="close"]').click()
        later = {u: n for u, n in sizes.items() if u not in first and "/engine/" not in u}

        page.locator('[data-action="roll"]').click()
        page.wait_for_function(
            "document.body.dataset.phase === 'place' && !document.body.dataset.busy"
        )
        dice: dict[str, list[float]] = page.evaluate(TAP_DIE, taps)
        cells: dict[str, list[float]] = page.evaluate(TAP_CELL, taps)
        browser.close()
    return {
        "first_load_bytes": sum(first.values()),
        "first_load_files": len(first),
        "largest_files": sorted(
            ((n, u.rsplit("/", 1)[-1]) for u, n in first.items()), reverse=True
        )[:5],
        "loaded_when_opened": {u.rsplit("/", 1)[-1]: n for u, n in later.items()},
        "first_load_has_later_files": [u for u in first if u.endswith(LATER)],
        "background_engine_bytes_so_far": sum(background.values()),
        "tap_die_to_lit_frame_ms": summary(dice["frame"]),
        "tap_die_handler_ms": summary(dice["handler"]),
        "tap_cell_to_die_drawn_ms": summary(cells["drawn"]),
        "tap_cell_to_state_settled_ms": summary(cells["settled"]),
        "taps": taps,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--taps", type=int, default=100)
    args = parser.parse_args()
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory() as tmp:
        process, url = start_server(Path(tmp) / "bench.sqlite3")
        try:
            figures = measure(url, args.taps)
        finally:
            process.kill()
            process.wait()
    figures["load_before"] = [round(x, 2) for x in load_before]
    figures["load_after"] = [round(x, 2) for x in os.getloadavg()]
    figures["cpus"] = os.cpu_count()
    kb = figures["first_load_bytes"] / 1024
    print(f"(a) first load: {kb:.1f} KB in {figures['first_load_files']} files (target ≤ 150 KB)")
    print(f"    loaded when opened: {figures['loaded_when_opened']}")
    engine_kb = figures["background_engine_bytes_so_far"] / 1024
    print(f"    the offline engine, in the background (as far as it came): {engine_kb:.0f} KB")
    lit = figures["tap_die_to_lit_frame_ms"]
    print(
        f"(b) tap on a die → lit cells at the next frame: median {lit['median']} ms, "
        f"p95 {lit['p95']} ms (handler {figures['tap_die_handler_ms']['median']} ms)"
    )
    drawn, settled = figures["tap_cell_to_die_drawn_ms"], figures["tap_cell_to_state_settled_ms"]
    print(
        f"(c) tap on a lit cell → die drawn: median {drawn['median']} ms; state settled: "
        f"median {settled['median']} ms, p95 {settled['p95']} ms (target median ≤ 30 ms)"
    )
    print(
        f"    load average before {figures['load_before']}, after {figures['load_after']}, "
        f"{figures['cpus']} CPUs"
    )
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
